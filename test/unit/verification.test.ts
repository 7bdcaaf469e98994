import { createHmac } from 'crypto';

import type { ParameterReader } from '../../nodes/TenantApiTrigger/settings';
import { verificationConfig } from '../../nodes/TenantApiTrigger/settings';
import {
	PRESETS,
	checkTimestamp,
	constantTimeStringEqual,
	decodeSignature,
	parseSignatureHeader,
	parseTemplate,
	secretKey,
	verifyDelivery,
} from '../../nodes/TenantApiTrigger/verifier';
import type { VerificationConfig } from '../../nodes/TenantApiTrigger/verifier';
import { sign } from '../../sandbox/signing';

const SECRET = 'whsec_current';
const PREVIOUS = 'whsec_previous';
const NOW = 1_700_000_000;
const BODY = Buffer.from(
	'{"id":"evt_1","event":"transfers.created","created_at":1700000000,"data":{"object":{"id":"tr_1"}}}',
);

interface Settings {
	mode?: string;
	secrets?: unknown[];
	[parameter: string]: unknown;
}

/** The verifier configuration the node builds from these settings (nodes/TenantApiTrigger/settings.ts, no n8n). */
const config = ({
	mode = 'hmacSha256',
	secrets = [SECRET],
	...parameters
}: Settings = {}): VerificationConfig => {
	const read: ParameterReader = (name, fallback) =>
		parameters[name] === undefined ? fallback : parameters[name];
	return verificationConfig(mode as never, read, secrets);
};

const verify = (
	cfg: VerificationConfig,
	headers: Record<string, string | string[] | undefined>,
	body = BODY,
	now = NOW,
) => verifyDelivery(cfg, { rawBody: body, headers, nowSeconds: now });

describe('decodeSignature', () => {
	const digest = createHmac('sha256', SECRET).update(BODY).digest();

	it.each([
		['lower-case hex', digest.toString('hex')],
		['upper-case hex', digest.toString('hex').toUpperCase()],
		['base64', digest.toString('base64')],
		['base64 without padding', digest.toString('base64').replace(/=+$/, '')],
		['base64url', digest.toString('base64url')],
	])('accepts %s', (_label, text) => {
		expect(decodeSignature(text, 'sha256')?.equals(digest)).toBe(true);
	});

	it('honours a fixed encoding', () => {
		expect(decodeSignature(digest.toString('hex'), 'sha256', 'base64')).toBeUndefined();
		expect(decodeSignature(digest.toString('base64'), 'sha256', 'hex')).toBeUndefined();
		expect(decodeSignature(digest.toString('hex'), 'sha256', 'hex')?.equals(digest)).toBe(true);
	});

	it.each([
		[
			"a prefixed signature (prefixes are the header format's job)",
			'sha256=' + digest.toString('hex'),
		],
		['a truncated hex digest', digest.toString('hex').slice(0, 62)],
		['a hex digest of the wrong size', createHmac('sha512', SECRET).update(BODY).digest('hex')],
		['non-canonical base64', digest.toString('base64').slice(0, -2) + 'B='],
		['garbage', 'not a signature!'],
		['an empty string', ''],
	])('refuses %s', (_label, text) => {
		expect(decodeSignature(text, 'sha256')).toBeUndefined();
	});
});

describe('parseSignatureHeader', () => {
	const plain = PRESETS.hmacSha256;

	it('plain: splits on commas and whitespace, drops other algorithms, caps the number of candidates', () => {
		expect(parseSignatureHeader(' a, b  c,,d ', plain).signatures).toEqual(['a', 'b', 'c', 'd']);
		expect(parseSignatureHeader('sha256=a, sha512=b, SHA256=c', plain).signatures).toEqual([
			'a',
			'c',
		]);
		expect(
			parseSignatureHeader(Array.from({ length: 20 }, (_, i) => `s${i}`).join(','), plain)
				.signatures,
		).toHaveLength(8);
	});

	it('prefixed: keeps only signatures with the prefix', () => {
		expect(parseSignatureHeader('v0=abc v1=def, v0=ghi', PRESETS.slack).signatures).toEqual([
			'abc',
			'ghi',
		]);
	});

	it('key=value: reads the timestamp key and every signature key', () => {
		expect(parseSignatureHeader('t=123,v1=aa,v0=bb,v1=cc', PRESETS.stripe)).toEqual({
			timestamp: '123',
			signatures: ['aa', 'cc'],
		});
		expect(parseSignatureHeader('ts=9;h1=ff;h1=ee', PRESETS.paddle)).toEqual({
			timestamp: '9',
			signatures: ['ff', 'ee'],
		});
		expect(parseSignatureHeader('garbage,=x,v1', PRESETS.stripe)).toEqual({ signatures: [] });
	});

	it('versioned: keeps entries of the version label', () => {
		expect(
			parseSignatureHeader('v1,abc= v1a,zzz v2,yyy  v1,def', PRESETS.standardWebhooks).signatures,
		).toEqual(['abc=', 'def']);
	});
});

describe('secretKey', () => {
	it('decodes each secret encoding and refuses invalid ones', () => {
		expect(secretKey('abc', 'text')).toEqual(Buffer.from('abc'));
		expect(secretKey('whsec_' + Buffer.from('key!').toString('base64'), 'base64')).toEqual(
			Buffer.from('key!'),
		);
		expect(secretKey(Buffer.from('key!').toString('base64'), 'base64')).toEqual(
			Buffer.from('key!'),
		);
		expect(secretKey('whsec_not base64!', 'base64')).toBeUndefined();
		expect(secretKey('0aFF', 'hex')).toEqual(Buffer.from([0x0a, 0xff]));
		expect(secretKey('0aF', 'hex')).toBeUndefined();
		expect(secretKey('zz', 'hex')).toBeUndefined();
	});
});

describe('parseTemplate', () => {
	it('splits placeholders (case-insensitive names) from literal text and refuses unknown ones', () => {
		expect(parseTemplate('v0:{timestamp}:{body}')).toEqual([
			{ kind: 'literal', text: 'v0:' },
			{ kind: 'timestamp' },
			{ kind: 'literal', text: ':' },
			{ kind: 'body' },
		]);
		expect(parseTemplate('{URL}{formFields}')).toEqual([{ kind: 'url' }, { kind: 'formFields' }]);
		expect(parseTemplate('{item.amount.value}')).toEqual([{ kind: 'item', path: 'amount.value' }]);
		expect(parseTemplate('{boby}')).toBeUndefined();
		expect(parseTemplate('')).toBeUndefined();
	});
});

describe('checkTimestamp', () => {
	it('accepts inside the window in both directions and refuses outside', () => {
		expect(checkTimestamp(String(NOW - 300), NOW, 300)).toBe('ok');
		expect(checkTimestamp(String(NOW + 300), NOW, 300)).toBe('ok');
		expect(checkTimestamp(String(NOW - 301), NOW, 300)).toBe('timestamp_out_of_window');
		expect(checkTimestamp(String(NOW + 301), NOW, 300)).toBe('timestamp_out_of_window');
	});

	it('refuses values that are not unix seconds', () => {
		for (const value of ['', 'abc', '1.5', '-5', '2023-11-14T22:13:20Z', '1'.repeat(13)]) {
			expect(checkTimestamp(value, NOW, 300)).toBe('invalid_timestamp');
		}
	});

	it('falls back to 300 s when the tolerance is not a positive number', () => {
		expect(checkTimestamp(String(NOW - 299), NOW, Number.NaN)).toBe('ok');
		expect(checkTimestamp(String(NOW - 1000), NOW, 0)).toBe('timestamp_out_of_window');
	});
});

describe('constantTimeStringEqual', () => {
	it('compares strings of any length', () => {
		expect(constantTimeStringEqual('abc', 'abc')).toBe(true);
		expect(constantTimeStringEqual('abc', 'abcd')).toBe(false);
		expect(constantTimeStringEqual('', 'x')).toBe(false);
	});
});

// A genuine delivery of each scheme, a tampered body, another secret, the previous one and several signatures in one
// header: presets.test.ts, for every scheme the sandbox signs. Here: what the HMAC settings themselves decide.
describe('verifyDelivery with signatures made by the sandbox signer', () => {
	it('accepts SHA-512 only in SHA-512 mode', () => {
		const headers = sign({ secret: SECRET, scheme: 'hmac-sha512-hex', body: BODY });
		expect(verify(config({ mode: 'hmacSha512' }), headers).ok).toBe(true);
		expect(verify(config(), headers).reason).toBe('malformed_signature');
		const sha256 = sign({ secret: SECRET, scheme: 'hmac-sha256-hex', body: BODY });
		expect(verify(config({ mode: 'hmacSha512' }), sha256).reason).toBe('malformed_signature');
	});

	it('refuses the same JSON re-formatted with whitespace', () => {
		const headers = sign({ secret: SECRET, body: BODY });
		const reformatted = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 2));
		expect(verify(config(), headers, reformatted).reason).toBe('signature_mismatch');
	});

	it('skips a blank or non-text secret but keeps its place, so secretIndex still points into the configured list', () => {
		const headers = sign({ secret: PREVIOUS, body: BODY });
		expect(verify(config({ secrets: ['  ', PREVIOUS] }), headers)).toMatchObject({
			ok: true,
			reason: 'ok',
			bodyFormat: 'json',
			secretIndex: 1,
		});
		expect(verify(config({ secrets: [undefined, PREVIOUS] }), headers)).toMatchObject({
			ok: true,
			reason: 'ok',
			bodyFormat: 'json',
			secretIndex: 1,
		});
		const header = sign({ secret: PREVIOUS, scheme: 'secret-header', body: BODY });
		expect(verify(config({ mode: 'secretHeader', secrets: ['', PREVIOUS] }), header)).toMatchObject(
			{ ok: true, reason: 'ok', bodyFormat: 'json', secretIndex: 1 },
		);
	});

	it('accepts a header that carries several signatures when one matches', () => {
		const good = sign({ secret: SECRET, body: BODY })['x-signature'];
		expect(verify(config(), { 'x-signature': `${'0'.repeat(64)}, ${good}` }).ok).toBe(true);
		expect(verify(config(), { 'x-signature': ['0'.repeat(64), good] }).ok).toBe(true);
	});

	it('finds the signature header case-insensitively and with a custom name', () => {
		const sig = sign({ secret: SECRET, body: BODY })['x-signature'];
		expect(
			verify(config({ signatureHeader: 'X-Tenant-Signature' }), { 'x-tenant-signature': sig }).ok,
		).toBe(true);
		expect(verify(config(), { 'X-Signature': sig }).ok).toBe(true);
	});

	it('reports a missing or malformed signature', () => {
		expect(verify(config(), {}).reason).toBe('missing_signature');
		expect(verify(config(), { 'x-signature': '   ' }).reason).toBe('missing_signature');
		expect(verify(config(), { 'x-signature': 'nope' }).reason).toBe('malformed_signature');
		expect(verify(config(), { 'x-signature': 'a'.repeat(5000) }).reason).toBe(
			'malformed_signature',
		);
	});

	it('refuses when no secret is configured, whatever the request carries', () => {
		const headers = sign({ secret: SECRET, body: BODY });
		expect(verify(config({ secrets: [] }), headers).reason).toBe('no_secret_configured');
		expect(verify(config({ secrets: ['', '  '] }), headers).reason).toBe('no_secret_configured');
		expect(
			verify(config({ mode: 'secretHeader', secrets: [] }), { 'x-webhook-secret': '' }).reason,
		).toBe('no_secret_configured');
	});

	it('ignores surrounding whitespace in configured secrets', () => {
		expect(
			verify(config({ secrets: [` ${SECRET}\n`] }), sign({ secret: SECRET, body: BODY })).ok,
		).toBe(true);
	});
});

describe('verifyDelivery with a timestamp', () => {
	const tsConfig = config({ useTimestamp: true });

	it('accepts a signature over "<timestamp>.<raw body>" inside the window', () => {
		expect(verify(tsConfig, sign({ secret: SECRET, body: BODY, timestamp: NOW - 10 })).ok).toBe(
			true,
		);
	});

	it('refuses a timestamp outside the window even with a valid signature', () => {
		expect(
			verify(tsConfig, sign({ secret: SECRET, body: BODY, timestamp: NOW - 301 })).reason,
		).toBe('timestamp_out_of_window');
		expect(
			verify(
				config({ useTimestamp: true, toleranceSeconds: 600 }),
				sign({ secret: SECRET, body: BODY, timestamp: NOW - 301 }),
			).ok,
		).toBe(true);
	});

	it('refuses a moved timestamp (the signature covers it)', () => {
		const headers = sign({ secret: SECRET, body: BODY, timestamp: NOW - 10 });
		expect(verify(tsConfig, { ...headers, 'x-timestamp': String(NOW - 9) }).reason).toBe(
			'signature_mismatch',
		);
	});

	it('refuses a missing timestamp and a body-only signature', () => {
		expect(verify(tsConfig, sign({ secret: SECRET, body: BODY })).reason).toBe('missing_timestamp');
		const bodyOnly = sign({ secret: SECRET, body: BODY });
		expect(verify(tsConfig, { ...bodyOnly, 'x-timestamp': String(NOW) }).reason).toBe(
			'signature_mismatch',
		);
	});

	it('refuses a timestamped signature when timestamps are off', () => {
		expect(verify(config(), sign({ secret: SECRET, body: BODY, timestamp: NOW })).reason).toBe(
			'signature_mismatch',
		);
	});
});

describe('verifyDelivery in secret-in-header mode', () => {
	const shConfig = config({ mode: 'secretHeader', secrets: [SECRET, PREVIOUS] });

	it('accepts the current or previous secret in the header', () => {
		expect(
			verify(shConfig, sign({ secret: SECRET, scheme: 'secret-header', body: BODY })),
		).toMatchObject({ secretIndex: 0 });
		expect(
			verify(shConfig, sign({ secret: PREVIOUS, scheme: 'secret-header', body: BODY })),
		).toMatchObject({ secretIndex: 1 });
	});

	it('refuses a wrong or missing secret', () => {
		expect(verify(shConfig, { 'x-webhook-secret': 'whsec_curren' }).reason).toBe('secret_mismatch');
		expect(verify(shConfig, {}).reason).toBe('missing_secret_header');
		expect(verify(shConfig, sign({ secret: SECRET, body: BODY })).reason).toBe(
			'missing_secret_header',
		);
	});
});

describe('verifyDelivery on odd settings', () => {
	it('returns reason codes', () => {
		expect(verify(config({ mode: 'none' }), {})).toMatchObject({
			ok: true,
			reason: 'verification_disabled',
			bodyFormat: 'json',
		});
		expect(verify({ mode: 'bogus' } as never, {}).reason).toBe('unknown_mode');
		expect(
			verify(
				{
					mode: 'hmac',
					secrets: [SECRET],
					scheme: { ...PRESETS.hmacSha256, signedContent: '{boby}' },
				},
				{},
			).reason,
		).toBe('invalid_scheme');
		expect(
			verify({ mode: 'hmac', secrets: [SECRET], scheme: PRESETS.adyenPlatform }, {}).reason,
		).toBe('invalid_secret');
		expect(
			verify(config({ secrets: [42 as never, SECRET] }), sign({ secret: SECRET, body: BODY })).ok,
		).toBe(true);
	});

	it('puts nothing secret in the result', () => {
		const result = verify(config(), sign({ secret: 'whsec_other', body: BODY }));
		const text = JSON.stringify(result);
		expect(text).not.toContain(SECRET);
		expect(text).not.toContain(createHmac('sha256', SECRET).update(BODY).digest('hex'));
	});
});
