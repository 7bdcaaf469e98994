/**
 * The idempotency semantics the node's exactly-once guarantee relies on: a record per key, a replay of the same
 * key and body (in any key order), a 409 for the same key with another request, one record for concurrent
 * requests with one key. The rest of the API (reads, PUT/PATCH/DELETE, listings) is proven by the engine suites
 * that use it (test/engine/send.test.ts, collections.test.ts).
 */
import { post, useSandbox } from './helpers';

const sb = useSandbox();

describe('POST /v1/<any path>', () => {
	it('creates a record with 201 and the documented fields', async () => {
		const res = await post(sb, '/transfers', 'key-1', { amount: 1250, currency: 'EUR' });
		expect(res.status).toBe(201);
		expect(res.headers.get('idempotent-replayed')).toBeNull();
		const rec = await res.json();
		expect(rec).toMatchObject({
			id: 'rec_1',
			object: 'transfers',
			endpoint: '/transfers',
			idempotency_key: 'key-1',
			amount: 1250,
			currency: 'EUR',
		});
		const fields = 'id object endpoint idempotency_key amount currency created_at';
		expect(Object.keys(rec)).toEqual(fields.split(' '));
		expect(Number.isNaN(Date.parse(rec.created_at))).toBe(false);
		expect(sb.records()).toEqual([rec]);
	});

	it('replays the same key + same body (key order ignored) with Idempotent-Replayed: true', async () => {
		const first = await (
			await post(sb, '/transfers', 'key-2', { a: 1, b: { c: 2, d: [1, 2] } })
		).json();
		const again = await post(sb, '/transfers', 'key-2', { b: { d: [1, 2], c: 2 }, a: 1 });
		expect(again.status).toBe(201);
		expect(again.headers.get('idempotent-replayed')).toBe('true');
		expect(await again.json()).toEqual(first);
		expect(sb.stats()).toMatchObject({
			records: 1,
			distinctIdempotencyKeys: 1,
			replays: 1,
			conflicts: 0,
		});
	});

	it('answers 409 idempotency_key_reuse for the same key with a different body, or on a different endpoint', async () => {
		await post(sb, '/transfers', 'key-3', { amount: 1 });
		const res = await post(sb, '/transfers', 'key-3', { amount: 2 });
		expect(res.status).toBe(409);
		expect((await res.json()).error.code).toBe('idempotency_key_reuse');
		expect((await post(sb, '/payouts', 'key-3', { amount: 1 })).status).toBe(409);
		expect(sb.stats()).toMatchObject({ records: 1, conflicts: 2 });
	});

	it('creates exactly one record for 20 concurrent requests with one key', async () => {
		const results = await Promise.all(
			Array.from({ length: 20 }, () => post(sb, '/transfers', 'k-race', { amount: 7 })),
		);
		const bodies = await Promise.all(results.map((r) => r.json()));
		expect(results.every((r) => r.status === 201)).toBe(true);
		expect(new Set(bodies.map((b) => b.id))).toEqual(new Set(['rec_1']));
		expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
		expect(sb.stats()).toMatchObject({ records: 1, replays: 19 });
	});
});
