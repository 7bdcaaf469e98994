import { PaginationGuard, readPage } from '../../nodes/TenantApi/transport/pagination';

const accounts = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `acc_${i}` }));

describe('readPage', () => {
	it.each(['data', 'items', 'accounts', 'results'])('finds the list under %s', (key) => {
		expect(readPage({ [key]: accounts(2) }, 'auto', 1, 10).items).toHaveLength(2);
	});

	it('detects a next cursor (snake, camel, token, nested) and stops on has_more=false', () => {
		expect(readPage({ data: accounts(2), next_cursor: 'c2' }, 'auto', 1, 2).next).toEqual({ kind: 'cursor', cursor: 'c2' });
		expect(readPage({ data: accounts(2), nextCursor: 'c3' }, 'auto', 1, 2).next).toEqual({ kind: 'cursor', cursor: 'c3' });
		expect(readPage({ data: accounts(2), next_page_token: 't' }, 'auto', 1, 2).next).toEqual({ kind: 'cursor', cursor: 't' });
		expect(readPage({ data: accounts(2), meta: { next_cursor: 'm' } }, 'auto', 1, 2).next).toEqual({ kind: 'cursor', cursor: 'm' });
		expect(readPage({ data: accounts(2), next_cursor: 'c2', has_more: false }, 'auto', 1, 2).next).toBeUndefined();
		expect(readPage({ data: accounts(2), next_cursor: null }, 'auto', 1, 2).next).toBeUndefined();
	});

	it('detects a next URL', () => {
		expect(readPage({ results: accounts(2), next: 'https://api/v1/accounts?o=2' }, 'auto', 1, 2).next).toEqual({
			kind: 'url',
			url: 'https://api/v1/accounts?o=2',
		});
		expect(readPage({ data: accounts(1), links: { next: '/v1/accounts?p=2' } }, 'auto', 1, 1).next).toEqual({ kind: 'url', url: '/v1/accounts?p=2' });
	});

	it('follows page numbers until the last page', () => {
		expect(readPage({ items: accounts(2), page: 1, total_pages: 3 }, 'auto', 1, 2).next).toEqual({ kind: 'page', page: 2 });
		expect(readPage({ items: accounts(2), page: 3, total_pages: 3 }, 'auto', 3, 2).next).toBeUndefined();
		expect(readPage({ items: accounts(2), totalPages: 2 }, 'page', 1, 2).next).toEqual({ kind: 'page', page: 2 });
	});

	it('continues a top-level array while pages are full', () => {
		expect(readPage(accounts(10), 'auto', 1, 10).next).toEqual({ kind: 'page', page: 2 });
		expect(readPage(accounts(9), 'auto', 2, 10).next).toBeUndefined();
		expect(readPage([], 'auto', 3, 10).next).toBeUndefined();
	});

	it('obeys a forced style', () => {
		const body = { data: accounts(2), next_cursor: 'c', next: 'https://x/v1/a' };
		expect(readPage(body, 'nextUrl', 1, 2).next?.kind).toBe('url');
		expect(readPage(body, 'cursor', 1, 2).next?.kind).toBe('cursor');
		expect(readPage(body, 'none', 1, 2).next).toBeUndefined();
	});

	it('stops on an empty page even if a cursor is present', () => {
		expect(readPage({ data: [], next_cursor: 'c' }, 'auto', 1, 2).next).toBeUndefined();
	});

	it('wraps non-object list entries and explains unknown shapes', () => {
		expect(readPage([1, 'a'], 'auto', 1, 5).items).toEqual([{ value: 1 }, { value: 'a' }]);
		expect(() => readPage({ accountz: [] }, 'auto', 1, 5)).toThrow(/Expected a JSON list.*accountz/);
		expect(() => readPage(undefined, 'auto', 1, 5)).toThrow(/empty body/);
		expect(() => readPage('text', 'auto', 1, 5)).toThrow(/string/);
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
		expect(() => guard.countPage(accounts(3))).toThrow(/not advancing/);
	});

	it('stops at maxPages', () => {
		const guard = new PaginationGuard(2);
		guard.countPage([{ id: 1 }]);
		guard.follow({ kind: 'page', page: 2 });
		guard.countPage([{ id: 2 }]);
		expect(() => guard.follow({ kind: 'page', page: 3 })).toThrow(/Stopped after 2 pages/);
	});
});
