import { startSandbox, type Account, type Sandbox } from '../../sandbox/server';
import { api } from './helpers';

/** The listing's answer in each pagination mode of the sandbox. */
type CursorPage = { data: Account[]; has_more: boolean; next_cursor: string | null };
type NumberedPage = { items: Account[]; page: number; total_pages: number };
type NextUrlPage = { results: Account[]; next: string | null };

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());
afterEach(() => {
	sb.setPagination('cursor');
	sb.reset();
});

describe('auth', () => {
	it('rejects a missing Api-Key with 401 and the error shape', async () => {
		const res = await fetch(sb.baseUrl + '/accounts');
		expect(res.status).toBe(401);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: 'Invalid or missing API key' } });
	});

	it('rejects a wrong Api-Key with 401, also for POST', async () => {
		const res = await fetch(sb.baseUrl + '/transfers', { method: 'POST', headers: { 'Api-Key': 'nope', 'Idempotency-Key': 'k' }, body: '{}' });
		expect(res.status).toBe(401);
		expect(sb.stats().records).toBe(0);
	});

	it('rejects an unknown x-tenant-id with 403, accepts the right or a missing one', async () => {
		const bad = await api(sb, '/accounts', { headers: { 'x-tenant-id': 'tenant_other' } });
		expect(bad.status).toBe(403);
		expect(await bad.json()).toEqual({ error: { code: 'tenant_mismatch', message: 'Unknown tenant' } });
		expect((await api(sb, '/accounts', { headers: { 'x-tenant-id': 'tenant_demo' } })).status).toBe(200);
		expect((await api(sb, '/accounts')).status).toBe(200);
	});

	it('honours custom apiKey and tenantId options', async () => {
		const other = await startSandbox({ apiKey: 'k2', tenantId: 't2', accounts: 3 });
		try {
			expect(other.apiKey).toBe('k2');
			expect(other.baseUrl).toBe(other.url + '/v1');
			expect(other.url).toBe(`http://127.0.0.1:${other.port}`);
			const ok = await fetch(other.baseUrl + '/accounts', { headers: { 'Api-Key': 'k2', 'x-tenant-id': 't2' } });
			expect(ok.status).toBe(200);
			expect((await ok.json()).data).toHaveLength(3);
			expect((await fetch(other.baseUrl + '/accounts', { headers: { 'Api-Key': 'sk_test_sandbox' } })).status).toBe(401);
		} finally {
			await other.close();
		}
	});
});

describe('accounts seed', () => {
	it('is deterministic with the documented record shape', async () => {
		const body = await (await api(sb, '/accounts?limit=2')).json();
		expect(body.data[0]).toEqual({
			id: 'acc_0001',
			object: 'account',
			name: 'Acme 1',
			currency: 'USD',
			balance: 79.19,
			status: 'active',
			created_at: '2024-01-01T01:00:00.000Z',
		});
		expect(body.data[1].id).toBe('acc_0002');
	});

	it('filters by equality on existing fields and ignores unknown params', async () => {
		const all = await walkCursor('?limit=100');
		const active = await walkCursor('?limit=100&status=active&unknown_param=x');
		expect(active.length).toBe(all.filter((a) => a.status === 'active').length);
		expect(active.length).toBeGreaterThan(0);
		expect(active.length).toBeLessThan(all.length);
		expect(active.every((a) => a.status === 'active')).toBe(true);
	});

	it('returns one account by id, 404 for unknown ids', async () => {
		const res = await api(sb, '/accounts/acc_0042');
		expect(res.status).toBe(200);
		expect((await res.json()).id).toBe('acc_0042');
		const missing = await api(sb, '/accounts/acc_9999');
		expect(missing.status).toBe(404);
		expect((await missing.json()).error.code).toBe('not_found');
	});

	it('rejects a non-numeric limit with 400 and clamps a huge one to 100', async () => {
		const bad = await api(sb, '/accounts?limit=abc');
		expect(bad.status).toBe(400);
		expect((await bad.json()).error.code).toBe('invalid_parameter');
		const big = await (await api(sb, '/accounts?limit=5000')).json();
		expect(big.data).toHaveLength(100);
	});
});

async function walkCursor(query: string): Promise<Array<Record<string, unknown>>> {
	const out: Array<Record<string, unknown>> = [];
	let url = '/accounts' + query;
	for (let i = 0; i < 50; i++) {
		const body = await (await api(sb, url)).json();
		out.push(...body.data);
		if (!body.has_more) return out;
		url = '/accounts' + query + '&cursor=' + encodeURIComponent(body.next_cursor);
	}
	throw new Error('cursor walk did not end');
}

describe('pagination modes (120 accounts, default page 25)', () => {
	const expectAllIds = (ids: string[]) => {
		expect(ids).toHaveLength(120);
		expect(new Set(ids).size).toBe(120);
		expect(ids[0]).toBe('acc_0001');
		expect(ids[119]).toBe('acc_0120');
	};

	it('cursor: walks 5 pages to the end', async () => {
		const pages: number[] = [];
		const ids: string[] = [];
		let cursor: string | null = null;
		do {
			const body = (await (await api(sb, '/accounts' + (cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''))).json()) as CursorPage;
			pages.push(body.data.length);
			ids.push(...body.data.map((a) => a.id));
			expect(body.has_more).toBe(body.next_cursor !== null);
			cursor = body.next_cursor;
		} while (cursor);
		expect(pages).toEqual([25, 25, 25, 25, 20]);
		expectAllIds(ids);
	});

	it('cursor: rejects a forged cursor with 400', async () => {
		const res = await api(sb, '/accounts?cursor=garbage');
		expect(res.status).toBe(400);
	});

	it('page: page/per_page with total_pages', async () => {
		sb.setPagination('page');
		const ids: string[] = [];
		let page = 1;
		let total = Infinity;
		while (page <= total) {
			const body = (await (await api(sb, `/accounts?page=${page}&per_page=50`)).json()) as NumberedPage;
			expect(Object.keys(body).sort()).toEqual(['items', 'page', 'total_pages']);
			expect(body.page).toBe(page);
			total = body.total_pages;
			ids.push(...body.items.map((a) => a.id));
			page++;
		}
		expect(total).toBe(3);
		expectAllIds(ids);
		const beyond = await (await api(sb, '/accounts?page=4&per_page=50')).json();
		expect(beyond.items).toEqual([]);
	});

	it('nextUrl: follows absolute next URLs on the same host, keeping filters', async () => {
		sb.setPagination('nextUrl');
		const ids: string[] = [];
		let next: string | null = sb.baseUrl + '/accounts?limit=40';
		const seen: string[] = [];
		while (next) {
			seen.push(next);
			const res = await fetch(next, { headers: { 'Api-Key': sb.apiKey } });
			const body = (await res.json()) as NextUrlPage;
			ids.push(...body.results.map((a) => a.id));
			next = body.next;
		}
		expect(seen).toEqual([
			sb.baseUrl + '/accounts?limit=40',
			sb.baseUrl + '/accounts?offset=40&limit=40',
			sb.baseUrl + '/accounts?offset=80&limit=40',
		]);
		expectAllIds(ids);
		const filtered = await (await api(sb, '/accounts?status=closed&limit=5')).json();
		expect(filtered.next).toBe(sb.baseUrl + '/accounts?status=closed&offset=5&limit=5');
	});

	it('array: top-level array, a short page ends it', async () => {
		sb.setPagination('array');
		const ids: string[] = [];
		const sizes: number[] = [];
		for (let page = 1; ; page++) {
			const body = (await (await api(sb, `/accounts?page=${page}&limit=30`)).json()) as Account[];
			expect(Array.isArray(body)).toBe(true);
			sizes.push(body.length);
			ids.push(...body.map((a) => a.id));
			if (body.length < 30) break;
		}
		expect(sizes).toEqual([30, 30, 30, 30, 0]);
		expectAllIds(ids);
	});

	it('loop: next_cursor repeats forever', async () => {
		sb.setPagination('loop');
		const first = await (await api(sb, '/accounts')).json();
		const second = await (await api(sb, '/accounts?cursor=' + encodeURIComponent(first.next_cursor))).json();
		const third = await (await api(sb, '/accounts?cursor=' + encodeURIComponent(second.next_cursor))).json();
		expect(first.has_more).toBe(true);
		expect(second.next_cursor).toBe(first.next_cursor);
		expect(third.next_cursor).toBe(first.next_cursor);
		expect(third.has_more).toBe(true);
		expect(second.data[0].id).toBe('acc_0026');
	});

	it('endless: always a new cursor and has_more true (wraps around the records)', async () => {
		sb.setPagination('endless');
		const cursors = new Set<string>();
		let cursor = '';
		let lastFirstId = '';
		for (let i = 0; i < 8; i++) {
			const body = await (await api(sb, '/accounts?limit=25' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''))).json();
			expect(body.has_more).toBe(true);
			expect(body.data).toHaveLength(25);
			cursors.add(body.next_cursor);
			cursor = body.next_cursor;
			lastFirstId = body.data[0].id;
		}
		expect(cursors.size).toBe(8);
		// page 8 starts at offset 175 -> 175 % 120 = 55 -> acc_0056
		expect(lastFirstId).toBe('acc_0056');
	});
});
