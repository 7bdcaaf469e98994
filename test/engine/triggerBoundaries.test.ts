/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: fixture signing secrets, not real ones */
/**
 * The trigger's trust boundary, through the built trigger behind a real HTTP server and n8n-core's WebhookContext
 * (test/harness/webhook.ts): nothing of a request is read before it is authenticated; a Verification this version does
 * not offer (a removed scheme saved in a workflow) refuses every delivery, genuine ones included; no secret of the
 * credential reaches the output through a header's name. Needs `npm run build` first.
 */
import { createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { sign } from '../../sandbox/signing';
import type { Answered } from '../harness/webhook';
import {
	WEBHOOK_ID,
	deliveryOf,
	expectRefusal,
	startedItems,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const SECRET = 'whsec_boundaries_Current7';
const INVALID = 'Invalid signature';
const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

const rig = useTriggerServer({ credential: webhookCredential(SECRET) });

const refused = (post: Promise<Answered>, status: number, message: string, reason: string) =>
	expectRefusal(rig.logs, post, { status, message, reason, mustNotShow: [SECRET] });

describe('nothing of a request is read before it is authenticated', () => {
	beforeEach(() => rig.server.configure({ credential: webhookCredential(SECRET), parameters: {} }));

	it('a body that is not JSON: a signature failure until it is signed, then 400', async () => {
		const body = 'not json at all';
		await refused(rig.server.post(body, JSON_TYPE), 401, INVALID, 'missing_signature');
		const forged = { ...JSON_TYPE, 'x-signature': 'ab'.repeat(32) };
		await refused(rig.server.post(body, forged), 401, INVALID, 'signature_mismatch');
		const signed = { ...JSON_TYPE, ...sign({ secret: SECRET, body }) };
		await refused(rig.server.post(body, signed), 400, 'Body must be a JSON object', 'invalid_json');
	});

	it('a Content-Type the Body Format does not read is 415 only once the signature holds', async () => {
		const xml = '<event>transfers.created</event>';
		await refused(
			rig.server.post(xml, { 'content-type': 'application/xml' }),
			401,
			INVALID,
			'missing_signature',
		);
		const multipart = '--b\r\nContent-Disposition: form-data; name="event"\r\n\r\nx\r\n--b--\r\n';
		await refused(
			rig.server.post(multipart, { 'content-type': 'multipart/form-data; boundary=b' }),
			401,
			INVALID,
			'raw_body_unavailable',
		);
		await refused(
			rig.server.post(xml, {
				'content-type': 'application/xml',
				...sign({ secret: SECRET, body: xml }),
			}),
			415,
			'Unsupported content type: this trigger reads application/json bodies (Body Format)',
			'unsupported_media_type',
		);
	});

	it('a Custom HMAC set-up that signs form fields one by one ({formFields}, saved by an earlier version) is refused before the body is read, however large', async () => {
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: {
				verification: 'customHmac',
				customSignedContent: '{timestamp}.{formFields}',
				bodyFormat: 'form',
			},
		});
		const headers = {
			...FORM_TYPE,
			'x-signature': 'ab'.repeat(32),
			'x-timestamp': String(Math.floor(Date.now() / 1000)),
		};
		for (const body of [`a=${'x'.repeat(300 * 1024)}`, 'a=%ZZ', '{"a":1}'])
			await refused(rig.server.post(body, headers), 401, INVALID, 'invalid_signed_content');
	});
});

describe('a Verification this version does not offer refuses every delivery', () => {
	/** n8n's public URL of the webhook: production, or the Test URL. */
	const publicUrl = (testUrl: boolean) =>
		`http://127.0.0.1:5678/${testUrl ? 'webhook-test' : 'webhook'}/${WEBHOOK_ID}/webhook`;
	const hmac = (algorithm: string, key: string | Buffer, text: string) =>
		createHmac(algorithm, key).update(text);
	const now = () => Math.floor(Date.now() / 1000);
	const ADYEN_KEY = 'ab'.repeat(32);

	/** A genuine delivery as the sender of a removed scheme signs it: body, headers and the credential's secret. */
	const GENUINE: Record<
		string,
		(testUrl: boolean) => { body: string; headers: IDataObject; secret: string }
	> = {
		stripe: () => {
			const body = '{"id":"evt_1","type":"transfers.created"}';
			const t = now();
			const v1 = hmac('sha256', SECRET, `${t}.${body}`).digest('hex');
			return {
				body,
				headers: { ...JSON_TYPE, 'stripe-signature': `t=${t},v1=${v1}` },
				secret: SECRET,
			};
		},
		slack: () => {
			const body = 'command=%2Fpay&text=10';
			const t = now();
			const signature = `v0=${hmac('sha256', SECRET, `v0:${t}:${body}`).digest('hex')}`;
			const headers = {
				...FORM_TYPE,
				'x-slack-request-timestamp': String(t),
				'x-slack-signature': signature,
			};
			return { body, headers, secret: SECRET };
		},
		twilio: (testUrl) => {
			const body = 'Body=hello&From=%2B15550001&MessageSid=SM1';
			const signed = `${publicUrl(testUrl)}BodyhelloFrom+15550001MessageSidSM1`;
			const headers = {
				...FORM_TYPE,
				'x-twilio-signature': hmac('sha1', SECRET, signed).digest('base64'),
			};
			return { body, headers, secret: SECRET };
		},
		adyenPayments: () => {
			const item = {
				pspReference: 'PSP1',
				originalReference: '',
				merchantAccountCode: 'Acct',
				merchantReference: 'order-1',
				amount: { value: 1999, currency: 'EUR' },
				eventCode: 'AUTHORISATION',
				success: 'true',
			};
			const signed = ['PSP1', '', 'Acct', 'order-1', '1999', 'EUR', 'AUTHORISATION', 'true'].join(
				':',
			);
			const hmacSignature = hmac('sha256', Buffer.from(ADYEN_KEY, 'hex'), signed).digest('base64');
			const notification = {
				live: 'false',
				notificationItems: [
					{ NotificationRequestItem: { ...item, additionalData: { hmacSignature } } },
				],
			};
			return { body: JSON.stringify(notification), headers: JSON_TYPE, secret: ADYEN_KEY };
		},
	};

	it.each(Object.keys(GENUINE))(
		'%s saved in the workflow: a genuine delivery is refused 401 in production, and the Test URL says why and what to choose',
		async (verification) => {
			const production = GENUINE[verification](false);
			await rig.server.configure({
				credential: webhookCredential(production.secret),
				parameters: { verification },
			});
			await expectRefusal(
				rig.logs,
				rig.server.post(production.body, production.headers as Record<string, string>),
				{
					status: 401,
					message: INVALID,
					reason: 'unknown_verification',
					mustNotShow: [production.secret],
				},
			);
			expect(rig.logs.entries.find((entry) => entry.level === 'error')?.metadata).toMatchObject({
				reason: 'unknown_verification',
				verification,
			});

			const atTest = GENUINE[verification](true);
			await rig.server.configure({
				credential: webhookCredential(atTest.secret),
				parameters: { verification },
				mode: 'manual',
			});
			const answer = await rig.server.post(atTest.body, atTest.headers as Record<string, string>);
			expect(answer.status).toBe(401);
			const outputs = answer.call.result!.workflowData!;
			expect(outputs[0]).toEqual([]);
			expect(outputs[1][0].json).toMatchObject({
				reason: 'unknown_verification',
				verification,
				summary: expect.stringContaining(
					`The Verification "${verification}" is not one this version offers`,
				),
				// A t=…,v1=… signature names the Verification that reads it there.
				action: expect.stringMatching(
					verification === 'stripe'
						? /^Set Verification to HMAC-SHA256 of Timestamp and Body .* "stripe-signature"/
						: /^Choose a Verification in the trigger: /,
				),
			});
		},
	);
});

describe('a secret in a header or a query parameter, in any spelling, never reaches the output', () => {
	const CURRENT = 'whsec_Curr+ENT/7x=';
	const PREVIOUS = 'whsec_Prev+IOUS/3k=';
	const TEST = 'whsec_TeST+url/9q=';
	const SECRETS = [CURRENT, PREVIOUS, TEST];
	const body = '{"event":"transfers.created"}';
	const basic = (secret: string) => `Basic ${Buffer.from(`user:${secret}`).toString('base64')}`;

	it.each([
		['production', 'webhook', CURRENT],
		['the Test URL', 'manual', TEST],
	] as const)(
		'Include Headers and Query Parameters, at %s: every secret of the credential, in any letter case or spelling',
		async (_url, mode, signer) => {
			await rig.server.configure({
				credential: webhookCredential(CURRENT, PREVIOUS, TEST),
				parameters: { options: { includeHeaders: true, includeQuery: true } },
				mode,
			});
			const headers: Record<string, string> = {
				...JSON_TYPE,
				...sign({ secret: signer, body }),
				'x-keep': 'kept',
			};
			SECRETS.forEach((secret, i) => {
				// A header name cannot hold `/` or `=`, but `%` escapes.
				headers[`X-Auth-${encodeURIComponent(secret)}`] = '1';
				headers[`x-Auth-${encodeURIComponent(secret).toUpperCase()}-2`] = '1';
				headers[`x-value-${i}`] = `Bearer ${secret.toLowerCase()}`;
				headers[`x-forwarded-uri-${i}`] =
					`/hook?k=${encodeURIComponent(encodeURIComponent(secret))}`;
				headers[`x-upstream-authorization-${i}`] = basic(secret);
			});
			// As sent, unencoded: the query parser reads each `+` as a space.
			const query = `?note=${TEST.toUpperCase()}&${encodeURIComponent(PREVIOUS)}=1&raw=${CURRENT}&keep=1`;
			const { status, call } = await rig.server.post(body, headers, query);
			expect(status).toBe(200);
			expect(startedItems(call)).toHaveLength(1);
			const { unsignedHeaders, unsignedQuery } = deliveryOf(call);
			const shown = Object.keys(unsignedHeaders as IDataObject);
			expect(shown).toContain('x-keep');
			expect(shown.filter((name) => /^x-(auth|value|forwarded|upstream)/.test(name))).toEqual([]);
			expect(unsignedQuery).toEqual({ keep: '1' });
		},
	);
});
