import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapWithConcurrency } from '../../transport/concurrency';

type ItemResult = { ok: true; items: INodeExecutionData[] } | { ok: false; error: Error } | { ok: 'skipped' };

/** Error details shown on an error item; never a secret, never request headers. */
function errorItemJson(error: Error): IDataObject {
	const withExtras = error as Error & { description?: string; httpCode?: string; errorResponse?: IDataObject };
	return {
		error: error.message,
		...(withExtras.description ? { description: withExtras.description } : {}),
		...(withExtras.httpCode ? { statusCode: Number(withExtras.httpCode) } : {}),
		...(withExtras.errorResponse?.idempotencyKey ? { idempotencyKey: withExtras.errorResponse.idempotencyKey } : {}),
	};
}

/**
 * Runs `handle` for every input item, at most `concurrency` at once, and returns the outputs in input
 * order. With "Continue On Fail" a failed item becomes an error item; otherwise no new item starts
 * after a failure, and the failure of the lowest item index is thrown once started items have settled.
 *
 * `setup` (e.g. reading the credential) runs once, on the first item. Its failure is every item's
 * failure, so Continue On Fail gives error items rather than passing the input through as if sent.
 */
export async function runItems<Shared>(
	fn: IExecuteFunctions,
	concurrency: number,
	setup: () => Promise<Shared>,
	handle: (itemIndex: number, shared: Shared) => Promise<IDataObject[]>,
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
	const returnData: INodeExecutionData[] = [];
	for (const [itemIndex, result] of results.entries()) {
		if (result.ok === 'skipped') continue;
		if (!result.ok) {
			if (result.error instanceof NodeOperationError || 'node' in result.error) throw result.error;
			throw new NodeOperationError(fn.getNode(), result.error, { itemIndex });
		}
		returnData.push(...result.items);
	}
	return returnData;
}
