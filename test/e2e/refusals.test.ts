/**
 * A refused delivery tells the user why, in a real n8n (2.x and 1.x) with the packed package: at the Test URL the
 * editor's run records the diagnosis on the trigger's Refused output and nothing runs from the Verified output; in
 * production, Options → Record Refused Deliveries records one refusal per reason (a burst of forged requests adds
 * none), and without it nothing is recorded. The sender gets the same 401 every time.
 */
import * as crypto from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { N8nInstance } from '../../scripts/n8n/instance';
import type { ApiExecution, SuiteSetUp } from './helpers';
import * as helpers from './helpers';
import { VERSION, hmacHex, publishTrigger, setUpSuite } from './helpers';

const SECRET = `whsec_refusals_${crypto.randomBytes(4).toString('hex')}`;
const BODY = JSON.stringify({ id: 'evt_refusals_1', event: 'transfers.created', note: 'never in a diagnosis' });

let suite: SuiteSetUp;
let n8n: N8nInstance;
let credential: { id: string; name: string };

beforeAll(async () => {
	suite = await setUpSuite({ name: 'refusals' });
	n8n = suite.n8n;
	await n8n.start();
	const created = await n8n.api<{ id: string; name: string }>('POST', '/credentials', { name: 'Tenant Webhook (refusals)', type: 'tenantWebhookApi', data: { signingSecret: SECRET, previousSigningSecret: '' } });
	expect(created.status).toBe(200);
	credential = { id: created.json!.id, name: created.json!.name };
}, 240_000);

afterAll(async () => suite?.tearDown(), 60_000);

/** Tenant API Trigger → (Verified) NoOp "Verified", (Refused) NoOp "Refused". */
function workflow(name: string, webhookId: string, options: IDataObject) {
	const noOp = (nodeName: string, y: number) => ({ id: crypto.randomUUID(), name: nodeName, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [300, y], parameters: {} });
	return {
		name,
		nodes: [
			{ id: crypto.randomUUID(), name: 'Trigger', type: 'n8n-nodes-tenant-api.tenantApiTrigger', typeVersion: 1, position: [0, 0], webhookId, parameters: { options }, credentials: { tenantWebhookApi: credential } },
			noOp('Verified', -100),
			noOp('Refused', 100),
		],
		connections: { Trigger: { main: [[{ node: 'Verified', type: 'main', index: 0 }], [{ node: 'Refused', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const post = (path: string, body: string, headers: Record<string, string> = {}) => fetch(n8n.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const forged = (path: string) => post(path, BODY, { 'x-signature': hmacHex('whsec_forged', BODY) });
const genuine = (path: string, id: string) => {
	const body = JSON.stringify({ id, event: 'transfers.created' });
	return post(path, body, { 'x-signature': hmacHex(SECRET, body) });
};

const executionsUntil = (workflowId: string, done: (ended: ApiExecution[]) => boolean) => helpers.executionsUntil(n8n, workflowId, done);

const finishedExecutions = (workflowId: string, count: number) => executionsUntil(workflowId, (list) => list.length >= count);

const ran = (execution: ApiExecution, node: string) => execution.data.resultData.runData[node] !== undefined;
const refusedItem = (execution: ApiExecution) => execution.data.resultData.runData.Trigger[0].data?.main[1]?.[0]?.json as IDataObject;

test('the Test URL: the refusal is answered 401, recorded on the Refused output with its diagnosis, and nothing runs from Verified', async () => {
	const webhookId = crypto.randomUUID();
	const created = await n8n.api<{ id: string }>('POST', '/workflows', workflow('Refusals at the Test URL', webhookId, {}));
	const workflowId = created.json!.id;
	const cookie = await n8n.login();
	// What the editor sends for "Execute workflow": 2.x reads the workflow from the database, 1.x takes it in the body.
	const saved = VERSION.startsWith('1.') ? { workflowData: (await n8n.request<{ data: IDataObject }>('GET', `/rest/workflows/${workflowId}`, { cookie })).json!.data } : {};
	const listening = await n8n.request('POST', `/rest/workflows/${workflowId}/run`, { cookie, headers: { 'push-ref': `refusals-${webhookId}` }, body: { ...saved, triggerToStartFrom: { name: 'Trigger' } } });
	expect([listening.status, listening.json]).toEqual([200, { data: { waitingForWebhook: true } }]);

	const answer = await forged(`/webhook-test/${webhookId}/webhook`);
	expect([answer.status, await answer.json()]).toEqual([401, { message: 'Invalid signature' }]);
	const [execution] = await finishedExecutions(workflowId, 1);
	expect(execution.status).toBe('success');
	expect([ran(execution, 'Verified'), ran(execution, 'Refused')]).toEqual([false, true]);
	expect(refusedItem(execution)).toMatchObject({ reason: 'signature_mismatch', answered: 401, url: 'Test URL', secretsTried: ['current'] });
	expect(JSON.stringify(refusedItem(execution))).not.toContain('never in a diagnosis');
});

test('production with Record Refused Deliveries: one recorded refusal per reason, a burst of forged requests adds none', async () => {
	const webhookId = crypto.randomUUID();
	// Its probe is an unsigned delivery, refused (missing_signature) and recorded like any other.
	const { workflowId, path } = await publishTrigger(n8n, workflow('Refusals recorded', webhookId, { recordRefusals: true }));
	for (let i = 0; i < 25; i++) expect((await forged(path)).status).toBe(401);
	expect((await genuine(path, 'evt_after_burst')).status).toBe(200);
	// The recorded refusal's execution and the genuine one run side by side: wait for both.
	const recordedRefusal = (e: ApiExecution) => ran(e, 'Refused') && refusedItem(e).reason === 'signature_mismatch';
	const executions = await executionsUntil(workflowId, (list) => list.some((e) => ran(e, 'Verified')) && list.some(recordedRefusal));
	const reasons = executions.filter((e) => ran(e, 'Refused')).map((e) => refusedItem(e).reason);
	expect(reasons.filter((reason) => reason === 'signature_mismatch')).toHaveLength(1);
	expect(new Set(reasons).size).toBe(reasons.length);
	const recorded = executions.find(recordedRefusal)!;
	expect(refusedItem(recorded)).toMatchObject({ url: 'Production URL', unrecordedBefore: 0, answered: 401 });
	expect(executions.filter((e) => ran(e, 'Verified'))).toHaveLength(1);
});

test('production without it: the sender gets the same 401 and nothing is recorded', async () => {
	const webhookId = crypto.randomUUID();
	const { workflowId, path } = await publishTrigger(n8n, workflow('Refusals not recorded', webhookId, {}));
	const answer = await forged(path);
	expect([answer.status, await answer.json()]).toEqual([401, { message: 'Invalid signature' }]);
	expect((await genuine(path, 'evt_marker')).status).toBe(200);
	const executions = await executionsUntil(workflowId, (list) => list.some((e) => ran(e, 'Verified')));
	expect(executions.map((e) => [ran(e, 'Verified'), ran(e, 'Refused')])).toEqual([[true, false]]);
});

test('n8n itself answers 422 to invalid JSON sent as application/json, before the trigger runs: nothing is recorded', async () => {
	const webhookId = crypto.randomUUID();
	const { workflowId, path } = await publishTrigger(n8n, workflow('Invalid JSON', webhookId, {}));
	const answer = await post(path, '{"event":', { 'x-signature': hmacHex(SECRET, '{"event":') });
	expect(answer.status).toBe(422);
	expect((await genuine(path, 'evt_marker_422')).status).toBe(200);
	const executions = await executionsUntil(workflowId, (list) => list.some((e) => ran(e, 'Verified')));
	expect(executions.map((e) => [ran(e, 'Verified'), ran(e, 'Refused')])).toEqual([[true, false]]);
});
