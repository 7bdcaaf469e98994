/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The built Tenant API Trigger behind a real local HTTP server, called through n8n-core's WebhookContext
 * (and HookContext for the lifecycle methods): every signing scheme as the sandbox delivers it, what the
 * trigger outputs and answers, and its set-up. How each scheme's signature, timestamp and secrets are checked
 * is proven once in test/unit (verification.test.ts, presets.test.ts, interop.test.ts, and the property tests
 * through the trigger's own reading); forged, tampered and unreadable deliveries in triggerBadInput.test.ts.
 * Needs `npm run build` first.
 */
import { createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import {
	SCHEMES,
	demoSecret,
	sign,
	triggerParameters,
	type SigningScheme,
} from '../../sandbox/signing';
import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import { verificationOf } from '../../nodes/TenantApiTrigger/verifications';
import type { TriggerSetup, WebhookCall } from '../harness/webhook';
import {
	WEBHOOK_ID,
	buildTriggerRig,
	runHookMethod,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const SECRET = 'whsec_current_3f9a7c';
const PREVIOUS = 'whsec_previous_81d2e4';
const EVENT = {
	id: 'evt_1',
	event: 'transfers.created',
	created_at: 1700000000,
	data: { object: { id: 'tr_1', amount: 1250 } },
};
const BODY = JSON.stringify(EVENT);

const credential = (over: { signingSecret?: string; previousSigningSecret?: string } = {}) => ({
	...webhookCredential(SECRET),
	...over,
});

const signed = (
	scheme: SigningScheme = 'hmac-sha256-hex',
	secret = SECRET,
	body: string | Buffer = BODY,
) => sign({ secret, scheme, body });

const rig = useTriggerServer({ credential: credential() });

async function use(setup: TriggerSetup) {
	await rig.server.configure({ credential: credential(), ...setup });
}

beforeEach(() => use({}));

/** One item started: the body as sent, plus `webhookDelivery` (returned for more checks). */
function expectStarted(
	call: { result?: { workflowData?: unknown[][] } },
	json: IDataObject = EVENT,
): IDataObject {
	const workflowData = call.result?.workflowData as Array<Array<{ json: IDataObject }>>;
	// The Verified output holds the delivery; the Refused output nothing.
	expect(workflowData.map((output) => output.length)).toEqual([1, 0]);
	const { webhookDelivery, ...body } = workflowData[0][0].json;
	expect(body).toEqual(json);
	expect(workflowData[0][0].json).not.toHaveProperty('error');
	expect(webhookDelivery).toEqual(
		expect.objectContaining({
			id: expect.anything(),
			idSource: expect.anything(),
			verification: expect.any(String),
		}),
	);
	return webhookDelivery as IDataObject;
}

async function expectRefused(
	post: Promise<{ status: number; text: string; call: WebhookCall }>,
	status = 401,
) {
	const { status: got, text, call } = await post;
	expect(got).toBe(status);
	expect(call.result).toEqual({ noWebhookResponse: true });
	expect(text.length).toBeLessThan(100);
	expect(() => JSON.parse(text)).not.toThrow();
	return JSON.parse(text) as { message: string };
}

describe('verification none', () => {
	it('accepts an unsigned delivery, without any credential', async () => {
		await rig.server.configure({ credential: null, parameters: { verification: 'none' } });
		expectStarted((await rig.server.post(BODY)).call);
	});

	it('still refuses bodies that are not JSON objects', async () => {
		await rig.server.configure({ credential: null, parameters: { verification: 'none' } });
		await expectRefused(rig.server.post('hello', { 'content-type': 'text/plain' }), 400);
		await expectRefused(rig.server.post('', {}), 400);
	});
});

describe('bodies', () => {
	it('outputs the parsed raw bytes, not a re-serialization (key order and numbers as sent)', async () => {
		const raw = '{"z":1,"event":"transfers.created","a":{"n":1.50}}';
		const { call } = await rig.server.post(raw, signed('hmac-sha256-hex', SECRET, raw));
		expect(Object.keys(call.result!.workflowData![0][0].json)).toEqual([
			'z',
			'event',
			'a',
			'webhookDelivery',
		]);
	});

	it('adds headers and query when asked', async () => {
		await use({ parameters: { options: { includeHeaders: true, includeQuery: true } } });
		const { call } = await rig.server.post(
			BODY,
			{ ...signed(), authorization: 'Bearer nope' },
			'?source=sandbox',
		);
		const json = call.result!.workflowData![0][0].json as IDataObject;
		const { unsignedHeaders, unsignedQuery } = json.webhookDelivery as IDataObject;
		expect(unsignedQuery).toEqual({ source: 'sandbox' });
		expect((unsignedHeaders as IDataObject)['x-signature']).toBe(signed()['x-signature']);
		expect(unsignedHeaders).not.toHaveProperty('authorization');
		expect(Object.keys(json).filter((key) => key.startsWith('webhook'))).toEqual([
			'webhookDelivery',
		]);
	});
});

describe('event filter', () => {
	it('falls back to "type" and honours a custom event path', async () => {
		await use({ parameters: { events: 'transfers.created' } });
		const typed = JSON.stringify({ id: 'evt_2', type: 'transfers.created' });
		expectStarted((await rig.server.post(typed, signed('hmac-sha256-hex', SECRET, typed))).call, {
			id: 'evt_2',
			type: 'transfers.created',
		});
		await use({ parameters: { events: 'transfers.created', options: { eventPath: 'meta.kind' } } });
		const nested = JSON.stringify({ id: 'evt_3', meta: { kind: 'transfers.created' } });
		expectStarted((await rig.server.post(nested, signed('hmac-sha256-hex', SECRET, nested))).call, {
			id: 'evt_3',
			meta: { kind: 'transfers.created' },
		});
	});

	it('filters after verification: an unsigned filtered-out event still gets 401', async () => {
		await use({ parameters: { events: 'accounts.updated' } });
		await expectRefused(rig.server.post(BODY, {}));
	});
});

describe('refusals leak nothing', () => {
	it('the 401 body and the logs carry neither the secret nor the expected signature', async () => {
		await use({ credential: credential({ previousSigningSecret: PREVIOUS }) });
		const expectedHex = createHmac('sha256', SECRET).update(BODY).digest('hex');
		const expectedB64 = createHmac('sha256', SECRET).update(BODY).digest('base64');
		const { text } = await rig.server.post(BODY, { 'x-signature': 'sha256=' + '0'.repeat(64) });
		expect(text).toBe('{"message":"Invalid signature"}');
		for (const leak of [SECRET, PREVIOUS, expectedHex, expectedB64]) {
			expect(text).not.toContain(leak);
			expect(rig.logs.text()).not.toContain(leak);
		}
		expect(rig.logs.text()).toContain('signature_mismatch');
	});
});

describe('lifecycle methods through HookContext', () => {
	it('checkExists/create/delete are logged no-ops', async () => {
		const hookRig = await buildTriggerRig({ credential: credential() });
		expect(await runHookMethod(hookRig, 'checkExists')).toBe(false);
		expect(await runHookMethod(hookRig, 'create')).toBe(true);
		expect(await runHookMethod(hookRig, 'delete', 'manual')).toBe(true);
		const create = rig.logs.entries.find((e) => e.message.includes('register this URL'));
		expect((create?.metadata as IDataObject).url).toBe(
			'http://127.0.0.1:5678/webhook/5b0c7e1a-5f2e-4d67-9a51-3c0f9d1e2a77/webhook',
		);
		expect(rig.logs.entries.filter((e) => e.message.startsWith('Tenant API Trigger'))).toHaveLength(
			3,
		);
		expect(rig.logs.text()).not.toContain(SECRET);
	});
});

describe('real deliveries from the sandbox', () => {
	let sandbox: Sandbox | undefined;
	afterEach(async () => {
		await sandbox?.close();
		sandbox = undefined;
	});

	const createTransfer = (sb: Sandbox, key: string) =>
		fetch(sb.baseUrl + '/transfers', {
			method: 'POST',
			headers: {
				'Api-Key': 'sk_test_sandbox',
				'Idempotency-Key': key,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ amount: 500, currency: 'EUR' }),
		});

	it('a POST that creates a record delivers a signed, timestamped event that starts the workflow', async () => {
		await use({ parameters: { useTimestamp: true, events: 'transfers.created' } });
		sandbox = await startSandbox({
			port: 0,
			webhook: {
				url: rig.server.url,
				secrets: [SECRET],
				scheme: 'hmac-sha256-prefixed',
				timestamp: true,
			},
		});
		const before = rig.server.calls.length;
		const res = await createTransfer(sandbox, 'idem-trigger-1');
		expect(res.status).toBeLessThan(300);
		await rig.server.waitForCalls(before + 1);
		const call = rig.server.calls[before];
		expect(call.status).toBe(200);
		const json = call.result!.workflowData![0][0].json as IDataObject;
		expect(json.event).toBe('transfers.created');
		expect(String(json.id)).toMatch(/^evt_/);
		expect((json.data as IDataObject).object).toMatchObject({ amount: 500, currency: 'EUR' });
		// The sandbox logs the attempt once it has read our answer.
		for (let i = 0; i < 100 && sandbox.deliveries().length === 0; i++)
			await new Promise((r) => setTimeout(r, 10));
		expect(sandbox.deliveries()).toEqual([expect.objectContaining({ status: 200, attempt: 1 })]);
	});

	it('sandbox.deliver() with a rotated secret is accepted through the previous secret; an unknown secret is refused on every retry', async () => {
		await use({
			credential: credential({ signingSecret: 'whsec_new', previousSigningSecret: SECRET }),
		});
		sandbox = await startSandbox({
			port: 0,
			webhook: {
				url: rig.server.url,
				secrets: [SECRET],
				scheme: 'hmac-sha256-base64',
				maxAttempts: 2,
				retryDelayMs: 1,
			},
		});
		const ok = await sandbox.deliver('accounts.updated');
		expect(ok).toMatchObject({ ok: true, status: 200, attempts: 1 });
		const before = rig.server.calls.length;
		const refused = await sandbox.deliver('accounts.updated', { secrets: ['whsec_unknown'] });
		expect(refused).toMatchObject({ ok: false, status: 401, attempts: 2 });
		expect(
			rig.server.calls
				.slice(before)
				.every((c) => c.status === 401 && c.result?.workflowData === undefined),
		).toBe(true);
	});
});

describe('every signing scheme, delivered by the sandbox over HTTP, verified inside n8n-core', () => {
	let sandbox: Sandbox;
	/** n8n's public URL of the webhook (what Square and Twilio sign), unlike the harness's local listener URL. */
	const PUBLIC_URL = `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
	});
	afterAll(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	/** What webhookDelivery says for each scheme's sandbox delivery (`evt_1`): the rule of docs/trigger.md "Delivery identity". */
	const IDENTITY: Partial<Record<SigningScheme, [unknown, string | null]>> = {
		'standard-webhooks': ['evt_1', 'header:webhook-id'],
		svix: ['evt_1', 'header:svix-id'],
		'adyen-payments': ['transfers.created:evt_1:true', 'items:eventCode,pspReference,success'],
		slack: [null, null],
		paddle: [null, null],
		square: [null, null],
		'adyen-platform': [null, null],
		// Twilio's signature does not mark where a form field ends: the id is the digest of the signed text.
		twilio: [expect.stringMatching(/^[0-9a-f]{64}$/), 'signedText:sha256'],
	};
	const TIMESTAMPED = ['standard-webhooks', 'svix', 'stripe', 'slack', 'paddle'];

	it.each(SCHEMES.filter((s) => s !== 'none'))(
		'%s: accepted, one item with its webhookDelivery; another secret gets 401',
		async (scheme) => {
			const secret = demoSecret(scheme);
			await use({
				credential: webhookCredential(secret),
				parameters: triggerParameters(scheme) as IDataObject,
			});
			sandbox.configureWebhook({
				url: rig.server.url,
				scheme,
				signedUrl: PUBLIC_URL,
				maxAttempts: 1,
			});
			const before = rig.server.calls.length;
			expect(
				await sandbox.deliver({
					event: 'transfers.created',
					data: { object: { id: 'tr_1', amount: 1250, currency: 'EUR' } },
				}),
			).toMatchObject({ ok: true, status: 200 });
			const call = rig.server.calls[before];
			// What the sender expects back (answers.ts): Adyen's [accepted], Twilio's empty TwiML, else nothing.
			expect(call.responseBody).toBe(
				verificationOf(triggerParameters(scheme).verification as VerificationName).acknowledgement
					.body ?? '',
			);
			const [item] = call.result!.workflowData![0];
			const delivery = item.json.webhookDelivery as IDataObject;
			const [id, idSource] = IDENTITY[scheme] ?? ['evt_1', 'body:id'];
			expect(delivery).toEqual({
				id,
				idSource,
				timestamp: TIMESTAMPED.includes(scheme) ? expect.any(Number) : null,
				verification: triggerParameters(scheme).verification,
				secret: 'current',
				bodyType: scheme === 'slack' || scheme === 'twilio' ? 'form' : 'json',
			});
			const refused = await sandbox.deliver('transfers.created', {
				secrets: [
					scheme.startsWith('adyen')
						? 'ab'.repeat(32)
						: `whsec_${Buffer.from('x').toString('base64')}`,
				],
			});
			expect(refused).toMatchObject({ ok: false, status: 401 });
		},
	);

	it('form deliveries (Slack) output their fields, parsed from the verified bytes', async () => {
		await use({
			credential: webhookCredential(demoSecret('slack')),
			parameters: { verification: 'slack', events: 'transfers.created' },
		});
		sandbox.configureWebhook({ url: rig.server.url, scheme: 'slack', maxAttempts: 1 });
		const before = rig.server.calls.length;
		await sandbox.deliver({ event: 'transfers.created', data: { object: { amount: 1250 } } });
		const { webhookDelivery, ...fields } =
			rig.server.calls[before].result!.workflowData![0][0].json;
		expect(fields).toEqual({
			id: 'evt_1',
			event: 'transfers.created',
			created_at: expect.any(String),
			data: '{"object":{"amount":1250}}',
		});
		expect(webhookDelivery).toMatchObject({ bodyType: 'form', verification: 'slack' });
	});

	it("the signed URL is n8n's public webhook URL (or the Signed URL setting), with the query as received", async () => {
		await use({
			credential: webhookCredential(demoSecret('square')),
			parameters: { verification: 'square' },
		});
		sandbox.configureWebhook({ url: rig.server.url, scheme: 'square', maxAttempts: 1 });
		expect(await sandbox.deliver('transfers.created', { signedUrl: PUBLIC_URL })).toMatchObject({
			status: 200,
		});
		// Signed over the URL the sender itself called (the local listener): not what n8n publishes.
		expect(await sandbox.deliver('transfers.created', { signedUrl: rig.server.url })).toMatchObject(
			{ status: 401 },
		);
		expect(rig.logs.text()).toContain('signature_mismatch');
		await use({
			credential: webhookCredential(demoSecret('square')),
			parameters: { verification: 'square', signedUrl: 'https://proxy.example/hooks/tenant' },
		});
		expect(
			await sandbox.deliver('transfers.created', {
				signedUrl: 'https://proxy.example/hooks/tenant',
			}),
		).toMatchObject({ status: 200 });
		await use({
			credential: webhookCredential(demoSecret('twilio')),
			parameters: { verification: 'twilio' },
		});
		sandbox.configureWebhook({
			url: `${rig.server.url}?source=sandbox`,
			scheme: 'twilio',
			signedUrl: `${PUBLIC_URL}?source=sandbox`,
			bodyFormat: 'json',
			maxAttempts: 1,
		});
		expect(await sandbox.deliver('transfers.created')).toMatchObject({ status: 200 });
	});

	it('on the Test URL (manual mode) the Test URL is the signed one', async () => {
		await use({
			mode: 'manual',
			credential: webhookCredential(demoSecret('square')),
			parameters: { verification: 'square' },
		});
		sandbox.configureWebhook({ url: rig.server.url, scheme: 'square', maxAttempts: 1 });
		expect(
			await sandbox.deliver('transfers.created', {
				signedUrl: PUBLIC_URL.replace('/webhook/', '/webhook-test/'),
			}),
		).toMatchObject({ status: 200 });
		expect(await sandbox.deliver('transfers.created', { signedUrl: PUBLIC_URL })).toMatchObject({
			status: 401,
		});
	});

	it('Custom HMAC (Stripe written by hand) accepts a Stripe-style delivery', async () => {
		const parameters = {
			verification: 'customHmac',
			customSignedContent: '{timestamp}.{body}',
			customSignatureHeader: 'Stripe-Signature',
			customSignatureFormat: 'keyValue',
			customSignatureLabel: 'v1',
			customTimestampKey: 't',
			customSignatureEncoding: 'hex',
		};
		await use({ credential: webhookCredential('whsec_stripe_custom'), parameters });
		sandbox.configureWebhook({
			url: rig.server.url,
			scheme: 'stripe',
			secrets: ['whsec_stripe_custom'],
			maxAttempts: 1,
		});
		const before = rig.server.calls.length;
		expect(await sandbox.deliver('transfers.created')).toMatchObject({ status: 200 });
		expect(rig.server.calls[before].result!.workflowData![0][0].json.webhookDelivery).toMatchObject(
			{
				id: 'evt_1',
				idSource: 'body:id',
				timestamp: expect.any(Number),
				verification: 'customHmac',
			},
		);
	});
});

describe('webhookDelivery', () => {
	it('says which secret matched, and follows the Delivery ID Fields option', async () => {
		await use({
			credential: credential({ previousSigningSecret: PREVIOUS }),
			parameters: { options: { idFields: 'data.object.id, event' } },
		});
		const delivery = expectStarted(
			(await rig.server.post(BODY, signed('hmac-sha256-hex', PREVIOUS))).call,
		);
		expect(delivery).toEqual({
			id: 'tr_1:transfers.created',
			idSource: 'body:data.object.id,event',
			timestamp: null,
			verification: 'hmacSha256',
			secret: 'previous',
			bodyType: 'json',
		});
	});

	it('says "previous" when only the Previous Signing Secret is filled in and matched', async () => {
		await use({ credential: credential({ signingSecret: '  ', previousSigningSecret: PREVIOUS }) });
		const delivery = expectStarted(
			(await rig.server.post(BODY, signed('hmac-sha256-hex', PREVIOUS))).call,
		);
		expect(delivery).toMatchObject({ verification: 'hmacSha256', secret: 'previous' });
	});

	it('is null when the fields are missing or not scalars, and comes from the body without verification', async () => {
		await use({ parameters: { options: { idFields: 'data.object' } } });
		const { call } = await rig.server.post(BODY, signed());
		expect(call.result!.workflowData![0][0].json.webhookDelivery).toMatchObject({
			id: null,
			idSource: null,
		});
		await rig.server.configure({ credential: null, parameters: { verification: 'none' } });
		const open = expectStarted((await rig.server.post(BODY)).call);
		expect(open).toEqual({
			id: 'evt_1',
			idSource: 'body:id',
			timestamp: null,
			verification: 'none',
			secret: null,
			bodyType: 'json',
		});
	});

	it("refuses a body with a field of the same name: it would replace signed data, or pass for the trigger's", async () => {
		const raw = JSON.stringify({
			id: 'evt_9',
			event: 'transfers.created',
			webhookDelivery: { id: 'forged' },
		});
		const answer = await expectRefused(
			rig.server.post(raw, signed('hmac-sha256-hex', SECRET, raw)),
			400,
		);
		expect(answer.message).toBe('Body must not have a top-level webhookDelivery field');
		expect(rig.logs.text()).toContain('reserved_field');
	});
});

describe('content types and set-up errors', () => {
	it('a verified body of another content type gets 415 after verification; an unsigned one 401', async () => {
		const xml = '<event>transfers.created</event>';
		const answer = await expectRefused(
			rig.server.post(xml, {
				'content-type': 'application/xml',
				...signed('hmac-sha256-hex', SECRET, xml),
			}),
			415,
		);
		expect(answer.message).toMatch(/^Unsupported content type/);
		expect(rig.logs.text()).toContain('unsupported_media_type');
		await expectRefused(rig.server.post(xml, { 'content-type': 'application/xml' }), 401);
	});

	it('an unknown Verification value (e.g. saved by a newer version) answers a final 401 and logs why, even with a credential', async () => {
		await use({ parameters: { verification: 'ed25519FromTheFuture' } });
		expect(await expectRefused(rig.server.post(BODY, signed()), 401)).toEqual({
			message: 'Invalid signature',
		});
		const entry = rig.logs.entries.find(
			(e) => (e.metadata as IDataObject | undefined)?.reason === 'unknown_verification',
		);
		expect(entry).toMatchObject({
			level: 'error',
			metadata: expect.objectContaining({ verification: 'ed25519FromTheFuture' }),
		});
	});
});
