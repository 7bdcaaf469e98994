import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ApiClient } from '../../transport/apiClient';
import { resolveEndpoint } from '../../transport/apiUrl';
import type { IdempotencyScope } from '../../transport/idempotencyKey';
import { deriveIdempotencyKey, validateIdempotencyKeyOverride } from '../../transport/idempotencyKey';
import { asNodeError } from '../common/asNodeError';
import { runItems } from '../common/runItems';
import { readTransportOptions, transportOptionFields } from '../common/transportOptions';
import { parseJsonObjectBody, toOutputJson } from './jsonBody';

export type RequestOperation = 'post' | 'send';

/** Endpoint, Body and Options of an operation that sends one request per item. */
export function requestFields(operation: RequestOperation): INodeProperties[] {
	const showFor = { resource: ['request'], operation: [operation] };
	const bodyShowFor = operation === 'send' ? { ...showFor, method: ['PUT', 'PATCH'] } : showFor;
	return [
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'string',
			required: true,
			default: '',
			placeholder: '/transfers',
			description: 'Path below the Base URL of the credential, e.g. /transfers. Absolute URLs and paths that climb above the Base URL are refused.',
			displayOptions: { show: showFor },
		},
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
					displayName: 'Concurrency',
					name: 'concurrency',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 64 },
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
						'Overrides the automatic key for each item. Use a business key (e.g. an order ID) to stay safe across "Retry execution" and re-runs, which get new automatic keys. Not sent with GET.',
				},
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

function idempotencyScope(fn: IExecuteFunctions): IdempotencyScope {
	return {
		workflowId: String(fn.getWorkflow().id ?? ''),
		executionId: String(fn.getExecutionId() ?? ''),
		nodeId: fn.getNode().id,
		runIndex: Number(fn.getWorkflowDataProxy(0).$runIndex ?? 0),
	};
}

const METHODS_WITH_BODY = new Set<IHttpRequestMethods>(['POST', 'PUT', 'PATCH']);

/**
 * Sends one request per item. Every write carries an Idempotency-Key (derived, or the option), so
 * retries are safe whatever the method.
 */
export async function executeRequests(
	fn: IExecuteFunctions,
	methodFor: (itemIndex: number) => IHttpRequestMethods,
): Promise<INodeExecutionData[]> {
	const scope = idempotencyScope(fn);
	const concurrency = (fn.getNodeParameter('options.concurrency', 0, 5) as number) || 1;
	const setup = async () => await ApiClient.create(fn, readTransportOptions(fn));

	return await runItems(fn, concurrency, setup, async (itemIndex, client) => {
		const method = methodFor(itemIndex);
		const endpoint = fn.getNodeParameter('endpoint', itemIndex);
		const bodyParameter = METHODS_WITH_BODY.has(method) ? fn.getNodeParameter('body', itemIndex, '{}') : undefined;
		const override = fn.getNodeParameter('options.idempotencyKey', itemIndex, '') as unknown;
		const { url, jsonBody, idempotencyKey } = asNodeError(
			fn,
			itemIndex,
			() => ({
				url: resolveEndpoint(client.base, endpoint),
				jsonBody: bodyParameter === undefined ? undefined : JSON.stringify(parseJsonObjectBody(bodyParameter)),
				idempotencyKey:
					method === 'GET'
						? undefined
						: override === '' || override === undefined || override === null
							? deriveIdempotencyKey(scope, itemIndex)
							: validateIdempotencyKeyOverride(override),
			}),
			'Nothing was sent. Fix the parameter and run again.',
		);
		const result = await client.send({ method, url, jsonBody, idempotencyKey }, itemIndex);
		const includeMetadata = fn.getNodeParameter('options.includeMetadata', itemIndex, false) as boolean;
		const body = toOutputJson(result.body);
		const json: IDataObject = includeMetadata
			? {
					statusCode: result.statusCode,
					idempotencyKey,
					attempts: result.attempts,
					replayed: result.replayed,
					body,
				}
			: body;
		return [json];
	});
}
