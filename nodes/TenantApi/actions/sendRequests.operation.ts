/**
 * POST to Endpoint and Send Request (Request resource): one request per input item, every write
 * with an Idempotency-Key (derived, or the option), so retries are safe whatever the method.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ApiClient } from '../transport/apiClient';
import { resolveEndpoint } from '../transport/apiUrl';
import { asFailure, nodeError, TenantApiFailure } from '../transport/errors';
import {
	cachedParameterReader,
	clampWhole,
	endpointField,
	inProgressOptionFields,
	optionsField,
} from './common/parameters';
import { runItems } from './common/runItems';
import type { DuplicateKey } from './idempotency/idempotencyKeys';
import {
	duplicateKeyDescription,
	duplicateKeyMessage,
	findDuplicateKeys,
} from './idempotency/idempotencyKeys';
import { toOutputJson } from './common/jsonBody';
import { explainKeyConflict } from './idempotency/keyScope';
import { NOTHING_SENT, planRequests } from './idempotency/planRequests';

/** Options → Concurrency's maximum: items in flight at once. */
const MAX_CONCURRENCY = 64;

/** Endpoint, Body and Options of an operation that sends one request per item. */
function requestFields(bodyShow: { method?: string[] } = {}): INodeProperties[] {
	return [
		endpointField(),
		{
			displayName: 'Body',
			name: 'body',
			type: 'json',
			default: '{}',
			description: 'JSON object sent as the request body',
			displayOptions: { show: bodyShow },
		},
		optionsField([
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
				description:
					'How many items are sent at the same time. Output order always follows input order.',
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
		]),
	];
}

/** What the Method parameter offers: POST has its own operation. */
const OFFERED_METHODS: readonly IHttpRequestMethods[] = ['DELETE', 'GET', 'PATCH', 'PUT'];

/** What it accepts: an expression may also return POST (sent with the Body, as POST is). */
const ACCEPTED_METHODS: readonly IHttpRequestMethods[] = [
	...OFFERED_METHODS,
	'POST' as const,
].sort();

/** Request → POST to Endpoint. */
export const postFields: INodeProperties[] = requestFields();

/** Request → Send Request: the Method, and a Body for PUT and PATCH. */
export const sendFields: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: OFFERED_METHODS.map((method) => ({ name: method, value: method })),
		default: 'GET',
		description:
			'HTTP method, for endpoints the spec does not show. Writes carry an Idempotency-Key too.',
	},
	...requestFields({ method: ['PUT', 'PATCH'] }),
];

/** The Method parameter in ACCEPTED_METHODS, in any case (`"post"`); anything else is refused. */
function acceptedMethod(value: unknown): IHttpRequestMethods {
	const method = String(value ?? '')
		.trim()
		.toUpperCase() as IHttpRequestMethods;
	if (!ACCEPTED_METHODS.includes(method)) {
		throw new Error(
			`The Method must be one of ${ACCEPTED_METHODS.join(', ')}, not ${JSON.stringify(value) ?? String(value)}`,
		);
	}
	return method;
}

function duplicateFailure(duplicate: DuplicateKey, nothingSent: boolean): TenantApiFailure {
	return new TenantApiFailure(duplicateKeyMessage(duplicate), {
		itemIndex: duplicate.item,
		description: duplicateKeyDescription(duplicate, nothingSent),
	});
}

/**
 * Sends one request per item, with `method` or the Method parameter. Keys are settled for all items
 * first: two items with the same key stop the node before anything is sent (with Continue On Fail,
 * only the later item is refused).
 */
export async function execute(
	fn: IExecuteFunctions,
	method?: IHttpRequestMethods,
): Promise<INodeExecutionData[]> {
	const methodFor = (itemIndex: number): IHttpRequestMethods =>
		method ?? acceptedMethod(fn.getNodeParameter('method', itemIndex));
	const concurrency = clampWhole(
		fn.getNodeParameter('options.concurrency', 0, 5),
		1,
		MAX_CONCURRENCY,
		5,
	);
	const { plans, keys } = planRequests(fn, methodFor);
	const keyOf = (itemIndex: number) => {
		const plan = plans[itemIndex];
		return plan instanceof Error ? undefined : plan.idempotencyKey;
	};
	const duplicates = findDuplicateKeys(plans.map((_plan, itemIndex) => keyOf(itemIndex)));
	const firstDuplicate = duplicates.values().next().value;
	if (firstDuplicate && !fn.continueOnFail())
		throw nodeError(fn, duplicateFailure(firstDuplicate, true));
	const includeMetadataOf = cachedParameterReader(fn, 'options.includeMetadata', false);

	const handle = async (itemIndex: number, client: ApiClient): Promise<IDataObject[]> => {
		const plan = plans[itemIndex];
		if (plan instanceof Error) throw plan;
		const duplicate = duplicates.get(itemIndex);
		if (duplicate) throw duplicateFailure(duplicate, false);
		const { method, idempotencyKey, jsonBody } = plan;
		const url = asFailure(
			itemIndex,
			() => resolveEndpoint(client.base, plan.endpoint),
			NOTHING_SENT,
		);
		const result = await client
			.send({ method, url, jsonBody, idempotencyKey }, itemIndex)
			.catch((error: Error) => {
				throw plan.keySource === 'automatic' && keys
					? explainKeyConflict(fn, error, itemIndex, keys)
					: error;
			});
		const body = toOutputJson(result.body);
		if (!includeMetadataOf(itemIndex)) return [body];
		const { statusCode, attempts, replayed } = result;
		return [{ statusCode, idempotencyKey, attempts, replayed, body }];
	};
	return await runItems(fn, concurrency, handle, keyOf);
}
