/**
 * The execute both Get Many operations share (Account → Get Many: account/getAll.operation.ts, Request →
 * Get Many: request/getAll.operation.ts): one listing per input item, one output item per record. Their
 * fields: listingFields.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { ApiClient } from '../../transport/apiClient';
import type { ListingSettings } from '../../transport/pagination/fetchListing';
import { fetchListing } from '../../transport/pagination/fetchListing';
import type { PaginationStyle } from '../../transport/pagination/readPage';
import { clampWhole, readTransportOptions } from './parameters';
import { runItems } from './runItems';

/** Far above any real listing; only stops expressions that return nonsense. */
const MAX_PAGE_SIZE = 1_000_000;
const MAX_PAGES = 10_000_000;

function readSettings(fn: IExecuteFunctions, itemIndex: number): ListingSettings {
	const options = fn.getNodeParameter('options', itemIndex, {}) as Partial<Record<keyof ListingSettings | 'paginationStyle', unknown>>;
	return {
		style: (options.paginationStyle as PaginationStyle | undefined) ?? 'auto',
		cursorParameter: String(options.cursorParameter || 'cursor'),
		pageParameter: String(options.pageParameter || 'page'),
		pageSizeParameter: String(options.pageSizeParameter || 'limit'),
		pageSize: clampWhole(options.pageSize, 1, MAX_PAGE_SIZE, 100),
		maxPages: clampWhole(options.maxPages, 1, MAX_PAGES, 1000),
		recordsField: String(options.recordsField ?? '').trim(),
	};
}

function readQuery(fn: IExecuteFunctions, itemIndex: number): IDataObject {
	const collection = fn.getNodeParameter('queryParameters', itemIndex, {}) as {
		parameter?: Array<{ name: string; value: string }>;
	};
	const query: IDataObject = {};
	for (const { name, value } of collection.parameter ?? []) if (name) query[name] = value;
	return query;
}

/** Lists `endpointOf(itemIndex)` for every input item, following pages as the item's options say. */
export async function executeListing(fn: IExecuteFunctions, endpointOf: (itemIndex: number) => unknown): Promise<INodeExecutionData[]> {
	const setup = async () => await ApiClient.create(fn, readTransportOptions(fn));
	return await runItems(fn, 1, setup, async (itemIndex, client) => {
		const returnAll = fn.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const wanted = returnAll ? Number.POSITIVE_INFINITY : clampWhole(fn.getNodeParameter('limit', itemIndex, 50), 1, Number.MAX_SAFE_INTEGER, 50);
		const listing = { endpoint: endpointOf(itemIndex), settings: readSettings(fn, itemIndex), query: readQuery(fn, itemIndex), wanted };
		return await fetchListing(client, listing, itemIndex);
	});
}
