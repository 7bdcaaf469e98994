/* Workflows for exactlyOnce.test.ts (n8n's export format, created through the public API). */
import * as crypto from 'node:crypto';
import { type CredentialRef, TRIGGER_TYPE, workflows } from './helpers';

export const POST_NAME = 'Create transfer';
export const TRIGGER_NAME = 'Tenant API Trigger';

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
export function webhookItemsWorkflow(name: string, path: string, credential: CredentialRef) {
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
export function eventWorkflow(
	name: string,
	credentials: { api: CredentialRef; webhook: CredentialRef },
) {
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
