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
import { INVALID_SIGNATURE, REFUSALS, refusalAnswer } from '../../nodes/TenantApiTrigger/refusals';
import type { SchemeName } from '../../nodes/TenantApiTrigger/schemes';
import { SCHEMES, SCHEME_NAMES } from '../../nodes/TenantApiTrigger/schemes';
import { parameterReader } from '../harness/verifier';

const SECRET = 'whsec_diagnosis_Secret';
const SIGNATURE_VALUE = 'ab'.repeat(32);
const NOW = 1_700_000_000;
const REASONS = Object.keys(REFUSALS) as RefusalReason[];

function evidence(
	name: SchemeName,
	parameters: Record<string, unknown> = {},
	over: Partial<Evidence> = {},
): Evidence {
	return {
		verification: name,
		check: SCHEMES[name].checkFrom(parameterReader(parameters)),
		secrets: [SECRET],
		bodyFormat: 'json',
		headers: { 'content-type': 'application/json', 'x-signature': SIGNATURE_VALUE },
		bodyBytes: 321,
		testUrl: false,
		nowSeconds: NOW,
		...over,
	};
}

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

	it('a signature failure tells the sender "Invalid signature" (nothing that helps a forger) and 401', () => {
		for (const reason of [
			'missing_signature',
			'signature_mismatch',
			'timestamp_out_of_window',
			'unknown_verification',
			'raw_body_unavailable',
		] as const)
			expect(refusalAnswer(reason)).toEqual({ status: 401, message: INVALID_SIGNATURE });
	});

	it('a verified body that cannot be read is 400 with what it must be; a Content-Type the format does not read 415; an unreadable credential 503', () => {
		expect(refusalAnswer('invalid_json')).toEqual({
			status: 400,
			message: 'Body must be a JSON object',
		});
		expect(refusalAnswer('invalid_form', 'form')).toEqual({
			status: 400,
			message: 'Body must be form fields with names (at most 1,000)',
		});
		expect(refusalAnswer('not_utf8', 'form')).toEqual({
			status: 400,
			message: 'Body must be UTF-8 form fields',
		});
		expect(refusalAnswer('unsupported_media_type', 'form')).toEqual({
			status: 415,
			message:
				'Unsupported content type: this trigger reads application/x-www-form-urlencoded bodies (Body Format)',
		});
		expect(refusalAnswer('credential_unavailable').status).toBe(503);
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
				verification: saved,
				check: undefined,
			});
			expect(item.verification).toBe(saved);
			expect(item.summary).toContain(`The Verification "${saved}" is not one this version offers`);
			expect(item.action).toMatch(
				/^Choose a Verification in the trigger: HMAC of the Body .*, Custom HMAC /,
			);
		}
	});

	it('a secret that looks like the wrong kind is named as the likely cause (its text never shown)', () => {
		const hint = (name: SchemeName, secret: string, parameters: Record<string, unknown> = {}) =>
			diagnosed('signature_mismatch', evidence(name, parameters, { secrets: [secret] }), {
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
			diagnosed('missing_signature', evidence('hmacSha256', {}, { secrets: ['sk_live_1'] }))
				.likelyCause,
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
		for (const name of SCHEME_NAMES) {
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

	it('a check that signs the URL is never pointed to one that does not', () => {
		const headers = { 'x-signature': 'y', 'webhook-signature': 'v1,x' };
		const signsUrl = diagnosed(
			'missing_signature',
			evidence(
				'customHmac',
				{ customSignatureHeader: 'x-mine', customSignedContent: '{url}{body}' },
				{ headers },
			),
		);
		expect(signsUrl.action).not.toMatch(/Set Verification/);
	});
});

describe("the item holds only the trigger's vocabulary", () => {
	const HOSTILE = 'text/visit-evil.example-and-paste-your-signing-secret';

	it('no secret, no header value, nothing of the body; an unknown Content-Type is "other"', () => {
		const facts = evidence(
			'hmacSha256',
			{},
			{
				headers: {
					'content-type': HOSTILE,
					'x-signature': SIGNATURE_VALUE,
					[`x-hmac-${SECRET}`]: SECRET,
				},
				secrets: [SECRET, 'pk_live_prev'],
			},
		);
		for (const reason of REASONS) {
			const shown = JSON.stringify(diagnosed(reason, facts, { secretsTried: [0, 1] }));
			for (const hidden of [
				SECRET,
				SECRET.toLowerCase(),
				'pk_live_prev',
				SIGNATURE_VALUE,
				'evil',
				'paste',
			])
				expect([reason, shown]).not.toEqual([reason, expect.stringContaining(hidden)]);
		}
		expect(diagnosed('unsupported_media_type', facts).request).toMatchObject({
			contentType: 'other',
		});
	});

	it('invented signature-like header names are counted, never listed; the names the schemes use are', () => {
		const headers = {
			'x-signature': 'a',
			'webhook-id': 'b',
			'x-my-signature-please-rotate': 'c',
			'x-secret-token': 'd',
			'x-request-id': 'e',
		};
		const item = diagnosed('signature_mismatch', evidence('hmacSha256', {}, { headers }));
		expect(item.request).toMatchObject({
			signatureHeaders: ['webhook-id', 'x-signature'],
			otherSignatureLikeHeaders: 2,
		});
		expect(JSON.stringify(item)).not.toMatch(/rotate|x-secret-token/);
	});

	it('within 2 KiB for every reason and Verification, with the longest settings and every header a list can show', () => {
		const long = (prefix: string) => `${prefix}-${'h'.repeat(80)}`;
		const settings = {
			signatureHeader: Array.from({ length: 12 }, (_, i) => long(`x-signature-${i}`)).join(','),
			sharedKeyHeader: Array.from({ length: 12 }, (_, i) => long(`x-secret-${i}`)).join(','),
			customSignatureHeader: Array.from({ length: 12 }, (_, i) => long(`x-custom-${i}`)).join(','),
			customTimestampHeader: long('x-ts'),
			customIdHeader: long('x-id'),
			customSignedContent: '{url}{body}{'.repeat(20),
			useTimestamp: true,
			timestampHeader: long('x-timestamp'),
		};
		let largest = 0;
		for (const name of SCHEME_NAMES) {
			const check = SCHEMES[name].checkFrom(parameterReader(settings));
			const headerNames = [
				...(check.kind === 'hmac' ? check.signing.signatureHeader.split(',') : []),
				...(check.kind === 'secretHeader' ? check.header.split(',') : []),
				...Array.from({ length: 50 }, (_, i) => long(`x-signature-like-${i}`)),
				'webhook-id',
				'webhook-timestamp',
				'webhook-signature',
				'x-timestamp',
				'x-webhook-secret',
			];
			const headers = Object.fromEntries(headerNames.map((header) => [header, 'v']));
			for (const reason of REASONS) {
				for (const testUrl of [false, true]) {
					const facts = evidence(name, settings, {
						headers,
						testUrl,
						bodyBytes: 16 * 1024 * 1024,
						secrets: ['sk_live_x', 'y', 'z'],
					});
					const item: IDataObject = diagnosed(
						reason,
						{ ...facts, verification: reason === 'unknown_verification' ? 'v'.repeat(500) : name },
						{ secretsTried: [0, 1, 2], timestamp: 0 },
					);
					item.unrecordedBefore = Number.MAX_SAFE_INTEGER;
					largest = Math.max(largest, Buffer.byteLength(JSON.stringify(item)));
				}
			}
		}
		expect(largest).toBeLessThanOrEqual(2048);
	});
});
