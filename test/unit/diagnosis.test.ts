/**
 * Every refusal reason the trigger can give is explained on the Refused output (diagnosis.ts), never by the
 * fallback, and no explanation holds the secret or the body. The item holds only the trigger's vocabulary and the
 * node's settings, within 2 KiB, and its advice never names a Verification that proves less than the chosen one
 * (for any request: test/unit/refusalProperties.test.ts).
 */
import { diagnose } from '../../nodes/TenantApiTrigger/diagnosis';
import type { RefusalReason } from '../../nodes/TenantApiTrigger/refusals';
import { verificationConfig } from '../../nodes/TenantApiTrigger/settings';
import { VERIFICATION_NAMES } from '../../nodes/TenantApiTrigger/verifications';
import { parameterReader } from '../harness/verifier';
import { ITEM_BOUND_BYTES, REASONS, TABLE_HEADERS } from '../property/refusals';

const SECRET = 'whsec_diagnosis_secret';
const BODY = Buffer.from('{"id":"evt_1","card":"4111111111111111"}');
const facts = {
	verification: 'hmacSha256',
	config: verificationConfig('hmacSha256', parameterReader({}), [SECRET]),
	headers: { 'content-type': 'application/json', 'x-signature': 'ab'.repeat(32) },
	rawBody: BODY,
	testUrl: false,
	nowSeconds: 1_700_000_000,
};
const fallback = diagnose({ status: 401, reason: 'internal_error' }, facts).summary;

it.each(REASONS)('%s is explained', (reason) => {
	const diagnosis = diagnose({ status: 401, reason }, facts);
	if (reason !== 'internal_error') expect(diagnosis.summary).not.toBe(fallback);
	expect(diagnosis).toMatchObject({
		reason,
		summary: expect.stringMatching(/\.$/),
		action: expect.stringMatching(/\S/),
	});
	const shown = JSON.stringify(diagnosis);
	for (const hidden of [SECRET, '4111111111111111', 'ab'.repeat(32)])
		expect(shown).not.toContain(hidden);
});

describe("the item holds only the trigger's own vocabulary", () => {
	const HOSTILE_TYPE = 'text/visit-evil.example-and-paste-your-signing-secret please rotate now';
	const hmacFacts = (
		verification: string,
		parameters: Record<string, unknown>,
		headers: Record<string, string>,
	) => ({
		...facts,
		verification,
		config: verificationConfig(verification as never, parameterReader(parameters), [SECRET]),
		headers,
	});

	it('a Content-Type the trigger does not know is `other`, in the request and in the summary', () => {
		const diagnosis = diagnose(
			{ status: 415, reason: 'unsupported_media_type' },
			{ ...facts, headers: { ...facts.headers, 'content-type': HOSTILE_TYPE } },
		);
		expect(diagnosis.request).toMatchObject({ contentType: 'other' });
		expect(diagnosis.summary).toMatch(/the Content-Type is other,/);
		expect(JSON.stringify(diagnosis)).not.toMatch(/evil|paste|rotate/);
	});

	it.each([
		['application/json; charset=utf-8', 'application/json'],
		['Application/CloudEvents+JSON', 'application/*+json'],
		['application/vnd.evil-paste-your-secret+json', 'application/*+json'],
		['text/plain', 'text/plain'],
		['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
		['multipart/form-data; boundary=evil', 'multipart/form-data'],
		['', 'none'],
		['text/xml', 'other'],
	])('Content-Type %j is reported as %s', (sent, reported) => {
		const diagnosis = diagnose(
			{ status: 401, reason: 'missing_signature' },
			{ ...facts, headers: { 'content-type': sent } },
		);
		expect((diagnosis.request as { contentType: string }).contentType).toBe(reported);
	});

	it('invented signature-like header names are counted, never listed; the item stays within the bound', () => {
		const invented = Object.fromEntries(
			Array.from({ length: 150 }, (_, i) => [
				`x-signature-${i}-paste-your-secret-${'z'.repeat(40)}`,
				'v',
			]),
		);
		const diagnosis = diagnose(
			{ status: 401, reason: 'missing_signature' },
			{
				...facts,
				headers: {
					'content-type': 'application/json',
					...invented,
					'stripe-signature': 't=1,v1=00',
				},
			},
		);
		expect(diagnosis.request).toEqual({
			contentType: 'application/json',
			bodyBytes: BODY.length,
			signatureHeaders: ['stripe-signature'],
			otherSignatureLikeHeaders: 150,
		});
		const shown = JSON.stringify(diagnosis);
		expect(shown).not.toMatch(/paste-your-secret/);
		expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(ITEM_BOUND_BYTES);
	});

	it('header names a preset or the settings use are listed by name', () => {
		const diagnosis = diagnose(
			{ status: 401, reason: 'missing_signature' },
			hmacFacts(
				'customHmac',
				{ customSignatureHeader: 'x-acme-sig', customIdHeader: 'x-acme-delivery' },
				{
					'x-acme-delivery': 'd1',
					'webhook-timestamp': '1',
					'x-hub-signature-256': 'sha256=00',
					'x-acme-token': 'v',
				},
			),
		);
		expect(diagnosis.request).toMatchObject({
			signatureHeaders: ['webhook-timestamp', 'x-acme-delivery', 'x-hub-signature-256'],
			otherSignatureLikeHeaders: 1,
		});
		expect(diagnosis.summary).toBe(
			'No signature: the request carries none of the headers Custom HMAC reads ("x-acme-sig"). Signature-like headers it carries: "webhook-timestamp", "x-acme-delivery", "x-hub-signature-256", and 1 other.',
		);
	});
});

describe('advice never points to a weaker Verification because of what the sender sent', () => {
	const withSettings = (
		verification: string,
		parameters: Record<string, unknown>,
		headers: Record<string, string | undefined>,
		rawBody: Buffer = BODY,
	) => ({
		...facts,
		verification,
		config: verificationConfig(verification as never, parameterReader(parameters), [SECRET]),
		headers: { 'content-type': 'application/json', ...headers },
		rawBody,
	});
	const actionFor = (reason: RefusalReason, ...args: Parameters<typeof withSettings>) =>
		diagnose({ status: 401, reason }, withSettings(...args)).action as string;

	it('a forged x-callback-token never suggests Secret in Header', () => {
		for (const reason of [
			'missing_signature',
			'malformed_signature',
			'signature_mismatch',
			'missing_timestamp',
			'unreadable_body',
		] as const) {
			const action = actionFor(reason, 'hmacSha256', {}, { 'x-callback-token': 'forged' });
			expect(action).not.toMatch(/Secret in Header|None/);
			expect(action).toBe(
				diagnose({ status: 401, reason }, withSettings('hmacSha256', {}, {})).action,
			);
		}
	});

	it('nor None or Secret in Header from any setting, and a stronger one is still named', () => {
		expect(
			actionFor('missing_signature', 'none', {}, { 'x-callback-token': 'forged' }),
		).not.toMatch(/Secret in Header/);
		expect(
			actionFor('missing_secret_header', 'secretHeader', {}, { 'stripe-signature': 't=1,v1=00' }),
		).toBe('Set Verification to Stripe-Style: the request carries what that sender sends.');
		expect(
			actionFor(
				'missing_signature',
				'hmacSha256',
				{},
				{ 'stripe-signature': 't=1,v1=00', 'x-callback-token': 'forged' },
			),
		).toBe('Set Verification to Stripe-Style: the request carries what that sender sends.');
	});

	it.each([
		{
			verification: 'stripe',
			parameters: {},
			headers: { 'x-hub-signature-256': 'sha256=00' },
			why: 'HMAC-SHA256 of the Body signs no timestamp',
		},
		{
			verification: 'hmacSha256',
			parameters: { useTimestamp: true },
			headers: { 'x-paystack-signature': '00' },
			why: 'HMAC-SHA512 of the Body signs no timestamp',
		},
		{
			verification: 'standardWebhooks',
			parameters: {},
			headers: { 'x-twilio-signature': 'AA' },
			why: 'Twilio-Style signs no timestamp',
		},
		{
			verification: 'square',
			parameters: {},
			headers: { 'stripe-signature': 't=1,v1=00' },
			why: 'Stripe-Style does not sign the URL',
		},
		{
			verification: 'customHmac',
			parameters: { customSignedContent: '{timestamp}.{body}' },
			headers: { hmacsignature: 'AA' },
			why: 'Adyen (Platform Webhooks) signs no timestamp',
		},
	] as const)(
		'$verification, headers $headers: not named ($why)',
		({ verification, parameters, headers }) => {
			const action = actionFor('missing_signature', verification, parameters, headers);
			expect(action).not.toMatch(/^Set Verification to/);
			expect(action).toBe(actionFor('missing_signature', verification, parameters, {}));
		},
	);

	it.each([
		['hmacSha256', {}, { 'x-paystack-signature': '00' }, 'HMAC-SHA512 of the Body'],
		['hmacSha512', {}, { 'stripe-signature': 't=1,v1=00' }, 'Stripe-Style'],
		['twilio', {}, { 'x-square-hmacsha256-signature': 'AA' }, 'Square-Style'],
		[
			'customHmac',
			{ customSignedContent: '{timestamp}.{body}' },
			{ 'webhook-signature': 'v1,AA' },
			'Standard Webhooks (Svix)',
		],
	] as const)(
		'%s with %j: one that proves at least as much is named',
		(verification, parameters, headers, name) => {
			expect(actionFor('missing_signature', verification, parameters, headers)).toBe(
				`Set Verification to ${name}: the request carries what that sender sends.`,
			);
		},
	);
});

it('the largest item: every reason and Verification, the longest settings, every header a list can show', () => {
	const long = (i: number) => `x-${String(i).padStart(2, '0')}-${'\u0007"'.repeat(100)}`;
	const list = Array.from({ length: 20 }, (_, i) => long(i)).join(', ');
	const parameters = {
		signatureHeader: list,
		timestampHeader: list,
		sharedKeyHeader: list,
		customSignatureHeader: list,
		customTimestampHeader: list,
		customIdHeader: list,
		useTimestamp: true,
		toleranceSeconds: 1e300,
	};
	const headers: Record<string, string> = {
		'content-type': 'application/x-www-form-urlencoded',
		'stripe-signature': 't=999999999999,v1=00',
	};
	for (let i = 0; i < 20; i++) headers[long(i)] = '999999999999';
	for (let i = 0; i < 2000; i++) headers[`x-signature-${i}`] = 'v';
	const sizes = [...VERIFICATION_NAMES, 'x'.repeat(3000)].flatMap((verification) =>
		[
			['pk_live_1', 'b', 'c'],
			['whsec_a', 'b', 'c'],
		].flatMap((secrets) => {
			const config = (VERIFICATION_NAMES as string[]).includes(verification)
				? verificationConfig(verification as never, parameterReader(parameters), secrets)
				: undefined;
			return REASONS.flatMap((reason) =>
				[true, false].map((testUrl) => {
					const item = diagnose(
						{ status: 503, reason },
						{ verification, config, headers, rawBody: BODY, testUrl, nowSeconds: 0 },
					);
					// The largest numbers it can hold, and the node's unrecordedBefore.
					const largest = {
						...item,
						request: { ...(item.request as object), bodyBytes: Number.MAX_SAFE_INTEGER },
						unrecordedBefore: Number.MAX_SAFE_INTEGER,
					};
					return Buffer.byteLength(JSON.stringify(largest));
				}),
			);
		}),
	);
	expect(Math.max(...sizes)).toBeLessThanOrEqual(ITEM_BOUND_BYTES);
});

it('the header names of the tables are the ones it lists by name', () => {
	const headers = Object.fromEntries(TABLE_HEADERS.map((name) => [name.toUpperCase(), 'v']));
	const listed = TABLE_HEADERS.flatMap(
		(name) =>
			(
				diagnose(
					{ status: 401, reason: 'missing_signature' },
					{ ...facts, headers: { [name]: 'v' } },
				).request as { signatureHeaders: string[] }
			).signatureHeaders,
	);
	expect(listed).toEqual(TABLE_HEADERS);
	expect(
		diagnose({ status: 401, reason: 'missing_signature' }, { ...facts, headers }).request,
	).toMatchObject({ otherSignatureLikeHeaders: TABLE_HEADERS.length - 6 });
});
