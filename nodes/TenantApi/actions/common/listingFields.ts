import type { INodeProperties } from 'n8n-workflow';

import { transportOptionFields } from './parameters';

/** Return All, Limit, Query Parameters and Options of a Get Many operation (Account and Request). */
export function listingFields(show: { resource: string[]; operation: string[] }): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
		{
			displayName: 'Query Parameters',
			name: 'queryParameters',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Parameter',
			default: {},
			description: 'Filters or other query parameters the API accepts (the spec does not list them)',
			displayOptions: { show },
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
			displayOptions: { show },
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
				{
					displayName: 'Records Field',
					name: 'recordsField',
					type: 'string',
					default: '',
					placeholder: 'e.g. data or result.entries',
					description:
						'Field of each answer that holds the records (dot notation for nested fields). Empty: a top-level array, or the first array under data, items, the collection name (the last segment of the endpoint) or results.',
				},
				...transportOptionFields,
			],
		},
	];
}
