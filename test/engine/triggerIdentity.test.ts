/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: a fixture signing secret for the sandbox, not a real one */
/**
 * The delivery identity with no configuration, end to end: the trigger's real webhook() (test/harness/webhook.ts)
 * starts Tenant API Trigger → Tenant API POST in n8n-core's WorkflowExecute (test/harness/executions.ts), and the
 * sandbox records each write with its Idempotency-Key. Three events of one resource (the same top-level "id") are
 * three deliveries and three writes; the same signed bytes delivered twice are one delivery and one write. Needs
 * `npm run build` first.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { ACTION_TYPE, TEST_CREDENTIAL_ID, TRIGGER_TYPE } from '../harness/engine';
import type { WorkflowSpec } from '../harness/executions';
import { startExecution } from '../harness/executions';
import { TRIGGER_NODE_NAME, WEBHOOK_ID, useTriggerToSandbox } from '../harness/webhook';

const SECRET = 'whsec_identity_7c41';
const POST = 'Write';

/** Tenant API Trigger (default settings) → a POST of `{ ref: <the event type>, amount: 1 }` to /transfers. */
const WORKFLOW: WorkflowSpec = {
	id: 'wf-identity',
	nodes: [
		{
			id: 'trigger-id',
			name: TRIGGER_NODE_NAME,
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId: WEBHOOK_ID,
			parameters: {},
		},
		{
			id: 'write-id',
			name: POST,
			type: ACTION_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: {
				resource: 'request',
				operation: 'post',
				endpoint: '/transfers',
				body: '={{ JSON.stringify({ ref: $json.event, amount: 1 }) }}',
				options: { maxAttempts: 1 },
			},
			credentials: { tenantApi: { id: TEST_CREDENTIAL_ID, name: 'Tenant API test' } },
		} satisfies INode,
	],
	connections: {
		[TRIGGER_NODE_NAME]: { main: [[{ node: POST, type: 'main', index: 0 }]] },
	},
};

describe('the delivery identity, from the trigger to the writes', () => {
	const rig = useTriggerToSandbox(SECRET);

	/** A signed delivery of exactly `body`: the trigger's output item, and how the execution it starts ended. */
	async function deliver(body: string): Promise<{ item: IDataObject; status: string }> {
		const output = await rig.deliver(body);
		const execution = await startExecution(rig.harness, WORKFLOW, TRIGGER_NODE_NAME, output);
		return { item: output[0][0].json, status: execution.run.status };
	}

	const written = () =>
		rig.sandbox.records().map((record) => [record.ref, record.idempotency_key] as const);

	it("three events of one order (the same top-level id, a resource's) are three deliveries and three writes", async () => {
		const events = ['orders/create', 'orders/paid', 'orders/updated'];
		const deliveries = [];
		for (const event of events)
			deliveries.push(
				await deliver(
					`{"id": 820982911946154508, "event": "${event}", "total_price": "19.99", "updated_at": "2026-11-28T07:00:00Z"}`,
				),
			);
		expect(deliveries.map(({ status }) => status)).toEqual(['success', 'success', 'success']);
		// The resource id arrives exactly as sent; it does not name the delivery.
		expect(deliveries.map(({ item }) => item.id)).toEqual(Array(3).fill('820982911946154508'));
		const ids = deliveries.map(({ item }) => (item.webhookDelivery as IDataObject).id);
		expect(new Set(ids).size).toBe(3);
		expect(deliveries.map(({ item }) => (item.webhookDelivery as IDataObject).idSource)).toEqual(
			Array(3).fill('body:sha256'),
		);
		expect(written().map(([ref]) => ref)).toEqual(events);
		expect(new Set(written().map(([, key]) => key)).size).toBe(3);
	});

	it('the same signed event without a top-level id, delivered twice, is one delivery and one write', async () => {
		const body = '{"event":"transfers.created","data":{"object":{"id":"tr_1","amount":1250}}}';
		const first = await deliver(body);
		const again = await deliver(body);
		expect([first.status, again.status]).toEqual(['success', 'success']);
		const ids = [first, again].map(({ item }) => item.webhookDelivery as IDataObject);
		expect(ids[0]).toMatchObject({
			id: expect.stringMatching(/^[0-9a-f]{64}$/),
			idSource: 'body:sha256',
		});
		expect(ids[1].id).toBe(ids[0].id);
		expect(written()).toEqual([['transfers.created', expect.any(String)]]);
		expect(rig.sandbox.stats().replays).toBe(1);
	});
});
