/* Workflows and sandbox scripts for exactlyOnce.test.ts (n8n's export format, created through the public API). */
import * as crypto from 'node:crypto';

export const POST_NAME = 'Create transfer';
export const TRIGGER_NAME = 'Tenant API Trigger';

interface Credential {
	id: string;
	name: string;
}

const node = (
	name: string,
	type: string,
	typeVersion: number,
	x: number,
	parameters: Record<string, unknown>,
	extra: Record<string, unknown> = {},
) => ({
	id: crypto.randomUUID(),
	name,
	type,
	typeVersion,
	position: [x, 0],
	parameters,
	...extra,
});

/**
 * One item per request, one at a time, one attempt each: what the API answers decides the run. The body is `ref` and
 * `amount` of the item, or of the object at `from` (`data`).
 */
function postNode(credential: Credential, from = '') {
	const fields = from === '' ? '$json' : `$json.${from}`;
	return node(
		POST_NAME,
		'n8n-nodes-tenant-api.tenantApi',
		1,
		720,
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

const splitOut = (field: string) =>
	node('Split Out', 'n8n-nodes-base.splitOut', 1, 480, {
		fieldToSplitOut: field,
		include: 'noOtherFields',
	});

function chain(...names: string[]) {
	const connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: string; index: number }>> }
	> = {};
	for (let i = 0; i < names.length - 1; i++)
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	return connections;
}

/** n8n's own Webhook node → Split Out (body.items) → Create transfer: executions not started by the Tenant API Trigger. */
export function webhookItemsWorkflow(name: string, path: string, credential: Credential) {
	const webhook = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		0,
		{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		{ webhookId: crypto.randomUUID() },
	);
	return {
		name,
		nodes: [webhook, splitOut('body.items'), postNode(credential)],
		connections: chain('Webhook', 'Split Out', POST_NAME),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Tenant API Trigger (its defaults: Verification HMAC-SHA256 of the Body, no Delivery ID Fields; Respond: When the
 * Workflow Finishes, so that the sender learns of a failed run) → Create transfer (the delivery's `data`).
 */
export function eventWorkflow(name: string, credentials: { api: Credential; webhook: Credential }) {
	const webhookId = crypto.randomUUID();
	const trigger = node(
		TRIGGER_NAME,
		'n8n-nodes-tenant-api.tenantApiTrigger',
		1,
		0,
		{ respond: 'whenFinished' },
		{ webhookId, credentials: { tenantWebhookApi: credentials.webhook } },
	);
	return {
		webhookPath: `/webhook/${webhookId}/webhook`,
		body: {
			name,
			nodes: [trigger, postNode(credentials.api, 'data')],
			connections: chain(TRIGGER_NAME, POST_NAME),
			settings: { executionOrder: 'v1' },
		},
	};
}
