import type { INodeProperties } from 'n8n-workflow';

/**
 * What an AI agent is told each operation does. n8n gives a `usableAsTool` node a generated
 * "Description" that defaults to the operation's action ("Post to an endpoint in Tenant API");
 * these replace it (n8n adds its own only when the node has no `toolDescription`) with one
 * pre-filled text per operation. They exist only on the tool variant (`@tool`); the agent gets the
 * one of the chosen operation.
 */
const TOOL_DESCRIPTIONS: Array<{ resource: string; operation: string; text: string }> = [
	{
		resource: 'account',
		operation: 'getAll',
		text:
			'Lists the accounts of the tenant in the Tenant API. Read-only: it changes nothing. ' +
			'Returns one JSON object per account, with the fields the API sends.',
	},
	{
		resource: 'request',
		operation: 'getAll',
		text:
			'Lists the records of one collection of the Tenant API (for example transfers or payouts), following its pages. ' +
			'Read-only: it changes nothing. ' +
			'Endpoint: the path of the collection below the API base URL, such as /transfers or /accounts/acc_123/transfers; ' +
			'never a full URL (paths that leave the base URL are refused). ' +
			"Returns one JSON object per record, in the API's order, with the fields the API sends.",
	},
	{
		resource: 'request',
		operation: 'post',
		text:
			'Sends a POST request with a JSON body to the Tenant API, to create something or start an action ' +
			'(for example a transfer or a payout). ' +
			'Endpoint: a path below the API base URL, such as /transfers or /payouts/po_123/confirm; never a full URL ' +
			'(paths that leave the base URL are refused). ' +
			'Body: a JSON object (not an array, not text) with the fields the endpoint expects. ' +
			'Writes are idempotent: every request carries an Idempotency-Key, so a retry never creates a duplicate. ' +
			'When the tool takes an idempotency key, pass a business key that names the operation (for example ' +
			'"order-1001"): repeating the call with the same key returns the first result instead of acting twice. ' +
			"Returns the API's JSON answer.",
	},
	{
		resource: 'request',
		operation: 'send',
		text:
			"Sends a request with the node's HTTP method (GET, PUT, PATCH or DELETE) to the Tenant API, " +
			'to read or change something the other operations do not cover. ' +
			'Endpoint: a path below the API base URL, such as /transfers/tr_123; never a full URL ' +
			'(paths that leave the base URL are refused). ' +
			'PUT and PATCH send a body, which must be a JSON object. ' +
			'PUT, PATCH and DELETE are idempotent: they carry an Idempotency-Key, so a retry never acts twice; ' +
			'when the tool takes an idempotency key, pass a business key that names the change. ' +
			"Returns the API's JSON answer.",
	},
];

export const toolDescriptionFields: INodeProperties[] = TOOL_DESCRIPTIONS.map(
	({ resource, operation, text }) => ({
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		required: true,
		typeOptions: { rows: 4 },
		description:
			'What the AI agent is told this tool does. Pre-filled for the operation; adjust it to the parameters you let the model fill.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	}),
);
