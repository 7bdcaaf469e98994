/**
 * Reads one page of a listing and says where the next one is. The spec does not show the listing's
 * shape, so the common ones are recognised (see README "Pagination"); the style can be forced.
 */
import type { IDataObject } from 'n8n-workflow';

export type PaginationStyle = 'auto' | 'cursor' | 'nextUrl' | 'page' | 'none';

export type NextPage =
	| { kind: 'cursor'; cursor: string }
	| { kind: 'url'; url: string }
	| { kind: 'page'; page: number };

export interface PageReading {
	items: IDataObject[];
	next?: NextPage;
}

export class PaginationError extends Error {}

const LIST_KEYS = ['data', 'items', 'accounts', 'results'];
const CURSOR_PATHS = [['next_cursor'], ['nextCursor'], ['next_page_token'], ['nextPageToken'], ['meta', 'next_cursor'], ['pagination', 'next_cursor'], ['cursor', 'next']];
const NEXT_URL_PATHS = [['next'], ['next_url'], ['nextUrl'], ['links', 'next'], ['_links', 'next', 'href'], ['paging', 'next']];
const TOTAL_PAGES_KEYS = ['total_pages', 'totalPages', 'last_page', 'pages'];

function at(body: IDataObject, path: string[]): unknown {
	let current: unknown = body;
	for (const key of path) {
		if (!current || typeof current !== 'object') return undefined;
		current = (current as IDataObject)[key];
	}
	return current;
}

function firstString(body: IDataObject, paths: string[][]): string | undefined {
	for (const path of paths) {
		const value = at(body, path);
		if (typeof value === 'string' && value !== '') return value;
		if (typeof value === 'number') return String(value);
	}
	return undefined;
}

function listOf(body: unknown): IDataObject[] {
	const list = Array.isArray(body)
		? body
		: body && typeof body === 'object'
			? LIST_KEYS.map((key) => (body as IDataObject)[key]).find(Array.isArray)
			: undefined;
	if (!list) {
		throw new PaginationError(
			`Expected a JSON list of accounts (a top-level array, or an array under ${LIST_KEYS.join('/')}) but got ${
				body === undefined ? 'an empty body' : typeof body === 'object' ? `an object with keys ${Object.keys(body as object).slice(0, 8).join(', ') || '(none)'}` : typeof body
			}`,
		);
	}
	return list.map((entry) => (entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as IDataObject) : { value: entry as IDataObject[keyof IDataObject] }));
}

function hasPageTotals(body: IDataObject): boolean {
	return TOTAL_PAGES_KEYS.some((key) => typeof body[key] === 'number');
}

function pageNumbers(body: IDataObject, currentPage: number): NextPage | undefined {
	const totalKey = TOTAL_PAGES_KEYS.find((key) => typeof body[key] === 'number');
	if (!totalKey) return undefined;
	const page = typeof body.page === 'number' ? body.page : currentPage;
	return page < (body[totalKey] as number) ? { kind: 'page', page: page + 1 } : undefined;
}

function cursorNext(body: IDataObject): NextPage | undefined {
	if (body.has_more === false || body.hasMore === false) return undefined;
	const cursor = firstString(body, CURSOR_PATHS);
	return cursor === undefined ? undefined : { kind: 'cursor', cursor };
}

function urlNext(body: IDataObject): NextPage | undefined {
	const url = firstString(body, NEXT_URL_PATHS);
	return url === undefined ? undefined : { kind: 'url', url };
}

/** A full page of a plain array (or a page-numbered listing without totals) may have a successor. */
function fullPageNext(items: IDataObject[], currentPage: number, requestedSize: number): NextPage | undefined {
	return items.length > 0 && items.length >= requestedSize ? { kind: 'page', page: currentPage + 1 } : undefined;
}

export function readPage(
	body: unknown,
	style: PaginationStyle,
	currentPage: number,
	requestedSize: number,
): PageReading {
	const items = listOf(body);
	const envelope = !Array.isArray(body) ? (body as IDataObject) : undefined;
	let next: NextPage | undefined;
	switch (style) {
		case 'none':
			break;
		case 'cursor':
			next = envelope && cursorNext(envelope);
			break;
		case 'nextUrl':
			next = envelope && urlNext(envelope);
			break;
		case 'page':
			next =
				envelope && hasPageTotals(envelope)
					? pageNumbers(envelope, currentPage)
					: fullPageNext(items, currentPage, requestedSize);
			break;
		default:
			next = envelope
				? (cursorNext(envelope) ?? urlNext(envelope) ?? pageNumbers(envelope, currentPage))
				: fullPageNext(items, currentPage, requestedSize);
	}
	if (items.length === 0) next = undefined;
	return { items, next };
}

/** Remembers where pagination has been, so an API that repeats itself stops us instead of hanging us. */
export class PaginationGuard {
	private readonly seen = new Set<string>();
	private pages = 0;
	private previousFirstItem: string | undefined;

	constructor(private readonly maxPages: number) {}

	/** Called for every page fetched. */
	countPage(items: IDataObject[]): void {
		this.pages++;
		const first = items.length > 0 ? JSON.stringify(items[0]) : undefined;
		if (first !== undefined && first === this.previousFirstItem) {
			throw new PaginationError(
				`Pagination is not advancing: page ${this.pages} starts with the same record as the page before. Set the pagination options to match the API.`,
			);
		}
		this.previousFirstItem = first;
	}

	/** Called before following a next page. */
	follow(next: NextPage): void {
		const key = next.kind === 'page' ? `page:${next.page}` : `${next.kind}:${next.kind === 'cursor' ? next.cursor : next.url}`;
		if (this.seen.has(key)) {
			throw new PaginationError(
				`Pagination loops: the API returned the same ${next.kind === 'url' ? 'next-page URL' : next.kind} twice (after ${this.pages} pages)`,
			);
		}
		this.seen.add(key);
		if (this.pages >= this.maxPages) {
			throw new PaginationError(
				`Stopped after ${this.maxPages} pages without reaching the end of the listing. Raise "Max Pages" if the listing really is that long.`,
			);
		}
	}
}
