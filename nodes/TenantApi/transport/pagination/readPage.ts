/**
 * Reads one page of a listing and says where the next one is. The spec does not show the listing's
 * shape, so the common ones are recognised (docs/pagination.md, "What Auto-Detect recognises"); the
 * style can be forced.
 */
import type { IDataObject } from 'n8n-workflow';

import { kindOf } from '../../../shared/kindOf';

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

/** Where a page keeps its records. */
export interface RecordsLocation {
	/** The field the user named (dot notation for nested fields); when set, nothing is guessed. */
	field?: string;
	/** The collection's name (the endpoint's last segment, e.g. `transfers`), tried as well. */
	collection?: string;
}

/** Fields tried in turn, written in dot notation. */
const fieldPaths = (list: string) => list.split(' ').map((path) => path.split('.'));
const CURSOR_PATHS = fieldPaths(
	'next_cursor nextCursor next_page_token nextPageToken meta.next_cursor pagination.next_cursor cursor.next',
);
const NEXT_URL_PATHS = fieldPaths('next next_url nextUrl links.next _links.next.href paging.next');
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

function describeShape(body: unknown): string {
	if (body === undefined) return 'an empty body';
	if (!body || typeof body !== 'object' || Array.isArray(body)) return kindOf(body);
	return `an object with keys ${Object.keys(body).slice(0, 8).join(', ') || '(none)'}`;
}

function namedList(body: unknown, field: string): unknown[] {
	const list = at(body as IDataObject, field.split('.'));
	if (!Array.isArray(list)) {
		throw new PaginationError(
			`Expected the records as a JSON array in the field "${field}" (Records Field) but got ${list === undefined ? `${describeShape(body)}, without that field` : describeShape(list)}`,
		);
	}
	return list;
}

function detectedList(body: unknown, collection: string | undefined): unknown[] {
	// Tried in turn: `data`, `items`, the collection's name, `results`.
	const keys = [...new Set(['data', 'items', collection || 'results', 'results'])];
	const list = Array.isArray(body)
		? body
		: body && typeof body === 'object'
			? keys.map((key) => (body as IDataObject)[key]).find(Array.isArray)
			: undefined;
	if (!list) {
		const hint =
			body && typeof body === 'object'
				? '. Name the field that holds them in Options → Records Field.'
				: '';
		throw new PaginationError(
			`Expected a JSON list of records (a top-level array, or an array under ${keys.join('/')}) but got ${describeShape(body)}${hint}`,
		);
	}
	return list;
}

function listOf(body: unknown, where: RecordsLocation): IDataObject[] {
	const list = where.field ? namedList(body, where.field) : detectedList(body, where.collection);
	return list.map((entry) =>
		entry && typeof entry === 'object' && !Array.isArray(entry)
			? (entry as IDataObject)
			: { value: entry as IDataObject[keyof IDataObject] },
	);
}

/** `END` (a value, so that `??` chains stop at it) says the answer itself marks the last page. */
const END = { kind: 'end' } as const;
type Reading = NextPage | typeof END | undefined;

function pageNumbers(body: IDataObject, currentPage: number): Reading {
	const totalKey = TOTAL_PAGES_KEYS.find((key) => typeof body[key] === 'number');
	if (!totalKey) return undefined;
	const page = typeof body.page === 'number' ? body.page : currentPage;
	return page < (body[totalKey] as number) ? { kind: 'page', page: page + 1 } : END;
}

/** Whether `has_more` (or `hasMore`) is `value`. */
const says = (body: IDataObject, value: boolean) =>
	body.has_more === value || body.hasMore === value;
const saysNoMore = (body: IDataObject) => says(body, false);
const saysMore = (body: IDataObject) => says(body, true);

/** A cursor or next-link field present but null or empty: the API's way of saying "last page". */
function hasEmptyPointer(body: IDataObject, paths: string[][]): boolean {
	return paths.some((path) => {
		const parent = at(body, path.slice(0, -1));
		const key = path[path.length - 1];
		if (!parent || typeof parent !== 'object' || !Object.prototype.hasOwnProperty.call(parent, key))
			return false;
		const value = (parent as IDataObject)[key];
		return value === null || value === '';
	});
}

/** The next cursor or link; END when the answer marks the last page (and claims no more). */
function pointerNext(
	body: IDataObject,
	paths: string[][],
	toNext: (pointer: string) => NextPage,
): Reading {
	const pointer = firstString(body, paths);
	if (pointer !== undefined) return saysNoMore(body) ? END : toNext(pointer);
	return hasEmptyPointer(body, paths) && !saysMore(body) ? END : undefined;
}

const cursorNext = (body: IDataObject) =>
	pointerNext(body, CURSOR_PATHS, (cursor) => ({ kind: 'cursor', cursor }));
const urlNext = (body: IDataObject) =>
	pointerNext(body, NEXT_URL_PATHS, (url) => ({ kind: 'url', url }));

/**
 * No pointer and no totals (a plain array, `{data}`, `{data, page}`): ask for the next page number
 * until a page comes back empty. A short page is not proof of the end: many APIs cap the page size
 * below what was asked for.
 */
function probeNext(currentPage: number): NextPage {
	return { kind: 'page', page: currentPage + 1 };
}

function refuseUnfollowable(): never {
	throw new PaginationError(
		'The API says more records follow (has_more is true) but its answer has no next cursor or next link, so the rest cannot be fetched. Nothing is output rather than a partial list. Set Pagination Style and Cursor Parameter to match the API.',
	);
}

function readEnvelope(
	body: IDataObject,
	style: PaginationStyle,
	currentPage: number,
): NextPage | typeof END {
	switch (style) {
		case 'cursor':
			return cursorNext(body) ?? (saysMore(body) ? refuseUnfollowable() : END);
		case 'nextUrl':
			return urlNext(body) ?? (saysMore(body) ? refuseUnfollowable() : END);
		case 'page':
			return pageNumbers(body, currentPage) ?? probeNext(currentPage);
		default:
			return (
				cursorNext(body) ??
				urlNext(body) ??
				pageNumbers(body, currentPage) ??
				(saysMore(body) ? refuseUnfollowable() : saysNoMore(body) ? END : probeNext(currentPage))
			);
	}
}

/**
 * Reads one page: its items, and where the next page is (none when this is the last). Return All
 * relies on this never ending a listing early: an answer that signals more but cannot be followed
 * is an error, and a listing without end markers is read until an empty page. `via` is how this
 * page was reached: once a listing has handed out cursors (or links), a page without one is its
 * last. `where` says where the records are (default: detected).
 */
export function readPage(
	body: unknown,
	style: PaginationStyle,
	currentPage: number,
	via?: NextPage['kind'],
	where: RecordsLocation = {},
): PageReading {
	const items = listOf(body, where);
	if (items.length === 0 || style === 'none') return { items };
	const effective: PaginationStyle =
		style !== 'auto' ? style : via === 'cursor' ? 'cursor' : via === 'url' ? 'nextUrl' : 'auto';
	if (Array.isArray(body)) {
		// A bare array carries no cursor or link; only page numbers can reach further.
		return {
			items,
			next: effective === 'cursor' || effective === 'nextUrl' ? undefined : probeNext(currentPage),
		};
	}
	if (style === 'cursor' || style === 'nextUrl') refuseOtherPointer(body as IDataObject, style);
	const reading = readEnvelope(body as IDataObject, effective, currentPage);
	return { items, next: reading.kind === 'end' ? undefined : reading };
}

const isNext = (reading: Reading) => reading !== undefined && reading.kind !== 'end';

/** A forced style blind to the pointer the answer has would output a partial list as whole. */
function refuseOtherPointer(body: IDataObject, style: 'cursor' | 'nextUrl'): void {
	const [own, other] =
		style === 'cursor' ? [cursorNext(body), urlNext(body)] : [urlNext(body), cursorNext(body)];
	if (isNext(own) || !isNext(other)) return;
	const [forced, has, choose] =
		style === 'cursor'
			? ['Cursor', 'a next link', 'Next URL']
			: ['Next URL', 'a next cursor', 'Cursor'];
	throw new PaginationError(
		`Pagination Style is ${forced}, but the API's answer has ${has} instead, so the rest cannot be fetched. Nothing is output rather than a partial list. Set Pagination Style to Auto-Detect or ${choose}.`,
	);
}
