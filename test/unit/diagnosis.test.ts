/**
 * Why a delivery was refused (nodes/TenantApiTrigger/refusals.ts, the table; diagnosis.ts, the Refused output's
 * item): every reason has its status, the sender's message and an explanation of its own; the item holds only the
 * trigger's vocabulary and the node's settings, never a secret, a header value or the body, within 2 KiB; its
 * advice never names a Verification that proves less than the chosen one.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Seen } from '../../nodes/TenantApiTrigger/authenticate';
import type { Evidence } from '../../nodes/TenantApiTrigger/diagnosis';
import { diagnose } from '../../nodes/TenantApiTrigger/diagnosis';
import type { RefusalReason } from '../../nodes/TenantApiTrigger/refusals';
import { REFUSALS, refusalAnswer } from '../../nodes/TenantApiTrigger/refusals';
import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import { settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import { VERIFICATION_NAMES } from '../../nodes/TenantApiTrigger/verifications';
import { parameterReader } from '../harness/verifier';

const SECRET = 'whsec_diagnosis_Secret';
/** A previous secret of letters and digits only: a header name that is a plain token can hold it. */
const PLAIN_SECRET = 'Prev1ous7Key';
const SIGNATURE_VALUE = 'ab'.repeat(32);
const NOW = 1_700_000_000;
const REASONS = Object.keys(REFUSALS) as RefusalReason[];

/** The evidence of a refusal under a Verification's settings; `accepted`: the secrets the URL accepts. */
function evidence(
	name: VerificationName,
	parameters: Record<string, unknown> = {},
	over: Partial<Evidence> = {},
	accepted: string[] = [SECRET],
	all: string[] = [SECRET, PLAIN_SECRET],
): Evidence {
	return {
		settings: settingsFromParameters(name, parameterReader(parameters), { accepted, all }),
		headers: { 'content-type': 'application/json', 'x-signature': SIGNATURE_VALUE },
		bodyBytes: 321,
		testUrl: false,
		nowSeconds: NOW,
		...over,
	};
}

/** Settings saved with a Verification this version does not offer. */
const unknown = (saved: string, credentialSecrets?: string[]) => ({
	failure: 'unknown_verification' as const,
	saved,
	credentialSecrets,
});

const HEX = 'a1'.repeat(32);
const BASE64 = Buffer.alloc(32, 7).toString('base64');
/** Header values in the form of each row of VERIFICATIONS that has a form of its own. */
const FORM = {
	sha256: `sha256=${HEX}`,
	sha512: `sha512=${'b2'.repeat(64)}`,
	timestamped: `t=${NOW},v1=${HEX}`,
	standard: `v1,${BASE64}`,
};

const diagnosed = (reason: RefusalReason, facts: Evidence, seen?: Seen) =>
	diagnose({ ...refusalAnswer(reason), reason, seen }, facts);

describe('the table', () => {
	it('every reason: a status, what the sender is told, and an explanation of its own', () => {
		const summaries = new Set<unknown>();
		for (const reason of REASONS) {
			const item = diagnosed(reason, evidence('hmacSha256'), { secretsTried: [0] });
			expect([reason, item.summary, item.action]).toEqual([
				reason,
				expect.stringMatching(/\.$/),
				expect.stringMatching(/\S/),
			]);
			summaries.add(item.summary);
		}
		expect(summaries.size).toBe(REASONS.length);
	});

	/** The refusals whose answer says more than 401 "Invalid signature": status, in JSON, in form fields. */
	const ANSWERS: Array<[RefusalReason, number, string, string?]> = [
		['credential_unavailable', 503, 'Temporarily unable to verify the delivery'],
		['internal_error', 503, 'Temporarily unable to verify the delivery'],
		[
			'unsupported_media_type',
			415,
			'Unsupported content type: this trigger reads application/json bodies (Body Format)',
			'Unsupported content type: this trigger reads application/x-www-form-urlencoded bodies (Body Format)',
		],
		['empty_body', 400, 'Empty body'],
		['not_utf8', 400, 'Body must be UTF-8 JSON', 'Body must be UTF-8 form fields'],
		...(['invalid_json', 'not_an_object', 'invalid_form'] as const).map(
			(reason) =>
				[
					reason,
					400,
					'Body must be a JSON object',
					'Body must be form fields with names (at most 1,000)',
				] as [RefusalReason, number, string, string],
		),
		['reserved_field', 400, 'Body must not have a top-level webhookDelivery field'],
	];

	it.each(ANSWERS)('%s is answered %d %p (form: %p)', (reason, status, json, form = json) => {
		expect(refusalAnswer(reason, 'json')).toEqual({ status, message: json });
		expect(refusalAnswer(reason, 'form')).toEqual({ status, message: form });
	});

	it('every other reason is 401 "Invalid signature": nothing that helps a forger', () => {
		const others = REASONS.filter((reason) => !ANSWERS.some(([listed]) => listed === reason));
		expect(others).toContain('signature_mismatch');
		for (const reason of others)
			expect([reason, refusalAnswer(reason)]).toEqual([
				reason,
				{ status: 401, message: 'Invalid signature' },
			]);
	});
});

describe('what the item says', () => {
	it('a mismatch: the body size, the secrets tried by name, and at the Test URL which secret to set', () => {
		const production = diagnosed('signature_mismatch', evidence('hmacSha256'), {
			secretsTried: [0, 1],
		});
		expect(production).toMatchObject({
			reason: 'signature_mismatch',
			answered: 401,
			verification: 'HMAC-SHA256 of the Body',
			url: 'Production URL',
			summary:
				'The signature does not match the 321-byte body signed with the current and the previous secrets.',
			secretsTried: ['current', 'previous'],
			request: {
				contentType: 'application/json',
				bodyBytes: 321,
				signatureHeaders: ['x-signature'],
				otherSignatureLikeHeaders: 0,
			},
			refusedAt: new Date(NOW * 1000).toISOString(),
		});
		const test = diagnosed('signature_mismatch', evidence('hmacSha256', {}, { testUrl: true }), {
			secretsTried: [2],
		});
		expect(test).toMatchObject({ url: 'Test URL', secretsTried: ['test'] });
		expect(test.action).toMatch(/Test URL accepts it alone/);
	});

	it('a timestamp outside the window: how far, which way, and the tolerance', () => {
		const item = diagnosed('timestamp_out_of_window', evidence('timestampedSignatures'), {
			secretsTried: [0],
			timestamp: NOW - 3600,
		});
		expect(item.timestampSkewSeconds).toBe(-3600);
		expect(item.summary).toBe(
			"The signed timestamp is 3600 s behind n8n's clock; the tolerance is 300 s.",
		);
	});

	it('Signed Content that cannot be checked: what is wrong with it', () => {
		const item = diagnosed(
			'invalid_signed_content',
			evidence('customHmac', { customSignedContent: '{body}{url}' }),
		);
		expect(item.summary).toMatch(
			/^Signed Content cannot be checked: \{body\} must come once, at the end\./,
		);
	});

	it.each([
		[
			'signatures inside body items',
			'{item.pspReference}:{item.eventCode}',
			/^Signed Content cannot be checked: \{item\.…\} signs fields of each body item, .*\(Signature Location\), which this version removed/,
			/choose HMAC of the Body, or a Signed Content that ends in \{body\}/,
		],
		[
			'form fields one by one',
			'{url}{formFields}',
			/^Signed Content cannot be checked: \{formFields\} signs form fields one by one, which this version removed/,
			/^Sign the form as sent: \{body\} in place of \{formFields\} .* Body Format Form Fields/,
		],
		[
			'a body hash in the signed URL',
			'{URL}',
			/^Signed Content cannot be checked: it signs \{URL\} without \{body\}, and a body hash in the signed URL \(Body Hash Query Parameter\) is no longer read/,
			/^End Signed Content with \{body\} \(e\.g\. \{URL\}\{body\}/,
		],
	])(
		'Signed Content with a removed Custom HMAC feature (%s): names it, and what to choose instead',
		(_name, template, summary, action) => {
			const item = diagnosed(
				'invalid_signed_content',
				evidence('customHmac', { customSignedContent: template }),
			);
			expect([item.summary, item.action]).toEqual([
				expect.stringMatching(summary),
				expect.stringMatching(action),
			]);
			expect(item.summary).toMatch(/Every delivery is refused until it is changed\.$/);
		},
	);

	it('a Verification this version does not offer: names it, and what to choose instead', () => {
		for (const saved of ['twilio', 'adyenPayments', 'slack', 'stripe', 'ed25519FromTheFuture']) {
			const item = diagnosed('unknown_verification', {
				...evidence('hmacSha256'),
				settings: unknown(saved, [SECRET, PLAIN_SECRET]),
			});
			expect(item.verification).toBe(saved);
			expect(item.summary).toContain(`The Verification "${saved}" is not one this version offers`);
			expect(item.action).toMatch(
				/^Choose a Verification in the trigger: HMAC of the Body .*, Custom HMAC /,
			);
		}
	});

	it('a secret that looks like the wrong kind is named as the likely cause (its text never shown)', () => {
		const hint = (
			name: VerificationName,
			secret: string,
			parameters: Record<string, unknown> = {},
		) =>
			diagnosed('signature_mismatch', evidence(name, parameters, {}, [secret]), {
				secretsTried: [0],
			}).likelyCause;
		expect(hint('hmacSha256', 'sk_live_123')).toMatch(/looks like an API key/);
		expect(hint('hmacSha256', 'whsec_abc')).toBe(
			'The Signing Secret starts with whsec_, as Standard Webhooks secrets do: if the sender follows that scheme, choose it.',
		);
		expect(hint('customHmac', 'not-hex', { customSecretEncoding: 'hex' })).toMatch(
			/Secret Encoding is hex/,
		);
		expect(hint('standardWebhooks', 'whsec_abc')).toBeUndefined();
		expect(
			diagnosed('missing_signature', evidence('hmacSha256', {}, {}, ['sk_live_1'])).likelyCause,
		).toBeUndefined();
	});
});

describe('advice never points to a Verification that proves less', () => {
	const standard = { 'webhook-id': 'm', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' };

	it('Standard Webhooks headers at the default HMAC trigger name Standard Webhooks', () => {
		const item = diagnosed('missing_signature', evidence('hmacSha256', {}, { headers: standard }));
		expect(item.action).toBe(
			'Set Verification to Standard Webhooks: the request carries what that scheme sends.',
		);
	});

	it('a forged x-webhook-secret never suggests Secret in Header; nothing suggests None', () => {
		for (const name of VERIFICATION_NAMES) {
			const headers = { 'x-webhook-secret': 'x', 'x-signature': 'y', ...standard };
			const item = diagnosed(
				'missing_signature',
				evidence(name, { signatureHeader: 'x-other' }, { headers }),
			);
			expect([name, item.action]).not.toEqual([
				name,
				expect.stringMatching(/Secret in Header|None/),
			]);
		}
	});
});

/**
 * The form the settings read in another header (x-hub-signature-256), and a removed Verification saved in the
 * workflow with its signature in stripe-signature, are test/engine/trigger.test.ts's, through the node.
 */
describe('a signature in a header the settings do not read: its name, and the Verification whose form it has', () => {
	const refused = (
		name: VerificationName,
		headers: Record<string, string>,
		parameters: Record<string, unknown> = {},
		reason: RefusalReason = 'missing_signature',
	) => diagnosed(reason, evidence(name, parameters, { headers }));
	const request = (item: IDataObject) => item.request as IDataObject;

	it.each([
		[
			'sha512=…',
			'x-acme-signature',
			FORM.sha512,
			'HMAC-SHA512 of the Body',
			'Set Verification to HMAC-SHA512 of the Body and its Signature Header to "x-acme-signature": it holds a signature in that form.',
		],
		[
			't=…,v1=…',
			'x-acme-signature',
			FORM.timestamped,
			'HMAC-SHA256 of Timestamp and Body (t=…,v1=… Header)',
			'Set Verification to HMAC-SHA256 of Timestamp and Body (t=…,v1=… Header) and its Signature Header to "x-acme-signature": it holds a signature in that form.',
		],
		[
			'v1,… (Standard Webhooks reads its own header only)',
			'x-acme-auth',
			FORM.standard,
			'Standard Webhooks',
			'Set Verification to Custom HMAC set up as Standard Webhooks signs, with Signature Header "x-acme-auth": it holds a signature in that form (Standard Webhooks reads webhook-signature only).',
		],
		[
			"v1,… in Standard Webhooks' own header",
			'webhook-signature',
			FORM.standard,
			'Standard Webhooks',
			'Set Verification to Standard Webhooks: "webhook-signature" holds a signature in its form.',
		],
	])(
		'at the default HMAC-SHA256 trigger, %s: named, with the setting to change',
		(_name, header, value, verification, action) => {
			const item = refused('hmacSha256', { 'X-Request-Id': 'r1', [header]: value });
			expect(request(item)).toMatchObject({
				signatureHeaders: [header],
				otherSignatureLikeHeaders: 0,
				signatureElsewhere: { header, verification },
			});
			expect(item.action).toBe(action);
			expect(JSON.stringify(item)).not.toContain(value.slice(8, 30));
		},
	);

	it("a Custom HMAC's own form (v0=…) in another header: set its Signature Header", () => {
		const parameters = {
			customSignatureFormat: 'prefixed',
			customSignatureLabel: 'v0=',
			customSignatureHeader: 'x-shop-signature',
		};
		const item = refused('customHmac', { 'x-shop-sig': `v0=${HEX}` }, parameters);
		expect(request(item).signatureElsewhere).toEqual({
			header: 'x-shop-sig',
			verification: 'Custom HMAC',
		});
		expect(item.action).toBe(
			'Set the Signature Header to "x-shop-sig": it holds a signature in the form the settings read.',
		);
	});

	it('the same advice for a missing shared key and a malformed or mismatched signature', () => {
		const headers = { 'x-signature': 'not-a-signature', 'x-hub-signature-256': FORM.sha256 };
		for (const reason of ['malformed_signature', 'signature_mismatch'] as const)
			expect(refused('hmacSha256', headers, {}, reason).action).toMatch(
				/^Set the Signature Header to "x-hub-signature-256"/,
			);
		expect(
			refused('secretHeader', { 'x-hub-signature-256': FORM.sha256 }, {}, 'missing_secret_header')
				.action,
		).toBe(
			'Set Verification to HMAC-SHA256 of the Body and its Signature Header to "x-hub-signature-256": it holds a signature in that form.',
		);
	});

	it('a name that is shown comes before one that is not; a name that is not a signature word is found by its value', () => {
		const item = refused('hmacSha256', { x_sig: FORM.sha256, 'x-shop-auth': FORM.sha256 });
		expect(request(item)).toMatchObject({
			signatureHeaders: ['x-shop-auth'],
			otherSignatureLikeHeaders: 1,
			signatureElsewhere: { header: 'x-shop-auth' },
		});
	});

	it('never a Verification that proves less than the chosen one', () => {
		const standard = refused('standardWebhooks', { 'x-acme-signature': FORM.sha256 });
		const timestamped = refused(
			'hmacSha256',
			{ 'x-acme-signature': FORM.sha512 },
			{ useTimestamp: true },
		);
		// A check that signs the URL, with what other schemes send beside: never one that does not.
		const signsUrl = refused(
			'customHmac',
			{ 'x-acme-signature': FORM.timestamped, 'x-signature': 'y', 'webhook-signature': 'v1,x' },
			{ customSignedContent: '{url}{body}', customSignatureHeader: 'x-mine' },
		);
		for (const item of [standard, timestamped, signsUrl]) {
			expect(request(item)).toMatchObject({
				signatureHeaders: expect.arrayContaining(['x-acme-signature']),
			});
			expect(request(item)).not.toHaveProperty('signatureElsewhere');
			expect(item.action).not.toMatch(/Set Verification/);
		}
		// The chosen Verification's own form keeps it (and its timestamp): only the header changes.
		expect(
			refused('hmacSha256', { 'x-acme-signature': FORM.sha256 }, { useTimestamp: true }).action,
		).toBe(
			'Set the Signature Header to "x-acme-signature": it holds a signature in the form the settings read.',
		);
	});
});

/**
 * The item's bound (2 KiB), that it holds no secret, header value or body text, and which header names it may show
 * are proven over generated requests and settings by test/unit/refusalProperties.test.ts; this is the documented
 * example of the list.
 */
describe("the item holds only the trigger's vocabulary", () => {
	it('signature-like header names: those the schemes use, then other plain tokens, listed; the rest counted', () => {
		const headers = {
			'x-signature': 'a',
			'webhook-id': 'b',
			'X-My-Signature-Please-Rotate': 'c',
			'x-secret-token': 'd',
			'x-request-id': 'e',
			x_webhook_token: 'f',
			'x.signature': 'g',
			[`x-signature-${'n'.repeat(53)}`]: 'h',
			[`x-signature-${'n'.repeat(52)}`]: 'i',
			[`x-hmac-${PLAIN_SECRET}`]: 'j',
			[`x-token-${PLAIN_SECRET.toLowerCase()}-2`]: 'k',
		};
		const item = diagnosed('missing_signature', evidence('hmacSha256', {}, { headers }));
		expect(item.request).toEqual({
			contentType: 'none',
			bodyBytes: 321,
			signatureHeaders: [
				'webhook-id',
				'x-signature',
				'x-my-signature-please-rotate',
				'x-secret-token',
				`x-signature-${'n'.repeat(52)}`,
			],
			otherSignatureLikeHeaders: 5,
		});
		expect(item.summary).toMatch(
			/"x-secret-token", "x-signature-n+", and 5 others \(names not shown\)\.$/,
		);
		const shown = JSON.stringify(item);
		for (const hidden of ['x_webhook', 'x.signature', 'n'.repeat(53), PLAIN_SECRET.toLowerCase()])
			expect(shown).not.toContain(hidden);
	});
});
