/**
 * Get Many, of Account (GET /accounts) and of Request (any collection below the Base URL): one
 * listing per input item, every page followed as the options say, one output item per record.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ListingSettings } from '../transport/pagination/fetchListing';
import { fetchListing } from '../transport/pagination/fetchListing';
import type { PaginationStyle } from '../transport/pagination/readPage';
import { clampWhole, endpointField, optionsField } from './common/parameters';
import { runItems } from './common/runItems';

/** Return All, Limit, Query Parameters and Options of Get Many (Account and Request). */
export const listingFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Parameter',
		default: {},
		description: 'Filters or other query parameters the API accepts (the spec does not list them)',
		options: [
			{
				name: 'parameter',
				displayName: 'Parameter',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	optionsField([
		{
			displayName: 'Cursor Parameter',
			name: 'cursorParameter',
			type: 'string',
			default: 'cursor',
			description: 'Query parameter that carries the next cursor',
		},
		{
			displayName: 'Max Pages',
			name: 'maxPages',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1000,
			description: 'Safety stop for listings that never end',
		},
		{
			displayName: 'Page Parameter',
			name: 'pageParameter',
			type: 'string',
			default: 'page',
			description: 'Query parameter that carries the page number (page-numbered listings)',
		},
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description: 'How many records to ask for per request',
		},
		{
			displayName: 'Page Size Parameter',
			name: 'pageSizeParameter',
			type: 'string',
			default: 'limit',
			description: 'Query parameter that carries the page size',
		},
		{
			displayName: 'Pagination Style',
			name: 'paginationStyle',
			type: 'options',
			options: [
				{
					name: 'Auto-Detect',
					value: 'auto',
					description: 'Next cursor, next URL or page numbers, whichever the answer has',
				},
				{
					name: 'Cursor',
					value: 'cursor',
					description: 'The answer has next_cursor (or nextCursor, next_page_token)',
				},
				{
					name: 'Next URL',
					value: 'nextUrl',
					description: 'The answer has a next link on the same API',
				},
				{ name: 'None', value: 'none', description: 'Only fetch the first page' },
				{
					name: 'Page Numbers',
					value: 'page',
					description: 'Ask for page 1, 2, 3… until the last one',
				},
			],
			default: 'auto',
		},
		{
			displayName: 'Records Field',
			name: 'recordsField',
			type: 'string',
			default: '',
			placeholder: 'e.g. data or result.entries',
			description:
				'Field of each answer that holds the records (dot notation for nested fields). Empty: a top-level array, or the first array under data, items, the collection name (the last segment of the endpoint) or results.',
		},
	]),
];

/** Request → Get Many: the Endpoint of the collection, then the listing's fields. */
export const collectionFields: INodeProperties[] = [
	endpointField(
		'Path of the collection below the Base URL of the credential, e.g. /transfers or /accounts/acc_1/transfers. Absolute URLs and paths that climb above the Base URL are refused.',
	),
	...listingFields,
];

/** Far above any real listing; only stops expressions that return nonsense. */
const MAX_PAGE_SIZE = 1_000_000;
const MAX_PAGES = 10_000_000;

function readSettings(fn: IExecuteFunctions, itemIndex: number): ListingSettings {
	const options = fn.getNodeParameter('options', itemIndex, {}) as Partial<
		Record<keyof ListingSettings | 'paginationStyle', unknown>
	>;
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

/** Lists the collection at `endpoint` (or the Endpoint parameter) for every input item. */
export async function execute(
	fn: IExecuteFunctions,
	endpoint?: string,
): Promise<INodeExecutionData[]> {
	const endpointOf = (itemIndex: number): unknown =>
		endpoint ?? fn.getNodeParameter('endpoint', itemIndex);
	return await runItems(fn, 1, async (itemIndex, client) => {
		const returnAll = fn.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const wanted = returnAll
			? Number.POSITIVE_INFINITY
			: clampWhole(fn.getNodeParameter('limit', itemIndex, 50), 1, Number.MAX_SAFE_INTEGER, 50);
		const listing = {
			endpoint: endpointOf(itemIndex),
			settings: readSettings(fn, itemIndex),
			query: readQuery(fn, itemIndex),
			wanted,
		};
		return await fetchListing(client, listing, itemIndex);
	});
}
