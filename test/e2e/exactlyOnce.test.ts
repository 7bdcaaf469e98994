/**
 * Exactly-once writes where n8n itself takes part: "Retry execution" through its REST API (loadWorkflow false
 * and true, a retry of a retry), and a delivery whose workflow failed, so that n8n answered 500 and the sandbox
 * delivered the same signed bytes again → one record, with the trigger's defaults (a body without a top-level
 * id is named by its SHA-256). The node's keys across executions and events: test/engine/exactlyOnce.test.ts.
 */
import * as crypto from 'node:crypto';
import type { CreatedRecord, DeliveryResult, Sandbox } from '../../sandbox/server';
import { postScript } from '../harness/postScript';
import {
	type ApiExecution as Execution,
	type CredentialRef,
	TRIGGER_TYPE,
	VERSION,
	WEBHOOK_SECRET,
	executionsOf,
	poll,
	sandboxCredentials,
	sessionLib,
	projectN8n,
	startSandbox,
	settled,
	workflows,
} from './helpers';

const POST_NAME = 'Create transfer';
const TRIGGER_NAME = 'Tenant API Trigger';

/**
 * One item per request, one at a time, one attempt each: what the API answers decides the run. The body is `ref` and
 * `amount` of the item, or of the object at `from` (`data`).
 */
function postNode(credential: CredentialRef, from = '') {
	const fields = from === '' ? '$json' : `$json.${from}`;
	return workflows.node(
		POST_NAME,
		'n8n-nodes-tenant-api.tenantApi',
		{
			resource: 'request',
			operation: 'post',
			endpoint: '/transfers',
			body: `={{ JSON.stringify({ ref: ${fields}.ref, amount: ${fields}.amount }) }}`,
			options: { includeMetadata: true, maxAttempts: 1, concurrency: 1 },
		},
		{ credentials: { tenantApi: credential } },
	);
}

/** n8n's own Webhook node → Split Out (body.items) → Create transfer: executions not started by the Tenant API Trigger. */
function webhookItemsWorkflow(name: string, path: string, credential: CredentialRef) {
	const webhook = workflows.node(
		'Webhook',
		'n8n-nodes-base.webhook',
		{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		{ typeVersion: 2, webhookId: crypto.randomUUID() },
	);
	const splitOut = workflows.node('Split Out', 'n8n-nodes-base.splitOut', {
		fieldToSplitOut: 'body.items',
		include: 'noOtherFields',
	});
	return workflows.chain(name, [webhook, splitOut, postNode(credential)]);
}

/**
 * Tenant API Trigger (its defaults: Verification HMAC-SHA256 of the Body, no Delivery ID Fields; Respond: When the
 * Workflow Finishes, so that the sender learns of a failed run) → Create transfer (the delivery's `data`).
 */
function eventWorkflow(name: string, credentials: { api: CredentialRef; webhook: CredentialRef }) {
	const webhookId = crypto.randomUUID();
	const trigger = workflows.node(
		TRIGGER_NAME,
		TRIGGER_TYPE,
		{ respond: 'whenFinished' },
		{ webhookId, credentials: { tenantWebhookApi: credentials.webhook } },
	);
	return {
		webhookPath: `/webhook/${webhookId}/webhook`,
		body: workflows.chain(name, [trigger, postNode(credentials.api, 'data')]),
	};
}

interface Workflow {
	id: string;
	webhookPath: string;
}

describe(`n8n ${VERSION}: exactly-once writes across executions`, () => {
	let sandbox: Sandbox;
	const n8n = projectN8n();
	let items: Workflow;
	let events: Workflow;

	/**
	 * A workflow created and activated, once n8n serves its production webhook: activation can answer before that on
	 * a loaded machine. The probe (`POST {}`) starts a plain Webhook workflow once (the Tenant API Trigger refuses
	 * it): that execution ends before any test takes its mark.
	 */
	async function createWorkflow(
		body: { name: string } & Record<string, unknown>,
		webhookPath: string,
		probeStarts: boolean,
	): Promise<Workflow> {
		const workflow = { id: await sessionLib.createActiveWorkflow(n8n, body), webhookPath };
		const before = await mark(workflow);
		await n8n.waitForWebhook(webhookPath);
		if (probeStarts) await since(before, 1);
		return workflow;
	}

	beforeAll(async () => {
		sandbox = await startSandbox();
		const credentials = await sandboxCredentials(n8n, sandbox, 'exactly once');
		const api = credentials.tenantApi;
		const webhook = credentials.tenantWebhookApi;
		items = await createWorkflow(
			webhookItemsWorkflow('Exactly once: Webhook items', 'exactly-once-items', api),
			'/webhook/exactly-once-items',
			true,
		);
		const event = eventWorkflow('Exactly once: events', { api, webhook });
		events = await createWorkflow(event.body, event.webhookPath, false);
	});

	afterAll(() => sandbox?.close());

	beforeEach(() => sandbox.setFaults([]));

	const recordsOf = (refs: string[]): CreatedRecord[] =>
		sandbox.records().filter((record) => refs.includes(String(record.ref)));
	const countsOf = (refs: string[]) => refs.map((ref) => recordsOf([ref]).length);

	const executions = (workflow: Workflow) => executionsOf(n8n, workflow.id);

	/** A mark in the executions of `workflow`; `since(mark, n)` waits for the n executions after it to end, newest first. */
	async function mark(workflow: Workflow): Promise<{ workflow: Workflow; ids: Set<string> }> {
		return { workflow, ids: new Set((await executions(workflow)).map((e) => e.id)) };
	}

	const since = ({ workflow, ids }: { workflow: Workflow; ids: Set<string> }, count: number) =>
		poll(
			async () => {
				const fresh = (await executions(workflow)).filter((e) => !ids.has(e.id));
				return fresh.length >= count && fresh.every(settled) && fresh;
			},
			`fewer than ${count} new ended executions of workflow ${workflow.id}`,
			{ timeoutMs: 120000 },
		);

	/** "Retry" in the executions list: n8n's REST API with the owner's login cookie; it answers when the retry has ended. */
	async function retry(executionId: string, loadWorkflow: boolean): Promise<Execution> {
		const res = await n8n.request<{ data: Execution }>(
			'POST',
			`/rest/executions/${executionId}/retry`,
			{ cookie: n8n.cookie, body: { loadWorkflow } },
		);
		if (res.status !== 200) throw new Error(`retry ${executionId} -> ${res.status}: ${res.text}`);
		return (await n8n.api<Execution>('GET', `/executions/${res.json!.data.id}?includeData=true`))
			.json!;
	}

	const postOutput = (execution: Execution) => {
		const runs = execution.data.resultData.runData[POST_NAME] ?? [];
		return runs[runs.length - 1];
	};
	const keysOf = (execution: Execution) =>
		(postOutput(execution)?.data?.main[0] ?? []).map((item) => item.json.idempotencyKey);
	const triggerItems = (execution: Execution) =>
		(execution.data.resultData.runData[TRIGGER_NAME]?.[0].data?.main[0] ?? []).map(
			(item) => item.json,
		);

	/** The sandbox sends `payload` as it is, signed as the trigger's default checks it, retrying after a non-2xx. */
	async function deliverPayload(
		workflow: Workflow,
		payload: Record<string, unknown>,
	): Promise<DeliveryResult> {
		return await sandbox.deliver(
			{ payload },
			{
				url: n8n.url + workflow.webhookPath,
				secrets: [WEBHOOK_SECRET],
				scheme: 'hmac-sha256-hex',
				maxAttempts: 3,
				retryDelayMs: 200,
				timeoutMs: 60000,
			},
		);
	}

	test('Retry execution (with the original workflow, then a retry of that retry with the saved workflow, then the first again): one record per item', async () => {
		const refs = ['retry-a', 'retry-b'];
		const start = await mark(items);
		sandbox.setFaults(postScript('pass', 'drop'));
		const answer = await fetch(n8n.url + items.webhookPath, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ items: refs.map((ref, i) => ({ ref, amount: i + 1 })) }),
		});
		expect(answer.status).toBe(200);
		const [failed] = await since(start, 1);
		expect(failed.status).toBe('error');
		expect(postOutput(failed)?.error?.message).toMatch(/Could not reach the API/);
		expect(countsOf(refs)).toEqual([1, 1]); // item 0 applied; item 1 committed, its answer lost
		// n8n saved the scope the node recorded before it sent anything.
		expect(failed.data.executionData?.contextData[`node:${POST_NAME}`]).toEqual({
			idempotencyKeyScope: expect.objectContaining({ executionId: String(failed.id) }),
		});
		const firstKeys = recordsOf(refs).map((record) => record.idempotency_key);

		sandbox.setFaults(postScript('pass', '500'));
		const retried = await retry(failed.id, false);
		expect([retried.mode, retried.status]).toEqual(['retry', 'error']);

		const retriedAgain = await retry(retried.id, true);
		expect([retriedAgain.mode, retriedAgain.status]).toEqual(['retry', 'success']);
		expect(keysOf(retriedAgain)).toEqual(firstKeys);
		expect(
			(postOutput(retriedAgain)?.data?.main[0] ?? []).map((item) => item.json.replayed),
		).toEqual([true, true]);

		const firstAgain = await retry(failed.id, true);
		expect(firstAgain.status).toBe('success');
		expect(keysOf(firstAgain)).toEqual(firstKeys);
		expect(countsOf(refs)).toEqual([1, 1]);
	});

	test('a redelivery of {"event", "data"} (no top-level id) after n8n answered 500 writes once, with no configuration (another event gets another key: test/engine/exactlyOnce.test.ts)', async () => {
		sandbox.reset();
		const start = await mark(events);
		sandbox.setFaults(postScript('drop'));
		const event = { event: 'transfers.created', data: { ref: 'redelivered', amount: 1250 } };
		const result = await deliverPayload(events, event);
		expect(result).toMatchObject({ ok: true, status: 200, attempts: 2 });
		// n8n's own answers with Respond When the Workflow Finishes: 500 for the failed run, then an empty 200.
		expect(sandbox.deliveries().map((entry) => [entry.eventId, entry.status, entry.body])).toEqual([
			[result.eventId, 500, '{"message":"Error in workflow"}'],
			[result.eventId, 200, ''],
		]);
		const [second, first] = await since(start, 2);
		expect([first.status, second.status]).toEqual(['error', 'success']);
		expect(postOutput(first)?.error?.message).toMatch(/Could not reach the API/);
		// The same bytes both times: the same item, the same delivery id (the SHA-256 of the body).
		expect(triggerItems(second)).toEqual(triggerItems(first));
		expect(triggerItems(first)).toEqual([
			{ ...event, webhookDelivery: expect.objectContaining({ idSource: 'body:sha256' }) },
		]);
		// The first POST was applied (its answer lost); the second, under the same key, was answered from it.
		const [record] = sandbox.records();
		expect(sandbox.records()).toHaveLength(1);
		expect(record).toMatchObject({ ref: 'redelivered', amount: 1250 });
		expect(keysOf(second)).toEqual([record.idempotency_key]);
		expect(sandbox.stats()).toMatchObject({ records: 1, replays: 1, distinctIdempotencyKeys: 1 });
	});
});
