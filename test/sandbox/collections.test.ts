import { startSandbox, type CreatedRecord, type Sandbox } from '../../sandbox/server';
import { api, post } from './helpers';

/** A record of a listed collection: seeded (tr_0001, po_0001, …) or created by a POST. */
type Listed = { id: string; object: string; [field: string]: unknown };
type CursorPage = { data: Listed[]; has_more: boolean; next_cursor: string | null };
type NextLinkPage = { results: Listed[]; next: string | null };

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}_${String(i + 1).padStart(4, '0')}`);

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, transfers: 60, payouts: 45 });
});
afterAll(() => sb.close());
afterEach(() => sb.reset());

async function json<T>(path: string): Promise<T> {
	const res = await api(sb, path);
	expect(res.status).toBe(200);
	return (await res.json()) as T;
}

describe('GET /v1/transfers: cursor pages {data, has_more, next_cursor}', () => {
	it('pages the seeded transfers by cursor, then the created ones, whatever the accounts pagination mode', async () => {
		sb.setPagination('page');
		await post(sb, '/transfers', 'k-1', { amount: 5 });
		const seen: string[] = [];
		let page = await json<CursorPage>('/transfers?limit=25');
		seen.push(...page.data.map((r) => r.id));
		while (page.has_more) {
			expect(page.next_cursor).toEqual(expect.any(String));
			page = await json<CursorPage>(`/transfers?limit=25&cursor=${page.next_cursor}`);
			seen.push(...page.data.map((r) => r.id));
		}
		expect(page.next_cursor).toBeNull();
		expect(seen).toEqual([...ids('tr', 60), 'rec_1']);
		expect(sb.stats().byRoute['GET /v1/transfers']).toBe(3);
		sb.setPagination('cursor');
	});

	it('filters on record fields and reads a seeded record by id', async () => {
		const pending = await json<CursorPage>('/transfers?status=pending&limit=100');
		expect(pending.data.length).toBe(15);
		expect(pending.data.every((r) => r.status === 'pending')).toBe(true);
		expect(await json<Listed>('/transfers/tr_0007')).toEqual(expect.objectContaining({ id: 'tr_0007', object: 'transfers' }));
		expect((await api(sb, '/payouts/tr_0007')).status).toBe(404);
	});

	it('keeps seeded records read-only, and refuses an unknown cursor', async () => {
		const patch = await api(sb, '/transfers/tr_0001', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
		expect(patch.status).toBe(405);
		expect((await api(sb, '/transfers?cursor=nonsense')).status).toBe(400);
	});
});

describe('GET /v1/payouts: next links {results, next}', () => {
	it('pages the seeded payouts by absolute next links that keep the other query parameters', async () => {
		const seen: string[] = [];
		let page = await json<NextLinkPage>('/payouts?limit=20&currency=EUR');
		seen.push(...page.results.map((r) => r.id));
		while (page.next) {
			expect(page.next.startsWith(`${sb.baseUrl}/payouts?`)).toBe(true);
			expect(new URL(page.next).searchParams.get('currency')).toBe('EUR');
			const res = await fetch(page.next, { headers: { 'Api-Key': sb.apiKey } });
			page = (await res.json()) as NextLinkPage;
			seen.push(...page.results.map((r) => r.id));
		}
		expect(seen).toEqual(ids('po', 45).filter((_, i) => (i + 1) % 3 === 0));
	});
});

describe('other collections', () => {
	it('list their created records in cursor pages, and nothing is seeded unless asked', async () => {
		const plain = await startSandbox({ port: 0 });
		try {
			for (let i = 1; i <= 3; i++) await post(plain, '/refunds', `r-${i}`, { n: i });
			const res = await api(plain, '/refunds?limit=2');
			const first = (await res.json()) as CursorPage;
			expect(first.data.map((r) => r.n)).toEqual([1, 2]);
			expect(first.has_more).toBe(true);
			const rest = (await (await api(plain, `/refunds?limit=2&cursor=${first.next_cursor}`)).json()) as CursorPage;
			expect(rest).toEqual({ data: [expect.objectContaining({ n: 3 })], has_more: false, next_cursor: null });
			expect(((await (await api(plain, '/transfers')).json()) as CursorPage).data).toEqual([]);
			expect(plain.records().map((r: CreatedRecord) => r.object)).toEqual(['refunds', 'refunds', 'refunds']);
		} finally {
			await plain.close();
		}
	});
});
