/**
 * The execute both request operations share (POST to Endpoint: post.operation.ts, Send Request:
 * send.operation.ts): one request per item. Their fields: requestFields.ts.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, INodeExecutionData } from 'n8n-workflow';

import { ApiClient } from '../../transport/apiClient';
import { resolveEndpoint } from '../../transport/apiUrl';
import { asFailure, nodeError, TenantApiFailure } from '../../transport/errors';
import { cachedParameterReader, clampWhole, readTransportOptions } from '../common/parameters';
import { runItems } from '../common/runItems';
import type { DuplicateKey } from './idempotencyKeys';
import { duplicateKeyDescription, duplicateKeyMessage, findDuplicateKeys } from './idempotencyKeys';
import { toOutputJson } from './jsonBody';
import { explainKeyConflict } from './keyPlaces';
import { NOTHING_SENT, planRequests } from './planRequests';
import { MAX_CONCURRENCY } from './requestFields';

function duplicateFailure(duplicate: DuplicateKey, nothingSent: boolean): TenantApiFailure {
	return new TenantApiFailure(duplicateKeyMessage(duplicate), {
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
	const { plans, keys } = planRequests(fn, methodFor);
	const keyOf = (itemIndex: number) => {
		const plan = plans[itemIndex];
		return plan instanceof Error ? undefined : plan.idempotencyKey;
	};
	const duplicates = findDuplicateKeys(plans.map((_plan, itemIndex) => keyOf(itemIndex)));
	const firstDuplicate = duplicates.values().next().value;
	if (firstDuplicate && !fn.continueOnFail()) throw nodeError(fn, duplicateFailure(firstDuplicate, true));
	// An item whose event cannot be told has no safe key: stop before anything is sent (Continue On Fail: that item fails).
	const untraced = keys?.places.find((place) => place instanceof Error);
	if (untraced && !fn.continueOnFail()) throw nodeError(fn, untraced);
	const setup = async () => await ApiClient.create(fn, readTransportOptions(fn));
	const includeMetadataOf = cachedParameterReader(fn, 'options.includeMetadata', false);

	const handle = async (itemIndex: number, client: ApiClient): Promise<IDataObject[]> => {
		const plan = plans[itemIndex];
		if (plan instanceof Error) throw plan;
		const duplicate = duplicates.get(itemIndex);
		if (duplicate) throw duplicateFailure(duplicate, false);
		const { method, idempotencyKey, jsonBody } = plan;
		const url = asFailure(itemIndex, () => resolveEndpoint(client.base, plan.endpoint), NOTHING_SENT);
		const result = await client.send({ method, url, jsonBody, idempotencyKey }, itemIndex).catch((error: Error) => {
			throw plan.keySource === 'automatic' && keys ? explainKeyConflict(fn, error, itemIndex, keys) : error;
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
