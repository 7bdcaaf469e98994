import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { ApiClient } from '../../transport/apiClient';
import { assertWithinBase, resolveEndpoint } from '../../transport/apiUrl';
import type { NextPage, PaginationStyle } from '../../transport/pagination';
import { PaginationGuard, readPage } from '../../transport/pagination';
import { asNodeError } from '../common/asNodeError';
import { runItems } from '../common/runItems';
import { readTransportOptions, transportOptionFields } from '../common/transportOptions';

const showFor = { resource: ['account'], operation: ['getAll'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { show: showFor },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { ...showFor, returnAll: [false] } },
	},
	{
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Parameter',
		default: {},
		description: 'Filters or other query parameters the API accepts (the spec does not list them)',
		displayOptions: { show: showFor },
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showFor },
		options: [
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
					{ name: 'Auto-Detect', value: 'auto', description: 'Next cursor, next URL or page numbers, whichever the answer has' },
					{ name: 'Cursor', value: 'cursor', description: 'The answer has next_cursor (or nextCursor, next_page_token)' },
					{ name: 'Next URL', value: 'nextUrl', description: 'The answer has a next link on the same API' },
					{ name: 'None', value: 'none', description: 'Only fetch the first page' },
					{ name: 'Page Numbers', value: 'page', description: 'Ask for page 1, 2, 3… until the last one' },
				],
				default: 'auto',
			},
			...transportOptionFields,
		],
	},
];

interface ListingSettings {
	style: PaginationStyle;
	cursorParameter: string;
	pageParameter: string;
	pageSizeParameter: string;
	pageSize: number;
	maxPages: number;
}

function readSettings(fn: IExecuteFunctions, itemIndex: number): ListingSettings {
	const options = fn.getNodeParameter('options', itemIndex, {}) as Partial<ListingSettings & { paginationStyle: PaginationStyle }>;
	return {
		style: options.paginationStyle ?? 'auto',
		cursorParameter: options.cursorParameter || 'cursor',
		pageParameter: options.pageParameter || 'page',
		pageSizeParameter: options.pageSizeParameter || 'limit',
		pageSize: Math.max(1, options.pageSize ?? 100),
		maxPages: Math.max(1, options.maxPages ?? 1000),
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

async function listAccounts(
	fn: IExecuteFunctions,
	client: ApiClient,
	settings: ListingSettings,
	query: IDataObject,
	wanted: number,
	itemIndex: number,
): Promise<IDataObject[]> {
	const guarded = <T>(step: () => T) => asNodeError(fn, itemIndex, step);
	const guard = new PaginationGuard(settings.maxPages);
	const collected: IDataObject[] = [];
	let url = guarded(() => resolveEndpoint(client.base, '/accounts'));
	let qs: IDataObject | undefined;
	let next: NextPage | undefined;
	let page = 1;
	do {
		const size = Math.min(settings.pageSize, wanted - collected.length);
		const nextPage = next;
		if (nextPage?.kind === 'url') {
			url = guarded(() => assertWithinBase(client.base, nextPage.url).toString());
			qs = undefined;
		} else {
			qs = { ...query, [settings.pageSizeParameter]: size };
			if (nextPage?.kind === 'cursor') qs[settings.cursorParameter] = nextPage.cursor;
			if (nextPage?.kind === 'page') qs[settings.pageParameter] = nextPage.page;
		}
		const { body } = await client.send({ method: 'GET', url, qs }, itemIndex);
		const reading = guarded(() => readPage(body, settings.style, page, size));
		guarded(() => guard.countPage(reading.items));
		collected.push(...reading.items.slice(0, wanted - collected.length));
		next = reading.next;
		if (next?.kind === 'page') page = next.page;
		const following = next;
		if (following && collected.length < wanted) guarded(() => guard.follow(following));
	} while (next && collected.length < wanted);
	return collected;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const setup = async () => await ApiClient.create(this, readTransportOptions(this));
	return await runItems(this, 1, setup, async (itemIndex, client) => {
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const wanted = returnAll ? Number.POSITIVE_INFINITY : (this.getNodeParameter('limit', itemIndex, 50) as number);
		return await listAccounts(this, client, readSettings(this, itemIndex), readQuery(this, itemIndex), wanted, itemIndex);
	});
}
