import type { INodeProperties } from 'n8n-workflow';

import { endpointField, inProgressOptionFields, transportOptionFields } from '../common/parameters';

export type RequestOperation = 'post' | 'send';

/** Options → Concurrency's maximum: items in flight at once. */
export const MAX_CONCURRENCY = 64;

/** Endpoint, Body and Options of an operation that sends one request per item. */
export function requestFields(operation: RequestOperation): INodeProperties[] {
	const showFor = { resource: ['request'], operation: [operation] };
	const bodyShowFor = operation === 'send' ? { ...showFor, method: ['PUT', 'PATCH'] } : showFor;
	return [
		endpointField(showFor),
		{
			displayName: 'Body',
			name: 'body',
			type: 'json',
			default: '{}',
			description: 'JSON object sent as the request body',
			displayOptions: { show: bodyShowFor },
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { show: showFor },
			options: [
				{
					displayName: 'Automatic Key Derivation',
					name: 'keyDerivation',
					type: 'options',
					options: [
						{
							name: 'By Item Position',
							value: 'position',
							description:
								'Each item keeps the key of its position. Safe when the items before this node come in the same order on every run of an execution or event; a request that differs from the first one under its key is refused by the API (409), never written twice.',
						},
						{
							name: 'By Request Content',
							value: 'content',
							description:
								'The key follows method, endpoint and body (identical requests are counted), so items may come in any order. A body that changes between runs (e.g. one that uses $now) gets a new key and is written again.',
						},
					],
					default: 'position',
					description:
						'How automatic Idempotency-Keys tell the requests of a run apart. They belong to the execution ("Retry execution" keeps them) or, when a Tenant API Trigger delivery started the workflow, to its event (every redelivery keeps them).',
				},
				{
					displayName: 'Concurrency',
					name: 'concurrency',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
					default: 5,
					description: 'How many items are sent at the same time. Output order always follows input order.',
				},
				{
					displayName: 'Idempotency Key',
					name: 'idempotencyKey',
					type: 'string',
					default: '',
					placeholder: '={{ $json.orderId }}',
					description:
						'Overrides the automatic key for each item. Automatic keys stay the same on Retry On Fail, "Retry execution" and redeliveries of a Tenant API Trigger event; a new run gets new ones. A business key (e.g. an order ID) is the same on every run. Not sent with GET.',
				},
				...inProgressOptionFields,
				{
					displayName: 'Include Request Metadata',
					name: 'includeMetadata',
					type: 'boolean',
					default: false,
					description:
						'Whether to output { statusCode, idempotencyKey, attempts, replayed, body } instead of the response body alone',
				},
				...transportOptionFields,
			],
		},
	];
}
