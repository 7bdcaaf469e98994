import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../helpers/asNodeError';
import type { ApiClient } from '../apiClient';
import { assertWithinBase, resolveEndpoint } from '../apiUrl';
import { PaginationGuard } from './paginationGuard';
import type { NextPage, PaginationStyle } from './readPage';
import { readPage } from './readPage';

/** How the API pages a listing: the Pagination options of an operation. */
export interface ListingSettings {
	style: PaginationStyle;
	cursorParameter: string;
	pageParameter: string;
	pageSizeParameter: string;
	pageSize: number;
	maxPages: number;
}

export interface Listing {
	/** Path below the base URL, e.g. /accounts. */
	endpoint: string;
	query: IDataObject;
	settings: ListingSettings;
	/** How many items to return at most (Infinity: all). */
	wanted: number;
}

/**
 * GETs a listing page by page until it ends or `wanted` items are in, following cursors, next links
 * (only below the base URL) or page numbers.
 */
export async function fetchListing(fn: IExecuteFunctions, client: ApiClient, listing: Listing, itemIndex: number): Promise<IDataObject[]> {
	const { settings, query, wanted } = listing;
	const guarded = <T>(step: () => T) => asNodeError(fn, itemIndex, step);
	const guard = new PaginationGuard(settings.maxPages);
	const collected: IDataObject[] = [];
	// One size for every page: page-numbered APIs compute offsets from it, so it must not change.
	const size = Math.min(settings.pageSize, wanted);
	let url = guarded(() => resolveEndpoint(client.base, listing.endpoint));
	let qs: IDataObject | undefined;
	let next: NextPage | undefined;
	let page = 1;
	do {
		const nextPage = next;
		if (nextPage?.kind === 'url') {
			url = guarded(() => assertWithinBase(client.base, nextPage.url, "The API's next-page link").toString());
			qs = undefined;
		} else {
			qs = { ...query, [settings.pageSizeParameter]: size };
			if (nextPage?.kind === 'cursor') qs[settings.cursorParameter] = nextPage.cursor;
			if (nextPage?.kind === 'page') qs[settings.pageParameter] = nextPage.page;
		}
		const { body } = await client.send({ method: 'GET', url, qs }, itemIndex);
		const reading = guarded(() => readPage(body, settings.style, page, nextPage?.kind));
		guarded(() => guard.countPage(reading.items));
		// One by one: spreading a page of 100,000+ items into push() overflows the call stack.
		for (const item of reading.items) {
			if (collected.length >= wanted) break;
			collected.push(item);
		}
		next = reading.next;
		if (next?.kind === 'page') page = next.page;
		const following = next;
		if (following && collected.length < wanted) guarded(() => guard.follow(following));
	} while (next && collected.length < wanted);
	return collected;
}
