/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: fixture signing secrets, not real ones */
/**
 * The built Tenant API Trigger behind a real local HTTP server, called through n8n-core's WebhookContext (and
 * HookContext for the lifecycle methods): what only n8n gives the trigger (the log, the request's query, the public
 * and Test URLs, the mode of a Test URL call). The deliveries the sandbox sends on its own are decided by the
 * trigger in test/sandbox/webhooks.test.ts; what the trigger decides for a request is proven once in test/unit and,
 * over generated requests, by the property campaign (test/unit/deliveryProperties.test.ts); every scheme's answer
 * (Verification None without a credential too) in triggerAnswers.test.ts; refusals in triggerRefusals.test.ts.
 * Needs `npm run build` first.
 */
import { createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { sign } from '../../sandbox/signing';
import { withoutDelivery } from '../harness/verifier';
import type { TriggerSetup } from '../harness/webhook';
import {
	WEBHOOK_ID,
	buildTriggerRig,
	deliveryOf,
	runHookMethod,
	startedItems,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const SECRET = 'whsec_current_3f9a7c';
const PREVIOUS = 'whsec_previous_81d2e4';
const TEST = 'whsec_test_url';
const BODY = JSON.stringify({ id: 'evt_1', event: 'transfers.created', data: { amount: 1250 } });
/** n8n's public URL of the webhook (what a sender signs for `{url}`), unlike the harness's local listener URL. */
const PUBLIC_URL = `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`;
const TEST_URL = PUBLIC_URL.replace('/webhook/', '/webhook-test/');
const JSON_TYPE = { 'content-type': 'application/json' };

const signed = (secret = SECRET, body = BODY) => ({ ...JSON_TYPE, ...sign({ secret, body }) });

const rig = useTriggerServer();

const use = (setup: TriggerSetup) =>
	rig.server.configure({ credential: webhookCredential(SECRET), ...setup });

it('the query and headers n8n hands over sit under webhookDelivery, named unsigned: they never replace a signed field', async () => {
	await use({ parameters: { options: { includeQuery: true, includeHeaders: true } } });
	const body = JSON.stringify({ id: 'evt_1', webhookQuery: { approved: 'false' } });
	const { status, call } = await rig.server.post(
		body,
		{ ...signed(SECRET, body), role: 'admin' },
		'?approved=true',
	);
	expect(status).toBe(200);
	expect(startedItems(call).map(withoutDelivery)).toEqual([JSON.parse(body)]);
	expect(deliveryOf(call)).toMatchObject({
		unsignedQuery: { approved: 'true' },
		unsignedHeaders: expect.objectContaining({ role: 'admin' }),
	});
});

it('a refusal without Record Refused Deliveries: 401, nothing started or recorded, its reason in the log; neither the answer nor the log holds a secret or the expected signature', async () => {
	await use({ credential: webhookCredential(SECRET, PREVIOUS) });
	const expected = createHmac('sha256', SECRET).update(BODY).digest();
	const { status, text, call } = await rig.server.post(BODY, {
		'x-signature': `sha256=${'0'.repeat(64)}`,
	});
	expect([status, text, call.result]).toEqual([
		401,
		'{"message":"Invalid signature"}',
		{ noWebhookResponse: true },
	]);
	expect(rig.logs.entries).toContainEqual(
		expect.objectContaining({
			level: 'warn',
			message: expect.stringMatching(
				/^Tenant API Trigger refused a delivery: The signature does not match/,
			),
			metadata: expect.objectContaining({ reason: 'signature_mismatch' }),
		}),
	);
	for (const hidden of [SECRET, PREVIOUS, expected.toString('hex'), expected.toString('base64')])
		expect([text, rig.logs.text()]).not.toEqual(
			expect.arrayContaining([expect.stringContaining(hidden)]),
		);
});

it('lifecycle methods through HookContext: checkExists/create/delete are logged no-ops, create names the public URL', async () => {
	const hookRig = await buildTriggerRig({ credential: webhookCredential(SECRET) });
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

describe("Custom HMAC's {url}: n8n's public webhook URL (or the Signed URL setting), with the query as received", () => {
	const parameters = { verification: 'customHmac', customSignedContent: '{url}{body}' };
	const signedFor = (url: string) => ({
		...JSON_TYPE,
		'x-signature': createHmac('sha256', SECRET).update(url).update(BODY).digest('hex'),
	});
	const statusOf = async (headers: Record<string, string>, query = '') =>
		(await rig.server.post(BODY, headers, query)).status;

	it('at the Production URL', async () => {
		await use({ parameters });
		const query = '?source=sandbox&b=1';
		expect(await statusOf(signedFor(PUBLIC_URL + query), query)).toBe(200);
		// Signed over the URL the sender itself called (the local listener), not what n8n publishes; another query.
		expect(await statusOf(signedFor(rig.server.url + query), query)).toBe(401);
		expect(await statusOf(signedFor(PUBLIC_URL + query), '?source=other&b=1')).toBe(401);
		await use({
			parameters: { ...parameters, signedUrl: 'https://proxy.example/hooks/tenant?x=1' },
		});
		expect(await statusOf(signedFor(`https://proxy.example/hooks/tenant${query}`), query)).toBe(
			200,
		);
	});

	it('on the Test URL (manual mode) the Test URL is the signed one', async () => {
		await use({ parameters, mode: 'manual' });
		expect(await statusOf(signedFor(TEST_URL))).toBe(200);
		expect(await statusOf(signedFor(PUBLIC_URL))).toBe(401);
	});
});

describe('the Test URL secret', () => {
	const answer = async (secret: string) => {
		const { status, call } = await rig.server.post(BODY, signed(secret));
		return [
			status,
			status === 200 ? deliveryOf(call).secret : call.result?.workflowData?.[1][0].json.reason,
		];
	};

	it('is the only secret the Test URL accepts once set (a captured production delivery replayed there is refused), and never accepted at the Production URL', async () => {
		await use({ credential: webhookCredential(SECRET, PREVIOUS, TEST), mode: 'manual' });
		expect(await answer(TEST)).toEqual([200, 'test']);
		expect(await answer(SECRET)).toEqual([401, 'signature_mismatch']);
		expect(await answer(PREVIOUS)).toEqual([401, 'signature_mismatch']);
		await use({ credential: webhookCredential(SECRET, PREVIOUS, TEST) });
		expect(await answer(TEST)).toEqual([401, undefined]);
		expect(await answer(SECRET)).toEqual([200, 'current']);
	});

	it("without one, the Test URL takes the production secrets (the keys of the event then stay the event's: exactlyOnce.test.ts)", async () => {
		await use({ mode: 'manual' });
		expect(await answer(SECRET)).toEqual([200, 'current']);
	});
});
