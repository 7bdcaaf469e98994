/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: fixture signing secrets, not real ones */
/**
 * The built Tenant API Trigger behind a real local HTTP server, called through n8n-core's WebhookContext
 * (and HookContext for the lifecycle methods): every signing scheme as the sandbox delivers it, what the
 * trigger outputs, and its set-up. How each scheme's signature, timestamp and secrets are checked is proven once
 * in test/unit (authenticate.test.ts, signatureHeader.test.ts, interop.test.ts); forged, tampered and unreadable
 * deliveries in triggerBadInput.test.ts; what is read before authentication in triggerBoundaries.test.ts.
 * Needs `npm run build` first.
 */
import { createHash, createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { SCHEMES, sign, triggerParameters } from '../../sandbox/signing';
import type { TriggerSetup, WebhookCall } from '../harness/webhook';
import {
	WEBHOOK_ID,
	buildTriggerRig,
	deliveryOf,
	runHookMethod,
	startedBodies,
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
/** n8n's public URL of the webhook (what a sender signs for `{url}`), unlike the harness's local listener URL. */
const PUBLIC_URL = `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`;
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

const credential = (over: { signingSecret?: string; previousSigningSecret?: string } = {}) => ({
	...webhookCredential(SECRET),
	...over,
});

const signed = (secret = SECRET, body: string | Buffer = BODY) => sign({ secret, body });

const rig = useTriggerServer({ credential: credential() });

async function use(setup: TriggerSetup) {
	await rig.server.configure({ credential: credential(), ...setup });
}

beforeEach(() => use({}));

/** One item started: the body as sent, plus `webhookDelivery` (returned for more checks). */
function expectStarted(call: WebhookCall, json: IDataObject = EVENT): IDataObject {
	const workflowData = call.result?.workflowData as Array<Array<{ json: IDataObject }>>;
	// The Verified output holds the delivery; the Refused output nothing.
	expect(workflowData.map((output) => output.length)).toEqual([1, 0]);
	expect(startedBodies(call)).toEqual([json]);
	return deliveryOf(call);
}

async function expectRefused(
	post: Promise<{ status: number; text: string; call: WebhookCall }>,
	status = 401,
) {
	const { status: got, text, call } = await post;
	expect(got).toBe(status);
	expect(call.result).toEqual({ noWebhookResponse: true });
	return JSON.parse(text) as { message: string };
}

describe('verification none', () => {
	it('accepts an unsigned delivery, without any credential', async () => {
		await rig.server.configure({ credential: null, parameters: { verification: 'none' } });
		expect(expectStarted((await rig.server.post(BODY)).call)).toEqual({
			id: sha256(BODY),
			idSource: 'body:sha256',
			timestamp: null,
			verification: 'none',
			secret: null,
			bodyType: 'json',
		});
	});

	it('still reads the body in the Body Format: not a JSON object is refused', async () => {
		await rig.server.configure({ credential: null, parameters: { verification: 'none' } });
		await expectRefused(rig.server.post('[1]', { 'content-type': 'text/plain' }), 400);
	});
});

describe('bodies', () => {
	it('outputs the parsed raw bytes, not a re-serialization (key order and numbers as sent)', async () => {
		const raw = '{"z":1,"event":"transfers.created","a":{"n":1.50,"big":12345678901234567891}}';
		const { call } = await rig.server.post(raw, signed(SECRET, raw));
		const [json] = startedBodies(call);
		expect(Object.keys(json)).toEqual(['z', 'event', 'a']);
		expect(json.a).toEqual({ n: 1.5, big: '12345678901234567891' });
	});

	it('adds headers and query when asked, under webhookDelivery', async () => {
		await use({ parameters: { options: { includeHeaders: true, includeQuery: true } } });
		const { call } = await rig.server.post(
			BODY,
			{ ...signed(), authorization: 'Bearer nope' },
			'?source=sandbox',
		);
		const { unsignedHeaders, unsignedQuery } = deliveryOf(call);
		expect(unsignedQuery).toEqual({ source: 'sandbox' });
		expect((unsignedHeaders as IDataObject)['x-signature']).toBe(signed()['x-signature']);
		expect(unsignedHeaders).not.toHaveProperty('authorization');
		expect(
			Object.keys(call.result!.workflowData![0][0].json).filter((key) => key.startsWith('webhook')),
		).toEqual(['webhookDelivery']);
	});
});

describe('event filter', () => {
	it('falls back to "type" and honours a custom event path', async () => {
		await use({ parameters: { events: 'transfers.created' } });
		const typed = JSON.stringify({ id: 'evt_2', type: 'transfers.created' });
		expectStarted((await rig.server.post(typed, signed(SECRET, typed))).call, {
			id: 'evt_2',
			type: 'transfers.created',
		});
		await use({ parameters: { events: 'transfers.created', options: { eventPath: 'meta.kind' } } });
		const nested = JSON.stringify({ id: 'evt_3', meta: { kind: 'transfers.created' } });
		expectStarted((await rig.server.post(nested, signed(SECRET, nested))).call, {
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
		expect((create?.metadata as IDataObject).url).toBe(PUBLIC_URL);
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
		const [json] = startedBodies(call);
		expect(json.event).toBe('transfers.created');
		expect(String(json.id)).toMatch(/^evt_/);
		expect((json.data as IDataObject).object).toMatchObject({ amount: 500, currency: 'EUR' });
		expect(deliveryOf(call).timestamp).toEqual(expect.any(Number));
		await sandbox.settle();
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
		expect(deliveryOf(rig.server.calls[rig.server.calls.length - 1]).secret).toBe('previous');
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
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
	});
	afterAll(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	/** The schemes that sign a timestamp (webhookDelivery.timestamp is set). */
	const TIMESTAMPED = ['standard-webhooks', 'timestamped', 'custom-hmac'];

	it.each(SCHEMES.filter((s) => s !== 'none'))(
		'%s: accepted, one item with its webhookDelivery; another secret gets 401',
		async (scheme) => {
			sandbox.configureWebhook({ url: rig.server.url, scheme, maxAttempts: 1 });
			const [secret] = sandbox.webhookConfig().secrets;
			await use({
				credential: webhookCredential(secret),
				parameters: triggerParameters(scheme) as IDataObject,
			});
			const before = rig.server.calls.length;
			expect(
				await sandbox.deliver({
					event: 'transfers.created',
					data: { object: { id: 'tr_1', amount: 1250, currency: 'EUR' } },
				}),
			).toMatchObject({ ok: true, status: 200 });
			const call = rig.server.calls[before];
			expect(startedBodies(call)).toHaveLength(1);
			// The signed id of Standard Webhooks; else the SHA-256 of the bytes.
			const [id, idSource] =
				scheme === 'standard-webhooks'
					? [startedBodies(call)[0].id, 'header:webhook-id']
					: [sha256(call.rawBody), 'body:sha256'];
			expect(deliveryOf(call)).toEqual({
				id,
				idSource,
				timestamp: TIMESTAMPED.includes(scheme) ? expect.any(Number) : null,
				verification: triggerParameters(scheme).verification,
				secret: 'current',
				bodyType: 'json',
			});
			const refused = await sandbox.deliver('transfers.created', {
				secrets: [`whsec_${Buffer.from('another key').toString('base64')}`],
			});
			expect(refused).toMatchObject({ ok: false, status: 401 });
		},
	);

	it('form deliveries output their fields, parsed from the verified bytes', async () => {
		await use({ parameters: triggerParameters('hmac-sha256-hex', 'form') as IDataObject });
		sandbox.configureWebhook({
			url: rig.server.url,
			scheme: 'hmac-sha256-hex',
			secrets: [SECRET],
			bodyFormat: 'form',
			maxAttempts: 1,
		});
		const before = rig.server.calls.length;
		await sandbox.deliver({ event: 'transfers.created', data: { object: { amount: 1250 } } });
		const call = rig.server.calls[before];
		expect(startedBodies(call)).toEqual([
			{
				id: expect.stringMatching(/^evt_/),
				event: 'transfers.created',
				created_at: expect.any(String),
				data: '{"object":{"amount":1250}}',
			},
		]);
		expect(deliveryOf(call)).toMatchObject({ bodyType: 'form', idSource: 'body:sha256' });
	});
});

describe("Custom HMAC's {url}: n8n's public webhook URL (or the Signed URL setting), with the query as received", () => {
	const parameters = { verification: 'customHmac', customSignedContent: '{url}{body}' };
	const signedFor = (url: string) => ({
		'content-type': 'application/json',
		'x-signature': createHmac('sha256', SECRET).update(url).update(BODY).digest('hex'),
	});

	it('at the Production URL', async () => {
		await use({ parameters });
		const query = '?source=sandbox&b=1';
		expect((await rig.server.post(BODY, signedFor(PUBLIC_URL + query), query)).status).toBe(200);
		// Signed over the URL the sender itself called (the local listener), not what n8n publishes.
		await expectRefused(rig.server.post(BODY, signedFor(rig.server.url + query), query));
		await expectRefused(rig.server.post(BODY, signedFor(PUBLIC_URL + query), '?source=other&b=1'));
		expect(rig.logs.text()).toContain('signature_mismatch');
		await use({
			parameters: { ...parameters, signedUrl: 'https://proxy.example/hooks/tenant?x=1' },
		});
		const proxied = signedFor(`https://proxy.example/hooks/tenant${query}`);
		expect((await rig.server.post(BODY, proxied, query)).status).toBe(200);
	});

	it('on the Test URL (manual mode) the Test URL is the signed one', async () => {
		await use({ parameters, mode: 'manual' });
		const testUrl = PUBLIC_URL.replace('/webhook/', '/webhook-test/');
		expect((await rig.server.post(BODY, signedFor(testUrl))).status).toBe(200);
		expect((await rig.server.post(BODY, signedFor(PUBLIC_URL))).status).toBe(401);
	});
});

describe('webhookDelivery', () => {
	it('says which secret matched, and follows the Delivery ID Fields option', async () => {
		await use({
			credential: credential({ previousSigningSecret: PREVIOUS }),
			parameters: { options: { idFields: 'data.object.id, event' } },
		});
		const delivery = expectStarted((await rig.server.post(BODY, signed(PREVIOUS))).call);
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
		const delivery = expectStarted((await rig.server.post(BODY, signed(PREVIOUS))).call);
		expect(delivery).toMatchObject({ verification: 'hmacSha256', secret: 'previous' });
	});

	it('is the SHA-256 of the body when a Delivery ID Field is missing or not a scalar', async () => {
		await use({ parameters: { options: { idFields: 'data.object' } } });
		const { call } = await rig.server.post(BODY, signed());
		expect(deliveryOf(call)).toMatchObject({ id: sha256(BODY), idSource: 'body:sha256' });
	});

	it("refuses a body with a field of the same name: it would replace signed data, or pass for the trigger's", async () => {
		const raw = JSON.stringify({
			id: 'evt_9',
			event: 'transfers.created',
			webhookDelivery: { id: 'forged' },
		});
		const answer = await expectRefused(rig.server.post(raw, signed(SECRET, raw)), 400);
		expect(answer.message).toBe('Body must not have a top-level webhookDelivery field');
		expect(rig.logs.text()).toContain('reserved_field');
	});
});
