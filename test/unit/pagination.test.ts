import { PaginationGuard } from '../../nodes/TenantApi/transport/pagination/paginationGuard';
import { readPage } from '../../nodes/TenantApi/transport/pagination/readPage';
import { withoutQueryParameters } from '../../nodes/TenantApi/transport/pagination/fetchListing';

const accounts = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `acc_${i}` }));

describe('readPage', () => {
	it.each(['data', 'items', 'accounts', 'results'])(
		'finds the list of /accounts under %s',
		(key) => {
			expect(
				readPage({ [key]: accounts(2) }, 'auto', 1, undefined, { collection: 'accounts' }).items,
			).toHaveLength(2);
		},
	);

	it('detects a next cursor (snake, camel, token, nested) and stops on has_more=false', () => {
		expect(readPage({ data: accounts(2), next_cursor: 'c2' }, 'auto', 1).next).toEqual({
			kind: 'cursor',
			cursor: 'c2',
		});
		expect(readPage({ data: accounts(2), nextCursor: 'c3' }, 'auto', 1).next).toEqual({
			kind: 'cursor',
			cursor: 'c3',
		});
		expect(readPage({ data: accounts(2), next_page_token: 't' }, 'auto', 1).next).toEqual({
			kind: 'cursor',
			cursor: 't',
		});
		expect(readPage({ data: accounts(2), meta: { next_cursor: 'm' } }, 'auto', 1).next).toEqual({
			kind: 'cursor',
			cursor: 'm',
		});
		expect(
			readPage({ data: accounts(2), next_cursor: 'c2', has_more: false }, 'auto', 1).next,
		).toBeUndefined();
		expect(readPage({ data: accounts(2), next_cursor: null }, 'auto', 1).next).toBeUndefined();
	});

	it('detects a next URL', () => {
		expect(
			readPage({ results: accounts(2), next: 'https://api/v1/accounts?o=2' }, 'auto', 1).next,
		).toEqual({
			kind: 'url',
			url: 'https://api/v1/accounts?o=2',
		});
		expect(
			readPage({ data: accounts(1), links: { next: '/v1/accounts?p=2' } }, 'auto', 1).next,
		).toEqual({ kind: 'url', url: '/v1/accounts?p=2' });
	});

	it('follows page numbers until the last page', () => {
		expect(readPage({ items: accounts(2), page: 1, total_pages: 3 }, 'auto', 1).next).toEqual({
			kind: 'page',
			page: 2,
		});
		expect(
			readPage({ items: accounts(2), page: 3, total_pages: 3 }, 'auto', 3).next,
		).toBeUndefined();
		expect(readPage({ items: accounts(2), totalPages: 2 }, 'page', 1).next).toEqual({
			kind: 'page',
			page: 2,
		});
	});

	it('reads page numbers until an empty page when the answer has no end marker (a capped page is not the end)', () => {
		expect(readPage(accounts(10), 'auto', 1).next).toEqual({ kind: 'page', page: 2 });
		expect(readPage(accounts(9), 'auto', 2).next).toEqual({ kind: 'page', page: 3 });
		expect(readPage([], 'auto', 3).next).toBeUndefined();
		expect(readPage({ data: accounts(50), page: 1 }, 'auto', 1).next).toEqual({
			kind: 'page',
			page: 2,
		});
		expect(readPage({ data: accounts(3) }, 'auto', 4).next).toEqual({ kind: 'page', page: 5 });
		expect(readPage({ data: accounts(3) }, 'page', 4).next).toEqual({ kind: 'page', page: 5 });
	});

	it('ends where the answer marks the end', () => {
		expect(readPage({ data: accounts(3), has_more: false }, 'auto', 1).next).toBeUndefined();
		expect(readPage({ data: accounts(3), next_cursor: null }, 'auto', 1).next).toBeUndefined();
		expect(readPage({ results: accounts(3), next: null }, 'auto', 1).next).toBeUndefined();
		expect(readPage({ data: accounts(3), links: { next: '' } }, 'auto', 1).next).toBeUndefined();
		expect(
			readPage({ items: accounts(3), page: 2, total_pages: 2 }, 'auto', 2).next,
		).toBeUndefined();
	});

	it('once cursors (or links) led here, a page without one is the last', () => {
		expect(readPage({ data: accounts(3) }, 'auto', 1, 'cursor').next).toBeUndefined();
		expect(readPage({ data: accounts(3) }, 'auto', 1, 'url').next).toBeUndefined();
		expect(readPage({ data: accounts(3) }, 'auto', 2, 'page').next).toEqual({
			kind: 'page',
			page: 3,
		});
	});

	it('refuses an answer that says more follow but cannot be followed', () => {
		const message =
			/says more records follow \(has_more is true\) but its answer has no next cursor or next link/;
		expect(() => readPage({ data: accounts(3), has_more: true }, 'auto', 1)).toThrow(message);
		expect(() =>
			readPage({ data: accounts(3), hasMore: true, next_cursor: null }, 'auto', 1),
		).toThrow(message);
		expect(() => readPage({ data: accounts(3), has_more: true }, 'cursor', 1)).toThrow(message);
		expect(() => readPage({ data: accounts(3), has_more: true }, 'nextUrl', 1)).toThrow(message);
		expect(() => readPage({ data: accounts(3), has_more: true }, 'auto', 2, 'cursor')).toThrow(
			message,
		);
	});

	it('obeys a forced style', () => {
		const body = { data: accounts(2), next_cursor: 'c', next: 'https://x/v1/a' };
		expect(readPage(body, 'nextUrl', 1).next?.kind).toBe('url');
		expect(readPage(body, 'cursor', 1).next?.kind).toBe('cursor');
		expect(readPage(body, 'none', 1).next).toBeUndefined();
		expect(readPage(accounts(5), 'cursor', 1).next).toBeUndefined();
	});

	it('stops on an empty page even if a cursor is present', () => {
		expect(readPage({ data: [], next_cursor: 'c' }, 'auto', 1).next).toBeUndefined();
	});

	it('wraps non-object list entries and explains unknown shapes', () => {
		expect(readPage([1, 'a'], 'auto', 1).items).toEqual([{ value: 1 }, { value: 'a' }]);
		expect(() => readPage({ accountz: [] }, 'auto', 1)).toThrow(/Expected a JSON list.*accountz/);
		expect(() => readPage(undefined, 'auto', 1)).toThrow(/empty body$/);
		expect(() => readPage('text', 'auto', 1)).toThrow(/string$/);
		expect(() => readPage(null, 'auto', 1)).toThrow(
			/^Expected a JSON list of records \(a top-level array, or an array under data\/items\/results\) but got null$/,
		);
	});

	it("also finds the list under the collection's name, between items and results", () => {
		const where = { collection: 'transfers' };
		expect(
			readPage({ transfers: accounts(2), has_more: false }, 'auto', 1, undefined, where).items,
		).toHaveLength(2);
		expect(
			readPage({ results: [{ id: 'r' }], transfers: [{ id: 't' }] }, 'auto', 1, undefined, where)
				.items,
		).toEqual([{ id: 't' }]);
		expect(
			readPage({ items: [{ id: 'i' }], transfers: [{ id: 't' }] }, 'auto', 1, undefined, where)
				.items,
		).toEqual([{ id: 'i' }]);
		expect(() => readPage({ transfers: accounts(2) }, 'auto', 1)).toThrow(
			'Expected a JSON list of records (a top-level array, or an array under data/items/results) but got an object with keys transfers. Name the field that holds them in Options → Records Field.',
		);
		expect(() => readPage({ total: 3 }, 'auto', 1, undefined, { collection: 'accounts' })).toThrow(
			/array under data\/items\/accounts\/results\) but got an object with keys total\./,
		);
	});

	it('reads the records only from the Records Field when one is named, nested fields too', () => {
		const body = {
			data: [{ id: 'not these' }],
			result: { entries: accounts(3), next_cursor: 'ignored' },
			next_cursor: 'c2',
		};
		const reading = readPage(body, 'auto', 1, undefined, {
			field: 'result.entries',
			collection: 'data',
		});
		expect(reading.items.map((item) => item.id)).toEqual(['acc_0', 'acc_1', 'acc_2']);
		expect(reading.next).toEqual({ kind: 'cursor', cursor: 'c2' });
		expect(readPage({ rows: [] }, 'auto', 1, undefined, { field: 'rows' })).toEqual({ items: [] });
		expect(() => readPage({ data: accounts(1) }, 'auto', 1, undefined, { field: 'rows' })).toThrow(
			'Expected the records as a JSON array in the field "rows" (Records Field) but got an object with keys data, without that field',
		);
		expect(() => readPage({ rows: { a: 1 } }, 'auto', 1, undefined, { field: 'rows' })).toThrow(
			/field "rows" \(Records Field\) but got an object with keys a$/,
		);
		expect(() => readPage(accounts(2), 'auto', 1, undefined, { field: 'rows' })).toThrow(
			/field "rows".*without that field/,
		);
	});
});

describe('withoutQueryParameters', () => {
	it('drops only the names the node sends itself, and leaves the path and the rest of the query as they are', () => {
		const url = 'https://api.example.com/v1/caf%C3%A9/transfers';
		expect(withoutQueryParameters(url, ['limit'])).toBe(url);
		expect(withoutQueryParameters(`${url}?status=pending`, ['limit', 'cursor'])).toBe(
			`${url}?status=pending`,
		);
		expect(withoutQueryParameters(`${url}?limit=10&status=a%20b&limit=5`, ['limit'])).toBe(
			`${url}?status=a+b`,
		);
		expect(withoutQueryParameters(`${url}?limit=10`, ['limit', 'status'])).toBe(url);
	});
});

describe('PaginationGuard', () => {
	it('refuses a repeated cursor or URL', () => {
		const guard = new PaginationGuard(100);
		guard.countPage(accounts(1));
		guard.follow({ kind: 'cursor', cursor: 'a' });
		guard.countPage([{ id: 'other' }]);
		expect(() => guard.follow({ kind: 'cursor', cursor: 'a' })).toThrow(/loops/);
	});

	it('refuses a page that repeats the previous one', () => {
		const guard = new PaginationGuard(100);
		guard.countPage(accounts(3));
		expect(() => guard.countPage(accounts(3))).toThrow(
			/not advancing.*If the API returns the whole list in one answer, set Pagination Style to None/,
		);
	});

	it('stops at maxPages', () => {
		const guard = new PaginationGuard(2);
		guard.countPage([{ id: 1 }]);
		guard.follow({ kind: 'page', page: 2 });
		guard.countPage([{ id: 2 }]);
		expect(() => guard.follow({ kind: 'page', page: 3 })).toThrow(/Stopped after 2 pages/);
	});
});
