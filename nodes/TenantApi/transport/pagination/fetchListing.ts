import type { IDataObject } from 'n8n-workflow';

import type { ApiClient } from '../apiClient';
import { resolveEndpoint, resolveNextLink } from '../apiUrl';
import { asFailure } from '../errors';
import { PaginationGuard } from './paginationGuard';
import type { NextPage, PaginationStyle, RecordsLocation } from './readPage';
import { readPage } from './readPage';

/** How the API pages a listing: the pagination options of a Get Many operation. */
export interface ListingSettings {
	style: PaginationStyle;
	cursorParameter: string;
	pageParameter: string;
	pageSizeParameter: string;
	pageSize: number;
	maxPages: number;
	/** The field that holds the records (Records Field); empty: detected. */
	recordsField: string;
}

export interface Listing {
	/** Path below the base URL, e.g. /accounts or /transfers?status=pending. */
	endpoint: unknown;
	query: IDataObject;
	settings: ListingSettings;
	/** How many items to return at most (Infinity: all). */
	wanted: number;
}

/**
 * The URL without the query parameters the node sends itself (`qs` wins over the same name in an
 * Endpoint such as `/transfers?limit=10`, instead of both going out). Only the query is touched;
 * the path stays as resolved, byte for byte.
 */
export function withoutQueryParameters(url: string, names: Iterable<string>): string {
	const queryAt = url.indexOf('?');
	if (queryAt === -1) return url;
	const query = new URLSearchParams(url.slice(queryAt + 1));
	const own = [...names].filter((name) => query.has(name));
	if (own.length === 0) return url;
	for (const name of own) query.delete(name);
	const rest = query.toString();
	return `${url.slice(0, queryAt)}${rest ? `?${rest}` : ''}`;
}

/** The collection a listing reads (`transfers` of `/x/transfers?y=1`): maybe its records' field. */
function collectionOf(endpoint: unknown): string | undefined {
	if (typeof endpoint !== 'string') return undefined;
	const last = endpoint.split(/[?#]/)[0].split('/').filter(Boolean).pop();
	if (!last) return undefined;
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}

/**
 * GETs a listing page by page until it ends or `wanted` items are in, following cursors, next links
 * (only below the base URL) or page numbers.
 */
export async function fetchListing(
	client: ApiClient,
	listing: Listing,
	itemIndex: number,
): Promise<IDataObject[]> {
	const { settings, query, wanted } = listing;
	const guarded = <T>(step: () => T) => asFailure(itemIndex, step);
	const guard = new PaginationGuard(settings.maxPages);
	const pages: IDataObject[][] = [];
	let collected = 0;
	// One size for every page: page-numbered APIs compute offsets from it, so it must not change.
	const size = Math.min(settings.pageSize, wanted);
	const firstUrl = guarded(() => resolveEndpoint(client.base, listing.endpoint));
	const where: RecordsLocation = {
		field: settings.recordsField || undefined,
		collection: collectionOf(listing.endpoint),
	};
	let url: string;
	let qs: IDataObject | undefined;
	let next: NextPage | undefined;
	let page = 1;
	do {
		const nextPage = next;
		if (nextPage?.kind === 'url') {
			url = guarded(() => resolveNextLink(client.base, nextPage.url));
			qs = undefined;
		} else {
			qs = { ...query, [settings.pageSizeParameter]: size };
			if (nextPage?.kind === 'cursor') qs[settings.cursorParameter] = nextPage.cursor;
			if (nextPage?.kind === 'page') qs[settings.pageParameter] = nextPage.page;
			url = withoutQueryParameters(firstUrl, Object.keys(qs));
		}
		const { body } = await client.send({ method: 'GET', url, qs }, itemIndex);
		const reading = guarded(() => readPage(body, settings.style, page, nextPage?.kind, where));
		guarded(() => guard.countPage(reading.items));
		const taken = reading.items.slice(0, wanted - collected);
		pages.push(taken);
		collected += taken.length;
		next = reading.next;
		if (next?.kind === 'page') page = next.page;
		const following = next;
		if (following && collected < wanted) guarded(() => guard.follow(following));
	} while (next && collected < wanted);
	return pages.flat();
}
