/**
 * What both request operations share (POST to Endpoint: post.operation.ts, Send Request:
 * send.operation.ts): their Endpoint, Body and Options fields, and their execute, one request per item.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ApiClient } from '../../transport/apiClient';
import { resolveEndpoint } from '../../transport/apiUrl';
import { asNodeError } from '../../helpers/asNodeError';
import { itemParameter } from '../common/itemParameter';
import { clampWhole } from '../common/numberOption';
import { runItems } from '../common/runItems';
import { inProgressOptionFields, readTransportOptions, transportOptionFields } from '../common/transportOptions';
import type { DuplicateKey } from './keys/duplicateKeys';
import { duplicateKeyDescription, duplicateKeyMessage, findDuplicateKeys } from './keys/duplicateKeys';
import { toOutputJson } from './jsonBody';
import { explainKeyConflict } from './keys/keyConflict';
import { NOTHING_SENT, planRequests } from './planRequests';

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

const MAX_CONCURRENCY = 64;

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
	const { plans, keyScope } = planRequests(fn, methodFor);
	const keyOf = (itemIndex: number) => {
		const plan = plans[itemIndex];
		return plan instanceof Error ? undefined : plan.idempotencyKey;
	};
	const duplicates = findDuplicateKeys(plans.map((_plan, itemIndex) => keyOf(itemIndex)));
	const firstDuplicate = duplicates.values().next().value;
	if (firstDuplicate && !fn.continueOnFail()) refuseDuplicate(fn, firstDuplicate, true);
	const setup = async () => await ApiClient.create(fn, readTransportOptions(fn, concurrency));
	const includeMetadataOf = itemParameter(fn, 'options.includeMetadata', false);

	const handle = async (itemIndex: number, client: ApiClient): Promise<IDataObject[]> => {
		const plan = plans[itemIndex];
		if (plan instanceof Error) throw plan;
		const duplicate = duplicates.get(itemIndex);
		if (duplicate) refuseDuplicate(fn, duplicate, false);
		const { method, idempotencyKey, jsonBody } = plan;
		const url = asNodeError(fn, itemIndex, () => resolveEndpoint(client.base, plan.endpoint), NOTHING_SENT);
		const result = await client.send({ method, url, jsonBody, idempotencyKey }, itemIndex).catch((error: Error) => {
			throw plan.keySource === 'automatic' && keyScope ? explainKeyConflict(fn, error, itemIndex, keyScope.lineage) : error;
		});
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
