/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: fixture signing secrets, not real ones */
/**
 * Whether a request comes from the sender (nodes/TenantApiTrigger/authenticate.ts), on its raw bytes and headers:
 * every reason a request is refused for, the secrets of a rotation, several signatures in one header, and the
 * constant-time comparisons. Signatures are made by the sandbox's signer (sandbox/signing.js), the sender's side.
 */
import crypto from 'crypto';

import type { AuthenticationFailure } from '../../nodes/TenantApiTrigger/authenticate';
import { authenticate } from '../../nodes/TenantApiTrigger/authenticate';
import type { BodyFormat } from '../../nodes/TenantApiTrigger/body';
import type { ReceivedRequest } from '../../nodes/TenantApiTrigger/receive';
import { settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import type { Verification, VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import { hmac, sign } from '../../sandbox/signing';
import { parameterReader } from '../harness/verifier';

const NOW = 1_700_000_000;
const SECRET = 'whsec_current_1f2e';
const PREVIOUS = 'whsec_previous_9a8b';
const STANDARD = `whsec_${Buffer.from('standard webhooks key').toString('base64')}`;
const BODY = '{"event":"transfers.created","data":{"amount":1250}}';
const URL_ = 'https://n8n.example.com/webhook/5b0c7e1a/webhook?a=1';

const checkOf = (name: VerificationName, parameters: Record<string, unknown> = {}) =>
	settingsFromParameters(name, parameterReader(parameters)).verification;

/** A Custom HMAC Verification over `template`, its signature as hex in x-signature. */
const custom = (template: string, parameters: Record<string, unknown> = {}) =>
	checkOf('customHmac', {
		customSignedContent: template,
		customSignatureEncoding: 'hex',
		...parameters,
	});

function request(
	headers: Record<string, string>,
	over: Partial<ReceivedRequest> = {},
): ReceivedRequest {
	return { rawBody: Buffer.from(BODY), headers, query: {}, nowSeconds: NOW, url: URL_, ...over };
}

const run = (
	check: Verification,
	secrets: unknown[],
	headers: Record<string, string>,
	over: Partial<ReceivedRequest> = {},
	format: BodyFormat = 'json',
) => authenticate(check, format, secrets, request(headers, over));

const reasonOf = (...args: Parameters<typeof run>) => {
	const result = run(...args);
	return result.ok ? 'ok' : result.reason;
};

/** Headers of a Custom HMAC signature (hex in x-signature) over `parts`. */
const customSigned = (parts: string[], headers: Record<string, string> = {}, secret = SECRET) => ({
	...headers,
	'x-signature': hmac('sha256', secret, [...parts, BODY]).toString('hex'),
});

describe('every reason a request is refused for', () => {
	const hmacCheck = checkOf('hmacSha256');
	const timestamped = checkOf('hmacSha256', { useTimestamp: true });
	const signed = sign({ secret: SECRET, body: BODY });
	const ts = (timestamp: number | string) =>
		sign({ secret: SECRET, body: BODY, timestamp: timestamp as number });

	const sig = signed['x-signature'];
	/** The outcome of a request with BODY and `headers` under `check` and the current secret. */
	const on =
		(check: Verification, headers: Record<string, string>, over: Partial<ReceivedRequest> = {}) =>
		() =>
			reasonOf(check, [SECRET], headers, over);
	const long = 'i'.repeat(257);
	const cases = [
		['raw_body_unavailable', on(hmacCheck, signed, { rawBody: undefined })],
		['no_secret_configured', () => reasonOf(hmacCheck, ['', '  ', undefined, 42], signed)],
		['invalid_secret', () => reasonOf(checkOf('standardWebhooks'), ['whsec_not base64!'], {})],
		['invalid_signed_content', on(custom('{body}{timestamp}'), signed)],
		['missing_signature', on(hmacCheck, { 'x-other': sig })],
		['missing_signature', on(hmacCheck, { 'x-signature': '  ' })],
		['malformed_signature', on(hmacCheck, { 'x-signature': 'zz' })],
		['malformed_signature', on(hmacCheck, { 'x-signature': `${sig},${'a'.repeat(2048)}` })],
		['signature_mismatch', on(hmacCheck, sign({ secret: 'whsec_other', body: BODY }))],
		['missing_timestamp', on(timestamped, { 'x-signature': sig })],
		['invalid_timestamp', on(timestamped, ts(`${NOW}000`))],
		['invalid_timestamp', on(timestamped, ts(' 1700000000'))],
		['timestamp_out_of_window', on(timestamped, ts(NOW - 301))],
		['timestamp_out_of_window', on(timestamped, ts(NOW + 301))],
		['missing_id', on(custom('{id}.{body}'), customSigned(['msg_1.'], { 'webhook-id': ' msg_1' }))],
		['missing_id', on(custom('{id}.{body}'), customSigned([`${long}.`], { 'webhook-id': long }))],
		['missing_url', on(custom('{url}{body}'), customSigned([URL_]), { url: undefined })],
		['missing_url', on(custom('{url}{body}'), customSigned([`${URL_} `]), { url: `${URL_} ` })],
		['signature_mismatch', on(custom('{url}{body}'), customSigned([URL_]), { url: `${URL_}&b=2` })],
		['missing_signed_header', on(custom('{header.x-shop}.{body}'), customSigned(['.']))],
		['missing_secret_header', on(checkOf('secretHeader'), {})],
		['secret_mismatch', on(checkOf('secretHeader'), { 'x-webhook-secret': `${SECRET}x` })],
	] as const satisfies ReadonlyArray<readonly [AuthenticationFailure, () => string]>;
	// The compiler holds the cases to every reason of the type.
	const everyReason: Exclude<AuthenticationFailure, (typeof cases)[number][0]> extends never
		? true
		: never = true;
	it('every reason of the type has a case', () => expect(everyReason).toBe(true));

	it.each(cases)('%s', (reason, outcome) => {
		expect(outcome()).toBe(reason);
	});
});

/**
 * What each Verification accepts (a rotation's secrets, several signatures in a header, a signed id, URL or header)
 * is proven over genuine deliveries by the property campaign, and where the timestamp window ends; here the secrets'
 * edges it never sends.
 */
describe('what passes, and the secret it names', () => {
	const standard = sign({
		secret: STANDARD,
		scheme: 'standard-webhooks',
		body: BODY,
		timestamp: NOW,
		id: 'msg_1',
	});
	const current = sign({ secret: SECRET, body: BODY })['x-signature'];
	const passed = (secretIndex: number, tried = [secretIndex], timestamp?: number) => ({
		ok: true,
		secretIndex,
		...(timestamp === undefined ? {} : { timestamp }),
		seen: { secretsTried: tried, ...(timestamp === undefined ? {} : { timestamp }) },
	});

	const sha256 = checkOf('hmacSha256');
	const [std, secretHeader] = [checkOf('standardWebhooks'), checkOf('secretHeader')];
	const withId = (passing: object) => ({
		...passing,
		id: { value: 'msg_1', header: 'webhook-id' },
	});
	it.each<[string, Verification, unknown[], Record<string, string>, object]>([
		[
			'Secret in Header, blanks around it',
			secretHeader,
			[SECRET],
			{ 'x-webhook-secret': ` ${SECRET} ` },
			passed(0),
		],
		[
			'a secret after empty places',
			sha256,
			[undefined, undefined, SECRET],
			{ 'x-signature': current },
			passed(2),
		],
		[
			'Secret in Header, the previous secret',
			secretHeader,
			[SECRET, PREVIOUS],
			{ 'x-webhook-secret': PREVIOUS },
			passed(1, [0, 1]),
		],
		[
			'a secret not valid in its encoding skipped, the others still tried',
			std,
			['whsec_not base64!', STANDARD],
			standard,
			withId(passed(1, [1], NOW)),
		],
	])('%s', (_name, check, secrets, headers, expected) => {
		expect(run(check, secrets, headers)).toEqual(expected);
	});

	it('the body is signed byte for byte, up to the payload limit: the same JSON written otherwise, or 15 MiB with its last byte changed, does not match', () => {
		const check = checkOf('hmacSha256');
		const reformatted = Buffer.from(JSON.stringify(JSON.parse(BODY), null, 1));
		expect(
			reasonOf(check, [SECRET], sign({ secret: SECRET, body: BODY }), { rawBody: reformatted }),
		).toBe('signature_mismatch');
		const large = Buffer.alloc(15 * 1024 * 1024, 'x');
		const signed = sign({ secret: SECRET, body: large });
		expect(reasonOf(check, [SECRET], signed, { rawBody: large })).toBe('ok');
		const changed = Buffer.from(large);
		changed[changed.length - 1] = 0x79;
		expect(reasonOf(check, [SECRET], signed, { rawBody: changed })).toBe('signature_mismatch');
	});
});

describe('constant-time comparisons', () => {
	afterEach(() => jest.restoreAllMocks());

	it('every signature of the header is compared with the HMAC of every secret, in constant time', () => {
		const equal = jest.spyOn(crypto, 'timingSafeEqual');
		const current = sign({ secret: SECRET, body: BODY })['x-signature'];
		const other = sign({ secret: 'whsec_other', body: BODY })['x-signature'];
		const result = run(checkOf('hmacSha256'), [PREVIOUS, SECRET], {
			'x-signature': `${current},${other}`,
		});
		expect(result).toMatchObject({ ok: true, secretIndex: 1 });
		expect(equal).toHaveBeenCalledTimes(4);
		const expected = hmac('sha256', SECRET, [BODY]);
		expect(equal).toHaveBeenCalledWith(Buffer.from(current, 'hex'), expected);
	});

	it('the shared key of Secret in Header too', () => {
		const equal = jest.spyOn(crypto, 'timingSafeEqual');
		expect(
			run(checkOf('secretHeader'), [SECRET], { 'x-webhook-secret': 'whsec_guess' }),
		).toMatchObject({
			reason: 'secret_mismatch',
		});
		expect(equal).toHaveBeenCalledTimes(1);
	});
});
