import { PaginationGuard } from '../../nodes/TenantApi/transport/pagination/paginationGuard';
import { readPage } from '../../nodes/TenantApi/transport/pagination/readPage';
import { withoutQueryParameters } from '../../nodes/TenantApi/transport/pagination/fetchListing';

const accounts = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `acc_${i}` }));
const NO_LIST =
	'Expected a JSON list of records (a top-level array, or an array under data/items/accounts/results) but got';
const listing = { collection: 'accounts' };

describe('readPage', () => {
	it.each(['data', 'items', 'accounts', 'results'])(
		'finds the list of /accounts under %s',
		(key) => {
			expect(readPage({ [key]: accounts(2) }, 'auto', 1, undefined, listing).items).toHaveLength(2);
		},
	);

	const [two, three] = [accounts(2), accounts(3)];
	const cursor = (value: string) => ({ kind: 'cursor', cursor: value });
	const link = (url: string) => ({ kind: 'url', url });
	const page = (number: number) => ({ kind: 'page', page: number });
	// [answer, "<style> <page number> [how this page was reached]", the next page]
	it.each<[unknown, string, unknown]>([
		// cursors: snake, camel, token, nested
		[{ data: two, next_cursor: 'c2' }, 'auto 1', cursor('c2')],
		[{ data: two, nextCursor: 'c3' }, 'auto 1', cursor('c3')],
		[{ data: two, next_page_token: 't' }, 'auto 1', cursor('t')],
		[{ data: two, meta: { next_cursor: 'm' } }, 'auto 1', cursor('m')],
		// next links
		[{ results: two, next: 'https://api/v1/a?o=2' }, 'auto 1', link('https://api/v1/a?o=2')],
		[{ data: two, links: { next: '/v1/a?p=2' } }, 'auto 1', link('/v1/a?p=2')],
		// page numbers until the last page
		[{ items: two, page: 1, total_pages: 3 }, 'auto 1', page(2)],
		[{ items: two, totalPages: 2 }, 'page 1', page(2)],
		// without an end marker, until an empty page (a capped page is not the end)
		[accounts(10), 'auto 1', page(2)],
		[accounts(9), 'auto 2', page(3)],
		[{ data: accounts(50), page: 1 }, 'auto 1', page(2)],
		[{ data: three }, 'auto 4', page(5)],
		[{ data: three }, 'page 4', page(5)],
		[{ data: three }, 'auto 2 page', page(3)],
		// where the answer marks the end
		[[], 'auto 3', undefined],
		[{ data: two, next_cursor: 'c2', has_more: false }, 'auto 1', undefined],
		[{ data: three, next_cursor: null }, 'auto 1', undefined],
		[{ results: three, next: null }, 'auto 1', undefined],
		[{ data: three, links: { next: '' } }, 'auto 1', undefined],
		[{ items: two, page: 3, total_pages: 3 }, 'auto 3', undefined],
		[{ data: [], next_cursor: 'c' }, 'auto 1', undefined],
		// once cursors (or links) led here, a page without one is the last
		[{ data: three }, 'auto 1 cursor', undefined],
		[{ data: three }, 'auto 1 url', undefined],
		// a forced style
		[{ data: two, next_cursor: 'c', next: 'https://x/v1/a' }, 'nextUrl 1', link('https://x/v1/a')],
		[{ data: two, next_cursor: 'c', next: 'https://x/v1/a' }, 'cursor 1', cursor('c')],
		[{ data: two, next_cursor: 'c', next: 'https://x/v1/a' }, 'none 1', undefined],
		[accounts(5), 'cursor 1', undefined],
	])('%j (%s): next %j', (body, at, next) => {
		const [style, number, via] = at.split(' ');
		const reached = via as Parameters<typeof readPage>[3];
		expect(readPage(body, style as 'auto', Number(number), reached).next).toEqual(next);
	});

	it('refuses an answer that says more follow but cannot be followed', () => {
		const message =
			'The API says more records follow (has_more is true) but its answer has no next cursor or next link, so the rest cannot be fetched. Nothing is output rather than a partial list. Set Pagination Style and Cursor Parameter to match the API.';
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

	it.each([
		[
			'cursor',
			{ results: accounts(3), next: 'https://x/v1/a?page=2' },
			'Cursor',
			'a next link',
			'Next URL',
		],
		['nextUrl', { data: accounts(3), next_cursor: 'c2' }, 'Next URL', 'a next cursor', 'Cursor'],
	] as const)(
		'a forced %s style refuses an answer that points the other way',
		(style, body, forced, has, choose) => {
			const message = `Pagination Style is ${forced}, but the API's answer has ${has} instead, so the rest cannot be fetched. Nothing is output rather than a partial list. Set Pagination Style to Auto-Detect or ${choose}.`;
			expect(() => readPage(body, style, 1)).toThrow(message);
			expect(() => readPage({ ...body, has_more: true }, style, 1)).toThrow(message);
			expect(readPage({ ...body, has_more: false }, style, 1).next).toBeUndefined();
		},
	);

	it('wraps non-object list entries and explains unknown shapes', () => {
		expect(readPage([1, 'a'], 'auto', 1).items).toEqual([{ value: 1 }, { value: 'a' }]);
		const read = (body: unknown) => () => readPage(body, 'auto', 1, undefined, listing);
		expect(read(undefined)).toThrow(new Error(`${NO_LIST} an empty body`));
		expect(read('text')).toThrow(new Error(`${NO_LIST} a string`));
		expect(read(null)).toThrow(new Error(`${NO_LIST} null`));
		expect(read({ total: 3, next: null })).toThrow(
			new Error(
				`${NO_LIST} an object with keys total, next. Name the field that holds them in Options → Records Field.`,
			),
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
			'Pagination is not advancing: page 2 starts with the same record as the page before. If the API returns the whole list in one answer, set Pagination Style to None; otherwise set the pagination options to match the API.',
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
