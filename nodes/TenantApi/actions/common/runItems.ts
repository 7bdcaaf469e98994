import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeError } from 'n8n-workflow';

import { ApiClient } from '../../transport/apiClient';
import { addToDescription, nodeError, TenantApiFailure } from '../../transport/errors';
import { readTransportOptions } from './parameters';
import type { ItemProgress } from './progressReport';
import { describeProgress } from './progressReport';

type ItemResult =
	| { ok: true; items: INodeExecutionData[] }
	| { ok: false; error: Error }
	| { ok: 'skipped' };

/** Error details shown on an error item; never a secret, never request headers. */
function errorItemJson(fn: IExecuteFunctions, error: Error): IDataObject {
	if (error instanceof TenantApiFailure) {
		// The message and description as n8n shows them (it rewrites messages that name some error
		// codes).
		const shown = nodeError(fn, error);
		return {
			error: shown.message,
			...(shown.description ? { description: shown.description } : {}),
			...(error.httpCode ? { statusCode: error.httpCode } : {}),
			...(error.idempotencyKey ? { idempotencyKey: error.idempotencyKey } : {}),
		};
	}
	return {
		error: error.message,
		...('description' in error && typeof error.description === 'string' && error.description
			? { description: error.description }
			: {}),
		...('httpCode' in error && error.httpCode ? { statusCode: Number(error.httpCode) } : {}),
	};
}

/** For operations that write: the Idempotency-Key each item is sent with. */
type KeyOf = (itemIndex: number) => string | undefined;

function progressOf(results: ItemResult[], keyOf: KeyOf): ItemProgress[] {
	return results.map((result, item): ItemProgress => {
		if (result.ok === 'skipped') return { item, state: 'notSent' };
		const key = keyOf(item);
		if (result.ok) return { item, state: 'applied', key };
		// Failures of a request say whether it took effect; any other error came before sending.
		const applied = result.error instanceof TenantApiFailure ? result.error.applied : 'no';
		return { item, state: 'failed', key, applied };
	});
}

/** Adds to the error what had happened to every item: what a new run would repeat. */
function withProgress(
	error: NodeError,
	failedItem: number,
	results: ItemResult[],
	keyOf: KeyOf,
): NodeError {
	const report = describeProgress(progressOf(results, keyOf), failedItem);
	if (!report) return error;
	addToDescription(error, report.text);
	error.context = { ...(error.context ?? {}), ...report.context };
	return error;
}

/** Runs `task(0..count-1)` with at most `limit` in flight; results keep index order. */
export async function mapWithConcurrency<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	let nextIndex = 0;
	const worker = async () => {
		while (nextIndex < count) {
			const index = nextIndex++;
			results[index] = await task(index);
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker);
	await Promise.all(workers);
	return results;
}

/**
 * Runs `handle` for every input item, at most `concurrency` at once, and returns the outputs in
 * input order. With "Continue On Fail" a failed item becomes an error item; otherwise no new item
 * starts after a failure, and the failure of the lowest item index is thrown once started items
 * have settled (for writes, with what had been applied by then: `keyOf` gives each item's key).
 *
 * The API client (the credential and the Options, read and checked) is made once, on the first
 * item. Its failure is every item's failure, so Continue On Fail gives error items rather than
 * passing the input through as if sent.
 */
export async function runItems(
	fn: IExecuteFunctions,
	concurrency: number,
	handle: (itemIndex: number, client: ApiClient) => Promise<IDataObject[]>,
	keyOf?: KeyOf,
): Promise<INodeExecutionData[]> {
	const count = fn.getInputData().length;
	const connect = async () => await ApiClient.create(fn, readTransportOptions(fn));
	let client: Promise<ApiClient> | undefined;
	let failed = false;
	const results = await mapWithConcurrency<ItemResult>(count, concurrency, async (itemIndex) => {
		if (failed) return { ok: 'skipped' };
		try {
			client ??= connect();
			const outputs = await handle(itemIndex, await client);
			return {
				ok: true,
				items: outputs.map((json) => ({ json, pairedItem: { item: itemIndex } })),
			};
		} catch (error) {
			if (fn.continueOnFail()) {
				return {
					ok: true,
					items: [{ json: errorItemJson(fn, error as Error), pairedItem: { item: itemIndex } }],
				};
			}
			failed = true;
			return { ok: false, error: error as Error };
		}
	});
	(await client?.catch(() => undefined))?.dispose();
	return results.flatMap((result, itemIndex) => {
		if (result.ok === 'skipped') return [];
		if (result.ok) return result.items;
		const error = nodeError(fn, result.error, itemIndex);
		throw keyOf ? withProgress(error, itemIndex, results, keyOf) : error;
	});
}
