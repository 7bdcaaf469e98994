import { startSandbox, type CreatedRecord, type Sandbox } from '../../sandbox/server';
import { api, post } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('POST /v1/<any path>', () => {
	it('creates a record with 201 and the documented fields', async () => {
		const res = await post(sb, '/transfers', 'key-1', { amount: 1250, currency: 'EUR' });
		expect(res.status).toBe(201);
		expect(res.headers.get('idempotent-replayed')).toBeNull();
		const rec = await res.json();
		expect(rec).toMatchObject({ id: 'rec_1', object: 'transfers', endpoint: '/transfers', idempotency_key: 'key-1', amount: 1250, currency: 'EUR' });
		expect(Object.keys(rec)).toEqual(['id', 'object', 'endpoint', 'idempotency_key', 'amount', 'currency', 'created_at']);
		expect(Number.isNaN(Date.parse(rec.created_at))).toBe(false);
		expect(sb.records()).toEqual([rec]);
	});

	it('uses the first path segment as object for nested paths, and body fields cannot overwrite id/object', async () => {
		const rec = await (await post(sb, '/payouts/abc/confirm', 'k-nested', { id: 'evil', object: 'x', note: 'n' })).json();
		expect(rec).toMatchObject({ id: 'rec_1', object: 'payouts', endpoint: '/payouts/abc/confirm', note: 'n' });
		const got = await api(sb, '/payouts/rec_1');
		expect(got.status).toBe(200);
		expect(await got.json()).toEqual(rec);
		expect((await api(sb, '/transfers/rec_1')).status).toBe(404);
		expect((await api(sb, '/payouts/rec_99')).status).toBe(404);
	});

	it('replays the same key + same body (key order ignored) with Idempotent-Replayed: true', async () => {
		const first = await (await post(sb, '/transfers', 'key-2', { a: 1, b: { c: 2, d: [1, 2] } })).json();
		const again = await post(sb, '/transfers', 'key-2', { b: { d: [1, 2], c: 2 }, a: 1 });
		expect(again.status).toBe(201);
		expect(again.headers.get('idempotent-replayed')).toBe('true');
		expect(await again.json()).toEqual(first);
		expect(sb.stats()).toMatchObject({ records: 1, distinctIdempotencyKeys: 1, replays: 1, conflicts: 0 });
	});

	it('answers 409 idempotency_key_reuse for the same key with a different body', async () => {
		await post(sb, '/transfers', 'key-3', { amount: 1 });
		const res = await post(sb, '/transfers', 'key-3', { amount: 2 });
		expect(res.status).toBe(409);
		expect((await res.json()).error.code).toBe('idempotency_key_reuse');
		expect(sb.stats()).toMatchObject({ records: 1, conflicts: 1 });
	});

	it('answers 409 for the same key on a different endpoint', async () => {
		await post(sb, '/transfers', 'key-4', { amount: 1 });
		expect((await post(sb, '/payouts', 'key-4', { amount: 1 })).status).toBe(409);
	});

	it('requires an Idempotency-Key (400 idempotency_key_missing)', async () => {
		const res = await post(sb, '/transfers', undefined, { amount: 1 });
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({ error: { code: 'idempotency_key_missing', message: expect.any(String) } });
		expect(sb.stats().records).toBe(0);
	});

	it('rejects invalid JSON (400 invalid_json) and non-object JSON (400 invalid_body)', async () => {
		const bad = await post(sb, '/transfers', 'k-json', '{"amount": ');
		expect(bad.status).toBe(400);
		expect((await bad.json()).error.code).toBe('invalid_json');
		for (const body of ['[1,2]', '"text"', '42', 'null']) {
			const res = await post(sb, '/transfers', 'k-body', body);
			expect(res.status).toBe(400);
			expect((await res.json()).error.code).toBe('invalid_body');
		}
		expect((await post(sb, '/transfers', 'k-empty', '')).status).toBe(400);
		expect(sb.stats().records).toBe(0);
		// a rejected request does not burn the key
		expect((await post(sb, '/transfers', 'k-json', { amount: 1 })).status).toBe(201);
	});

	it('creates exactly one record for 20 concurrent requests with one key', async () => {
		const results = await Promise.all(Array.from({ length: 20 }, () => post(sb, '/transfers', 'k-race', { amount: 7 })));
		const bodies = await Promise.all(results.map((r) => r.json()));
		expect(results.every((r) => r.status === 201)).toBe(true);
		expect(new Set(bodies.map((b) => b.id))).toEqual(new Set(['rec_1']));
		expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
		expect(sb.stats()).toMatchObject({ records: 1, replays: 19 });
	});

	it('lists created records per collection, patches and deletes them, and 405s other methods', async () => {
		await post(sb, '/transfers', 'a', { n: 1 });
		await post(sb, '/transfers', 'b', { n: 2 });
		await post(sb, '/payouts', 'c', { n: 3 });
		const list = await (await api(sb, '/transfers')).json();
		expect((list as { data: CreatedRecord[] }).data.map((r) => r.n)).toEqual([1, 2]);
		const patch = await api(sb, '/transfers/rec_1', {
			method: 'PATCH',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ n: 10, id: 'forged' }),
		});
		expect(await patch.json()).toMatchObject({ id: 'rec_1', n: 10 });
		const del = await api(sb, '/transfers/rec_2', { method: 'DELETE' });
		expect(await del.json()).toEqual({ id: 'rec_2', object: 'transfers', deleted: true });
		expect((await api(sb, '/transfers/rec_2', { method: 'DELETE' })).status).toBe(404);
		expect((await api(sb, '/payouts/rec_1', { method: 'DELETE' })).status).toBe(404);
		expect(sb.records().map((r) => r.id)).toEqual(['rec_1', 'rec_3']);
		const put = await api(sb, '/transfers/rec_1', {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ m: 1 }),
		});
		const replaced = await put.json();
		expect(replaced).toMatchObject({ id: 'rec_1', m: 1 });
		expect(replaced).not.toHaveProperty('n');
		const head = await api(sb, '/transfers', { method: 'HEAD' });
		expect(head.status).toBe(405);
	});

	it('413 for a body above maxBodyBytes', async () => {
		const small = await startSandbox({ maxBodyBytes: 100 });
		try {
			const res = await fetch(small.baseUrl + '/transfers', {
				method: 'POST',
				headers: { 'Api-Key': small.apiKey, 'Idempotency-Key': 'big' },
				body: JSON.stringify({ pad: 'x'.repeat(500) }),
			});
			expect(res.status).toBe(413);
			expect(small.stats().records).toBe(0);
		} finally {
			await small.close();
		}
	});
});
