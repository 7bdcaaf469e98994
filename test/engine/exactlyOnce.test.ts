/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: a fixture signing secret for the sandbox, not a real one */
/**
 * Exactly-once writes beyond one execution (issue 11), inside n8n-core's WorkflowExecute: "Retry
 * execution" (both ways, and retries of retries) re-sends the first execution's keys; a Tenant API
 * Trigger event gets the same keys on every delivery, another event (of the same resource too) others; new
 * executions get new ones. The trigger's items come from its real webhook() (test/harness/webhook.ts), retries
 * are built as n8n's ExecutionService.retry() builds them (test/harness/executions.ts). Needs `npm run build`.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { sign } from '../../sandbox/signing';
import {
	ACTION_TYPE,
	EMIT_TYPE,
	LINES_TYPE,
	ITEMS_TYPE,
	TEST_CREDENTIAL_ID,
	TRIGGER_TYPE,
	postTransfersParameters,
} from '../harness/engine';
import { postScript } from '../harness/postScript';
import type { Execution, WorkflowSpec } from '../harness/executions';
import { retryExecution, runManually, startExecution } from '../harness/executions';
import type { TriggerServer } from '../harness/webhook';
import {
	TRIGGER_NODE_NAME,
	WEBHOOK_ID,
	startTriggerServer,
	webhookCredential,
} from '../harness/webhook';
import { useSandbox } from './useSandbox';

const SECRET = 'whsec_exactly_once_5d1c';
const POST = 'Create transfer';
const LISTING = 'Listing';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const TWO = [
	{ ref: 'a', amount: 1 },
	{ ref: 'b', amount: 2 },
];

/** A node of these workflows (where it sits does not matter to the engine). */
const node = (name: string, type: string, parameters = {}, more: Partial<INode> = {}) =>
	({
		id: `${name}-id`,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		...more,
	}) as INode;
const CREDENTIALS = { tenantApi: { id: TEST_CREDENTIAL_ID, name: 'Tenant API test' } };

/** Create transfer: Request → POST to /transfers of each item's `ref` and `amount`, one at a time. */
const postNode = (options: IDataObject = {}, id = 'post-node-id') =>
	node(
		POST,
		ACTION_TYPE,
		postTransfersParameters({ includeMetadata: true, maxAttempts: 1, concurrency: 1, ...options }),
		{ id, credentials: CREDENTIALS },
	);
const TRIGGER = node(TRIGGER_NODE_NAME, TRIGGER_TYPE, {}, { webhookId: WEBHOOK_ID });
/** Listing: the items an upstream node produces for the event. */
const listing = (items: IDataObject[]) =>
	node(LISTING, EMIT_TYPE, { items: JSON.stringify(items) });

/** A workflow of `nodes`, each one's main output to the next. */
const chain = (id: string, ...nodes: INode[]): WorkflowSpec => ({
	id,
	nodes,
	connections: Object.fromEntries(
		nodes
			.slice(1)
			.map((to, i) => [nodes[i].name, { main: [[{ node: to.name, type: 'main', index: 0 }]] }]),
	) as WorkflowSpec['connections'],
});

/** Items → Create transfer: a workflow not started by the Tenant API Trigger. */
const itemsWorkflow = (items: IDataObject[], post = postNode()) =>
	chain('wf-items', node('Items', ITEMS_TYPE, { items: JSON.stringify(items) }), post);

/** Tenant API Trigger → Listing → Create transfer. */
const eventWorkflow = (items: IDataObject[], post = postNode()) =>
	chain('wf-events', TRIGGER, listing(items), post);

/** The node's task data of its last run in an execution. */
function lastRun(execution: Execution, node: string) {
	const runs = execution.run.data.resultData.runData[node] ?? [];
	return runs[runs.length - 1];
}

const outputs = (execution: Execution) =>
	(lastRun(execution, POST)?.data?.main?.[0] ?? []).map((item) => item.json);
const keysOut = (execution: Execution) =>
	outputs(execution).map((json) => json.idempotencyKey as string);
const errorOf = (execution: Execution) =>
	lastRun(execution, POST)?.error as
		| (Error & { description?: string; context?: IDataObject })
		| undefined;

describe('Exactly-once writes across executions (WorkflowExecute)', () => {
	const suite = useSandbox();
	let trigger: TriggerServer;
	beforeAll(async () => {
		trigger = await startTriggerServer({ credential: webhookCredential(SECRET) });
	});
	afterAll(async () => await trigger.close());

	const recordKeys = () => suite.sandbox.records().map((record) => record.idempotency_key);
	const refs = () => suite.sandbox.records().map((record) => record.ref);

	/** The trigger's output for a signed delivery of `event` (its webhook() through n8n-core's WebhookContext). */
	async function delivery(event: IDataObject): Promise<INodeExecutionData[][]> {
		const body = JSON.stringify({ event: 'transfers.created', created_at: 1700000000, ...event });
		const { status, call } = await trigger.post(
			body,
			sign({ secret: SECRET, scheme: 'hmac-sha256-hex', body }),
		);
		expect(status).toBe(200);
		return call.result!.workflowData as INodeExecutionData[][];
	}

	describe('Retry execution', () => {
		it('re-sends the failed run with the first execution keys: the applied item and the one whose answer was lost are replayed, also by a retry of a retry and a second retry "with the currently saved workflow"', async () => {
			const workflow = itemsWorkflow(TWO);
			suite.sandbox.setFaults(postScript('pass', 'drop'));
			const failed = await runManually(suite.harness, workflow, 'Items');
			expect(failed.run.status).toBe('error');
			expect(errorOf(failed)?.message).toMatch(/Could not reach the API/);
			expect(refs()).toEqual(['a', 'b']);
			const firstKeys = recordKeys();
			firstKeys.forEach((key) => expect(key).toMatch(UUID));
			// Recorded before anything was sent, and saved with the failed execution.
			expect(failed.saved.executionData?.contextData[`node:${POST}`]).toEqual({
				idempotencyKeyScope: { nodeId: 'post-node-id', executionId: failed.executionId },
			});

			suite.sandbox.setFaults(postScript('pass', '500'));
			const retry = await retryExecution(suite.harness, failed);
			expect(retry.run.status).toBe('error');
			expect(retry.executionId).not.toBe(failed.executionId);
			expect(errorOf(retry)?.context?.itemsApplied).toEqual([
				{ item: 0, idempotencyKey: firstKeys[0] },
			]);

			suite.sandbox.setFaults([]);
			const retryOfRetry = await retryExecution(suite.harness, retry);
			expect(retryOfRetry.run.status).toBe('success');
			expect(keysOut(retryOfRetry)).toEqual(firstKeys);
			expect(outputs(retryOfRetry).map((json) => json.replayed)).toEqual([true, true]);

			// The node was deleted and added again under the same name (a new id), then the first execution is retried with the saved workflow.
			const edited = itemsWorkflow(TWO, postNode({}, 'post-node-id-readded'));
			const secondRetry = await retryExecution(suite.harness, failed, edited);
			expect(secondRetry.run.status).toBe('success');
			expect(keysOut(secondRetry)).toEqual(firstKeys);
			expect(suite.sandbox.records()).toHaveLength(2);
			expect(suite.sandbox.stats().conflicts).toBe(0);
		});

		it('Retry On Fail in the failed execution and Retry execution after it send the same keys', async () => {
			const workflow = itemsWorkflow(TWO, {
				...postNode(),
				retryOnFail: true,
				maxTries: 3,
				waitBetweenTries: 0,
			});
			suite.sandbox.setFaults(postScript('pass', 'drop', 'pass', '500', 'pass', '500'));
			const failed = await runManually(suite.harness, workflow, 'Items');
			expect(failed.run.status).toBe('error');
			expect(suite.sandbox.stats().replays).toBe(2); // item 0 on the second and third try
			const firstKeys = recordKeys();

			const retry = await retryExecution(suite.harness, failed);
			expect(retry.run.status).toBe('success');
			expect(keysOut(retry)).toEqual(firstKeys);
			expect(suite.sandbox.records()).toHaveLength(2);
		});

		it('a 409 for a body that changed since the first execution says whose key it is and that the first request was applied', async () => {
			const workflow = itemsWorkflow(TWO);
			suite.sandbox.setFaults(postScript('pass', 'drop'));
			const failed = await runManually(suite.harness, workflow, 'Items');
			suite.sandbox.setFaults([]);
			const post = postNode();
			const edited = itemsWorkflow(TWO, {
				...post,
				parameters: {
					...post.parameters,
					body: '={{ JSON.stringify({ ref: $json.ref, amount: $json.amount * 100 }) }}',
				},
			});
			const changed = await retryExecution(suite.harness, failed, edited);
			expect(changed.run.status).toBe('error');
			const error = errorOf(changed)!;
			expect(error.message).toBe(
				'Conflict (409): This Idempotency-Key was already used with a different request',
			);
			expect(error.description).toContain(
				`The keys belong to execution ${failed.executionId}, which this execution retries.`,
			);
			expect(error.description).toContain(
				'This node sent item 0 under the same key with a different request before, and that request was applied; this one was not.',
			);
			expect(suite.sandbox.records()).toHaveLength(2);
		});

		it('a new execution with the same input writes again (new keys): the control', async () => {
			const workflow = itemsWorkflow(TWO);
			const first = await runManually(suite.harness, workflow, 'Items');
			const second = await runManually(suite.harness, workflow, 'Items');
			expect([first.run.status, second.run.status]).toEqual(['success', 'success']);
			expect(keysOut(second).some((key) => keysOut(first).includes(key))).toBe(false);
			expect(refs()).toEqual(['a', 'b', 'a', 'b']);
		});
	});

	describe('Tenant API Trigger events', () => {
		/** The execution `workflow` starts for a delivery of `event`. */
		const onEvent = async (workflow: WorkflowSpec, event: IDataObject) =>
			startExecution(suite.harness, workflow, TRIGGER_NODE_NAME, await delivery(event));

		it('a Code node before the node builds new items without item linking: a redelivery writes each once, another event (of the same resource too) shares no key', async () => {
			const lines = [
				{ ref: 'c', amount: 3 },
				{ ref: 'a', amount: 1 },
				{ ref: 'skipped', amount: 0 },
				{ ref: 'b', amount: 2 },
			];
			// Tenant API Trigger → Lines (a Code node: new items from the delivery's lines) → Create transfer.
			const workflow = chain('wf-lines', TRIGGER, node('Lines', LINES_TYPE), postNode());
			const first = await onEvent(workflow, { id: 'evt_lines', lines });
			// n8n filled in the links the Code node left out: every item points at the trigger item.
			expect(lastRun(first, 'Lines')?.data?.main?.[0]?.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 0 },
				{ item: 0 },
			]);
			const again = await onEvent(workflow, { id: 'evt_lines', lines });
			expect([first.run.status, again.run.status]).toEqual(['success', 'success']);
			expect(again.executionId).not.toBe(first.executionId);
			expect(keysOut(again)).toEqual(keysOut(first));
			expect(outputs(again).map((json) => json.replayed)).toEqual([true, true, true]);

			// Another event of the same resource (the same top-level "id", another event type) is another delivery.
			const otherEvent = await delivery({ id: 'evt_lines', event: 'transfers.updated', lines });
			expect(otherEvent[0][0].json.webhookDelivery).toMatchObject({ idSource: 'body:sha256' });
			const other = await startExecution(suite.harness, workflow, TRIGGER_NODE_NAME, otherEvent);
			expect(other.run.status).toBe('success');
			expect(keysOut(other).some((key) => keysOut(first).includes(key))).toBe(false);
			expect(refs()).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
		});

		it.each(['position', 'content'])(
			'two identical requests in one run are two writes (%s)',
			async (keyDerivation) => {
				const same = [
					{ ref: 'x', amount: 5 },
					{ ref: 'x', amount: 5 },
				];
				const workflow = eventWorkflow(same, postNode({ keyDerivation }));
				const first = await onEvent(workflow, { id: `evt_twins_${keyDerivation}` });
				expect(new Set(keysOut(first)).size).toBe(2);
				await onEvent(workflow, { id: `evt_twins_${keyDerivation}` });
				expect(refs()).toEqual(['x', 'x']);
			},
		);

		it('items in another order on a redelivery, by item position: no second write, and a clear error that the first requests were applied', async () => {
			const event = await delivery({ id: 'evt_reorder' });
			const eventId = (event[0][0].json.webhookDelivery as IDataObject).id as string;
			await startExecution(suite.harness, eventWorkflow(TWO), TRIGGER_NODE_NAME, event);
			const reordered = await onEvent(eventWorkflow([...TWO].reverse()), { id: 'evt_reorder' });
			expect(reordered.run.status).toBe('error');
			const error = errorOf(reordered)!;
			expect(error.message).toBe(
				'Conflict (409): This Idempotency-Key was already used with a different request',
			);
			expect(error.description).toContain(
				`The keys belong to event ${eventId} (${TRIGGER_NODE_NAME}), which was delivered or retried before.`,
			);
			expect(error.description).toContain('that request was applied; this one was not');
			expect(error.description).toContain(
				'set Options → Automatic Key Derivation to By Request Content',
			);
			expect(refs()).toEqual(['a', 'b']);
		});

		it('items in another order on a redelivery, by request content: the same writes, replayed', async () => {
			const first = await onEvent(eventWorkflow(TWO, postNode({ keyDerivation: 'content' })), {
				id: 'evt_reorder_c',
			});
			const reordered = await onEvent(
				eventWorkflow([...TWO].reverse(), postNode({ keyDerivation: 'content' })),
				{ id: 'evt_reorder_c' },
			);
			expect(reordered.run.status).toBe('success');
			expect(keysOut(reordered)).toEqual([...keysOut(first)].reverse());
			expect(outputs(reordered).map((json) => json.replayed)).toEqual([true, true]);
			expect(refs()).toEqual(['a', 'b']);
		});

		const lookUp = node(
			'Look up',
			ACTION_TYPE,
			{
				resource: 'request',
				operation: 'send',
				method: 'GET',
				endpoint: '/transfers',
				options: { maxAttempts: 1 },
			},
			{ credentials: CREDENTIALS },
		);
		it.each([
			['a failed delivery', eventWorkflow(TWO), postScript('pass', 'drop'), POST],
			[
				'a delivery in which an earlier node failed (the node first runs in the retry)',
				chain('wf-events', TRIGGER, lookUp, listing(TWO), postNode()),
				[{ method: 'GET', times: 1, action: { status: 503 } }],
				'Look up',
			],
		])(
			'%s, then both "Retry execution" and a redelivery of the event: the event keys, each item written once',
			async (name, workflow, faults, failedAt) => {
				suite.sandbox.setFaults(faults);
				const failed = await onEvent(workflow, { id: `evt ${name}` });
				expect([failed.run.status, failed.run.data.resultData.lastNodeExecuted]).toEqual([
					'error',
					failedAt,
				]);
				suite.sandbox.setFaults([]);
				const retry = await retryExecution(suite.harness, failed);
				const redelivered = await onEvent(workflow, { id: `evt ${name}` });
				expect([retry.run.status, redelivered.run.status]).toEqual(['success', 'success']);
				expect(keysOut(redelivered)).toEqual(keysOut(retry));
				expect(refs()).toEqual(['a', 'b']);
			},
		);

		it('a delivery at the Test URL (n8n runs it in manual mode) gets the event keys: a captured production delivery replayed there writes nothing new', async () => {
			const workflow = eventWorkflow(TWO);
			const captured = await delivery({ id: 'evt_replayed_at_test_url' });
			const production = await startExecution(suite.harness, workflow, TRIGGER_NODE_NAME, captured);
			const atTestUrl = await startExecution(
				suite.harness,
				workflow,
				TRIGGER_NODE_NAME,
				captured,
				'manual',
			);
			expect([production.run.status, atTestUrl.run.status]).toEqual(['success', 'success']);
			expect(keysOut(atTestUrl)).toEqual(keysOut(production));
			expect(outputs(atTestUrl).map((json) => json.replayed)).toEqual([true, true]);
			expect(refs()).toEqual(['a', 'b']);
		});

		it('a business key in Options → Idempotency Key still decides alone', async () => {
			const workflow = eventWorkflow(
				TWO,
				postNode({ idempotencyKey: '={{ "order-" + $json.ref }}' }),
			);
			await onEvent(workflow, { id: 'evt_business_1' });
			await onEvent(workflow, { id: 'evt_business_2' });
			expect(recordKeys()).toEqual(['order-a', 'order-b']);
		});
	});
});
