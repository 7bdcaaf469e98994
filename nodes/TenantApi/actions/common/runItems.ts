import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { NodeErrorFields } from '../../helpers/errorFields';
import { appendToDescription, appliedOf } from '../../helpers/errorFields';
import { mapWithConcurrency } from './mapWithConcurrency';
import type { ItemProgress } from './progressReport';
import { describeProgress } from './progressReport';

type ItemResult = { ok: true; items: INodeExecutionData[] } | { ok: false; error: Error } | { ok: 'skipped' };

/** Error details shown on an error item; never a secret, never request headers. */
function errorItemJson(error: Error): IDataObject {
	const withExtras = error as NodeErrorFields;
	return {
		error: error.message,
		...(withExtras.description ? { description: withExtras.description } : {}),
		...(withExtras.httpCode ? { statusCode: Number(withExtras.httpCode) } : {}),
		...(withExtras.errorResponse?.idempotencyKey ? { idempotencyKey: withExtras.errorResponse.idempotencyKey } : {}),
	};
}

/** For operations that write: the Idempotency-Key each item is sent with. */
export interface WriteTracking {
	keyOf(itemIndex: number): string | undefined;
}

function progressOf(results: ItemResult[], tracking: WriteTracking): ItemProgress[] {
	return results.map((result, item): ItemProgress => {
		if (result.ok === 'skipped') return { item, state: 'notSent' };
		const key = tracking.keyOf(item);
		if (result.ok) return { item, state: 'applied', key };
		// Errors from the API client say whether the request took effect; any other error came before sending.
		const applied = appliedOf(result.error) ?? 'no';
		return { item, state: 'failed', key, applied };
	});
}

/** Adds to the error what had happened to every item, so the user knows what a new run would repeat. */
function withProgress(error: Error, failedItem: number, results: ItemResult[], tracking: WriteTracking): Error {
	const report = describeProgress(progressOf(results, tracking), failedItem);
	if (!report) return error;
	appendToDescription(error, report.text);
	const target = error as NodeErrorFields;
	target.context = { ...(target.context ?? {}), ...report.context };
	return error;
}

/** What `setup` gives every item; `dispose` runs once all items have settled (e.g. to stop a timer). */
export interface SharedResources {
	dispose?(): void;
}

/**
 * Runs `handle` for every input item, at most `concurrency` at once, and returns the outputs in input
 * order. With "Continue On Fail" a failed item becomes an error item; otherwise no new item starts
 * after a failure, and the failure of the lowest item index is thrown once started items have settled
 * (for writes, with what had been applied by then).
 *
 * `setup` (e.g. reading the credential) runs once, on the first item. Its failure is every item's
 * failure, so Continue On Fail gives error items rather than passing the input through as if sent.
 */
export async function runItems<Shared extends SharedResources>(
	fn: IExecuteFunctions,
	concurrency: number,
	setup: () => Promise<Shared>,
	handle: (itemIndex: number, shared: Shared) => Promise<IDataObject[]>,
	writes?: WriteTracking,
): Promise<INodeExecutionData[]> {
	const count = fn.getInputData().length;
	let shared: Promise<Shared> | undefined;
	let failed = false;
	const results = await mapWithConcurrency<ItemResult>(count, concurrency, async (itemIndex) => {
		if (failed) return { ok: 'skipped' };
		try {
			shared ??= setup();
			const outputs = await handle(itemIndex, await shared);
			return { ok: true, items: outputs.map((json) => ({ json, pairedItem: { item: itemIndex } })) };
		} catch (error) {
			if (fn.continueOnFail()) {
				return { ok: true, items: [{ json: errorItemJson(error as Error), pairedItem: { item: itemIndex } }] };
			}
			failed = true;
			return { ok: false, error: error as Error };
		}
	});
	(await shared?.catch(() => undefined))?.dispose?.();
	const returnData: INodeExecutionData[] = [];
	for (const [itemIndex, result] of results.entries()) {
		if (result.ok === 'skipped') continue;
		if (!result.ok) {
			const error =
				result.error instanceof NodeOperationError || 'node' in result.error
					? result.error
					: new NodeOperationError(fn.getNode(), result.error, { itemIndex });
			throw writes ? withProgress(error, itemIndex, results, writes) : error;
		}
		// One by one: spreading a page of 100,000+ items into push() overflows the call stack.
		for (const item of result.items) returnData.push(item);
	}
	return returnData;
}
