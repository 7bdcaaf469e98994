/**
 * Reading a signature header (nodes/TenantApiTrigger/signatureHeader.ts): what is no signature, the formats' edges,
 * the secret encodings, and the constant-time comparisons. The forms senders write (hex in either case, base64 with
 * or without padding, base64url, an algorithm prefix, decoy entries, a fixed encoding's misfits) are the property
 * campaign's (test/property/sender.ts); whether a signature matches is authenticate.test.ts.
 */
import { createHmac } from 'crypto';

import { settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import {
	constantTimeEqual,
	constantTimeTextEqual,
	readSignatureHeader,
	secretKey,
} from '../../nodes/TenantApiTrigger/signatureHeader';
import type { HmacVerification } from '../../nodes/TenantApiTrigger/verifications';

const BASE = (() => {
	const { verification } = settingsFromParameters('customHmac', (_name, fallback) => fallback);
	if (verification.kind !== 'hmac') throw new Error('Custom HMAC is an HMAC Verification');
	return verification;
})();
const hmac = (over: Partial<HmacVerification>): HmacVerification => ({ ...BASE, ...over });

const DIGEST = createHmac('sha256', 'key').update('signed').digest();
const OTHER = createHmac('sha256', 'key').update('other').digest();
const HEX = DIGEST.toString('hex');
const B64 = DIGEST.toString('base64');
/** B64 with the two unused bits of its last character set: Node decodes it to the same bytes, but it is no encoding of them. */
const B64_LENIENT = (() => {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	const last = alphabet.indexOf(B64[42]);
	return `${B64.slice(0, 42)}${alphabet[last | 1]}=`;
})();

const digestsOf = (value: string, over: Partial<HmacVerification> = {}) =>
	readSignatureHeader(value, hmac(over)).digests.map((digest) => digest.toString('hex'));

describe('signature encodings', () => {
	it('Node decodes the lenient form to the same bytes (what the exact check is for)', () => {
		expect(B64_LENIENT).not.toBe(B64);
		expect(Buffer.from(B64_LENIENT, 'base64')).toEqual(DIGEST);
	});

	it.each([
		['a digest of another length (SHA-1)', createHmac('sha1', 'k').update('x').digest('hex')],
		['63 hex digits', HEX.slice(0, 63)],
		['base64 that Node would decode leniently (unused bits set)', B64_LENIENT],
		['base64 with characters of both alphabets', `${B64.slice(0, 10)}-+${B64.slice(12)}`],
		['text that is neither', 'not-a-signature!'],
	])('%s is no signature', (_name, text) => {
		expect(digestsOf(text)).toEqual([]);
	});
});

describe('signature formats', () => {
	const O_HEX = OTHER.toString('hex');
	const O_B64 = OTHER.toString('base64');
	const versioned = { signatureFormat: 'versioned', signatureLabel: 'v1' } as const;
	it.each<[string, string, Partial<HmacVerification>, string[]]>([
		[
			'at most eight signatures of a header are read',
			[...Array(8).fill(O_HEX), HEX].join(','),
			{},
			Array(8).fill(O_HEX),
		],
		[
			'prefixed: only signatures that start with the label',
			`v0=${HEX} v1=${O_HEX}`,
			{ signatureFormat: 'prefixed', signatureLabel: 'v0=' },
			[HEX],
		],
		[
			'versioned: space-separated <label>,<signature> entries of the label',
			`v1,${B64} v2,${O_B64} v1a,${B64}`,
			versioned,
			[HEX],
		],
		[
			'versioned: a header sent twice, joined with ", ", keeps the signature of each line',
			`v1,${O_B64}, v1,${B64}`,
			versioned,
			[O_HEX, HEX],
		],
	])('%s', (_name, value, over, digests) => {
		expect(digestsOf(value, over)).toEqual(digests);
	});

	it('key=value: the signatures under the label and the timestamp under its key, with the pair separator', () => {
		const stripeLike = hmac({ signatureFormat: 'keyValue', signatureLabel: 'v1' });
		expect(readSignatureHeader(`t=1700000000,v1=${HEX},v0=${O_HEX}`, stripeLike)).toEqual({
			digests: [DIGEST],
			timestamp: '1700000000',
		});
		const own = hmac({
			signatureFormat: 'keyValue',
			signatureLabel: 'sig',
			timestampKey: 'ts',
			pairSeparator: ';',
		});
		expect(readSignatureHeader(` ts = 17 ; sig=${HEX};sig=${B64}`, own)).toEqual({
			digests: [DIGEST, DIGEST],
			timestamp: '17',
		});
		expect(readSignatureHeader(`=${HEX},v1`, stripeLike)).toEqual({
			digests: [],
			timestamp: undefined,
		});
	});
});

it('secret encodings: text as typed; hex pairs of hex digits only; base64 with an optional whsec_ prefix, exact, never empty', () => {
	const key = Buffer.from('standard webhooks key');
	expect(secretKey('clé', 'text')).toEqual(Buffer.from('clé', 'utf8'));
	expect(secretKey('0aFF', 'hex')).toEqual(Buffer.from([0x0a, 0xff]));
	expect(secretKey(`whsec_${key.toString('base64')}`, 'base64')).toEqual(key);
	expect(secretKey(key.toString('base64'), 'base64')).toEqual(key);
	const invalid = {
		hex: ['abc', 'zz', 'whsec_ab'],
		base64: ['whsec_not base64!', 'whsec_', 'whsec_QQ=x'],
	};
	for (const [encoding, secrets] of Object.entries(invalid))
		for (const secret of secrets)
			expect([secret, secretKey(secret, encoding as 'hex' | 'base64')]).toEqual([
				secret,
				undefined,
			]);
});

it('constant-time comparisons: equal only when equal, false (not an exception) for other lengths', () => {
	expect(constantTimeEqual(DIGEST, Buffer.from(DIGEST))).toBe(true);
	expect(constantTimeEqual(DIGEST, OTHER)).toBe(false);
	expect(constantTimeEqual(DIGEST, DIGEST.subarray(1))).toBe(false);
	expect(constantTimeTextEqual('whsec_a', 'whsec_a')).toBe(true);
	expect(constantTimeTextEqual('whsec_a', 'whsec_ab')).toBe(false);
	expect(constantTimeTextEqual('', 'x'.repeat(5000))).toBe(false);
});
