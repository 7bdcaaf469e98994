import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ApiClient } from '../../transport/apiClient';
import { resolveEndpoint } from '../../transport/apiUrl';
import type { IdempotencyScope } from '../../transport/idempotencyKey';
import { deriveIdempotencyKey, validateIdempotencyKeyOverride } from '../../transport/idempotencyKey';
import { asNodeError } from '../common/asNodeError';
import { itemParameter } from '../common/itemParameter';
import { clampWhole } from '../common/numberOption';
import { runItems } from '../common/runItems';
import { inProgressOptionFields, readTransportOptions, transportOptionFields } from '../common/transportOptions';
import type { DuplicateKey } from './duplicateKeys';
import { duplicateKeyDescription, duplicateKeyMessage, findDuplicateKeys } from './duplicateKeys';
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

function idempotencyScope(fn: IExecuteFunctions): IdempotencyScope {
	return {
		workflowId: String(fn.getWorkflow().id ?? ''),
		executionId: String(fn.getExecutionId() ?? ''),
		nodeId: fn.getNode().id,
		runIndex: Number(fn.getWorkflowDataProxy(0).$runIndex ?? 0),
	};
}

const METHODS_WITH_BODY = new Set<IHttpRequestMethods>(['POST', 'PUT', 'PATCH']);
const NOTHING_SENT = 'Nothing was sent. Fix the parameter and run again.';
const MAX_CONCURRENCY = 64;

/** What every item needs decided before the first request goes out: its method and its key. */
interface ItemPlan {
	method: IHttpRequestMethods;
	idempotencyKey?: string;
}

function planItem(
	fn: IExecuteFunctions,
	scope: IdempotencyScope,
	methodFor: (itemIndex: number) => IHttpRequestMethods,
	itemIndex: number,
): ItemPlan {
	const override = fn.getNodeParameter('options.idempotencyKey', itemIndex, '') as unknown;
	return asNodeError(
		fn,
		itemIndex,
		() => {
			const method = methodFor(itemIndex);
			if (method === 'GET') return { method };
			const idempotencyKey =
				override === '' || override === undefined || override === null
					? deriveIdempotencyKey(scope, itemIndex)
					: validateIdempotencyKeyOverride(override);
			return { method, idempotencyKey };
		},
		NOTHING_SENT,
	);
}

/** Plans every item; a plan that fails is that item's failure, reported when its turn comes. */
function planItems(fn: IExecuteFunctions, methodFor: (itemIndex: number) => IHttpRequestMethods): Array<ItemPlan | Error> {
	const scope = idempotencyScope(fn);
	return fn.getInputData().map((_item, itemIndex) => {
		try {
			return planItem(fn, scope, methodFor, itemIndex);
		} catch (error) {
			return error as Error;
		}
	});
}

function refuseDuplicate(fn: IExecuteFunctions, duplicate: DuplicateKey, nothingSent: boolean): never {
	throw new NodeOperationError(fn.getNode(), duplicateKeyMessage(duplicate), {
		itemIndex: duplicate.item,
		description: duplicateKeyDescription(duplicate, nothingSent),
	});
}

/**
 * Sends one request per item. Every write carries an Idempotency-Key (derived, or the option), so
 * retries are safe whatever the method. Keys are settled for all items first: two items with the same
 * key stop the node before anything is sent (with Continue On Fail, only the later item is refused).
 */
export async function executeRequests(
	fn: IExecuteFunctions,
	methodFor: (itemIndex: number) => IHttpRequestMethods,
): Promise<INodeExecutionData[]> {
	const concurrency = clampWhole(fn.getNodeParameter('options.concurrency', 0, 5), 1, MAX_CONCURRENCY, 5);
	const plans = planItems(fn, methodFor);
	const keyOf = (itemIndex: number) => {
		const plan = plans[itemIndex];
		return plan instanceof Error ? undefined : plan.idempotencyKey;
	};
	const duplicates = findDuplicateKeys(plans.map((_plan, itemIndex) => keyOf(itemIndex)));
	const firstDuplicate = duplicates.values().next().value;
	if (firstDuplicate && !fn.continueOnFail()) refuseDuplicate(fn, firstDuplicate, true);
	const setup = async () => await ApiClient.create(fn, readTransportOptions(fn, concurrency));
	const endpointOf = itemParameter<unknown>(fn, 'endpoint', '');
	const includeMetadataOf = itemParameter(fn, 'options.includeMetadata', false);

	const handle = async (itemIndex: number, client: ApiClient): Promise<IDataObject[]> => {
		const plan = plans[itemIndex];
		if (plan instanceof Error) throw plan;
		const duplicate = duplicates.get(itemIndex);
		if (duplicate) refuseDuplicate(fn, duplicate, false);
		const { method, idempotencyKey } = plan;
		const endpoint = endpointOf(itemIndex);
		const bodyParameter = METHODS_WITH_BODY.has(method) ? fn.getNodeParameter('body', itemIndex, '{}') : undefined;
		const { url, jsonBody } = asNodeError(
			fn,
			itemIndex,
			() => ({
				url: resolveEndpoint(client.base, endpoint),
				jsonBody: bodyParameter === undefined ? undefined : JSON.stringify(parseJsonObjectBody(bodyParameter)),
			}),
			NOTHING_SENT,
		);
		const result = await client.send({ method, url, jsonBody, idempotencyKey }, itemIndex);
		const includeMetadata = includeMetadataOf(itemIndex);
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
	};
	return await runItems(fn, concurrency, setup, handle, { keyOf });
}
