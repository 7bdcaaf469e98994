import { startSandbox, type Sandbox } from '../../sandbox/server';
import { api, post } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('fault actions', () => {
	it('status: answers the injected status before commit, with headers, then stops after `times`', async () => {
		sb.setFaults([{ method: 'POST', path: '/v1/transfers', times: 1, action: { status: 429, headers: { 'retry-after': '1' } } }]);
		const first = await post(sb, '/transfers', 'k1', { amount: 1 });
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('1');
		expect(await first.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
		expect(sb.stats().records).toBe(0);
		const retry = await post(sb, '/transfers', 'k1', { amount: 1 });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBeNull();
		expect(sb.stats()).toMatchObject({ records: 1, faultsInjected: 1 });
	});

	it('status with a custom body; method and path prefix filter what matches', async () => {
		sb.setFaults([{ method: 'GET', path: '/v1/accounts', action: { status: 500, body: { error: { code: 'boom', message: 'x' } } } }]);
		const res = await api(sb, '/accounts');
		expect(res.status).toBe(500);
		expect((await res.json()).error.code).toBe('boom');
		expect((await post(sb, '/transfers', 'k', {})).status).toBe(201);
		expect(sb.stats().faultsInjected).toBe(1);
	});

	it('dropBeforeCommit: the socket closes without an answer and nothing is stored', async () => {
		sb.setFaults([{ path: '/v1/transfers', times: 1, action: { dropBeforeCommit: true } }]);
		await expect(post(sb, '/transfers', 'k2', { amount: 2 })).rejects.toThrow();
		expect(sb.stats()).toMatchObject({ records: 0, distinctIdempotencyKeys: 0 });
		const retry = await post(sb, '/transfers', 'k2', { amount: 2 });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBeNull();
	});

	it('dropAfterCommit: exactly one record; the retry with the same key gets the replay', async () => {
		sb.setFaults([{ method: 'POST', firstAttemptPerKey: true, action: { dropAfterCommit: true } }]);
		await expect(post(sb, '/transfers', 'k3', { amount: 3 })).rejects.toThrow();
		expect(sb.stats().records).toBe(1);
		const retry = await post(sb, '/transfers', 'k3', { amount: 3 });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBe('true');
		expect((await retry.json()).id).toBe('rec_1');
		expect(sb.records()).toHaveLength(1);
		// firstAttemptPerKey: a new key is dropped again
		await expect(post(sb, '/transfers', 'k4', { amount: 4 })).rejects.toThrow();
		expect(sb.stats()).toMatchObject({ records: 2, replays: 1, faultsInjected: 2 });
	});

	it('delayMs: commits first, so a client that timed out and retries gets the replay', async () => {
		sb.setFaults([{ method: 'POST', times: 1, action: { delayMs: 400 } }]);
		await expect(post(sb, '/transfers', 'k5', { amount: 5 }, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
		const retry = await post(sb, '/transfers', 'k5', { amount: 5 });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBe('true');
		expect(sb.stats().records).toBe(1);
	});

	it('delayMs on a GET answers normally, just later', async () => {
		sb.setFaults([{ method: 'GET', action: { delayMs: 150 } }]);
		const t0 = Date.now();
		const res = await api(sb, '/accounts?limit=1');
		expect(res.status).toBe(200);
		expect((await res.json()).data[0].id).toBe('acc_0001');
		expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
	});

	it('htmlError: an HTML error page with that status', async () => {
		sb.setFaults([{ action: { htmlError: 502 } }]);
		const res = await api(sb, '/accounts');
		expect(res.status).toBe(502);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await res.text()).toContain('<h1>502 Error</h1>');
	});

	it('rawBody: arbitrary bytes, an empty 200, non-UTF-8 via base64, and a huge body via repeat', async () => {
		sb.setFaults([{ times: 1, action: { rawBody: '', status: 200 } }]);
		const empty = await api(sb, '/accounts');
		expect(empty.status).toBe(200);
		expect(empty.headers.get('content-type')).toMatch(/^application\/json/);
		expect(await empty.text()).toBe('');

		sb.setFaults([{ times: 1, action: { rawBodyBase64: Buffer.from([0xff, 0xfe, 0x7b]).toString('base64'), contentType: 'application/json', status: 200 } }]);
		const bin = Buffer.from(await (await api(sb, '/accounts')).arrayBuffer());
		expect([...bin]).toEqual([0xff, 0xfe, 0x7b]);

		sb.setFaults([{ times: 1, action: { rawBody: 'abcd', repeat: 1_000_000, contentType: 'text/plain' } }]);
		const huge = await api(sb, '/accounts');
		expect(huge.headers.get('content-length')).toBe('4000000');
		expect((await huge.arrayBuffer()).byteLength).toBe(4_000_000);
	});

	it('first matching rule wins; exhausted rules fall through', async () => {
		sb.setFaults([
			{ path: '/v1/accounts', times: 1, action: { status: 503 } },
			{ path: '/v1/accounts', times: 1, action: { status: 500 } },
		]);
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await api(sb, '/accounts')).status);
		expect(statuses).toEqual([503, 500, 200]);
	});

	it('maxPerKey: at most N faults per Idempotency-Key, so a client with N + 1 attempts always gets through', async () => {
		sb.setFaults([{ method: 'POST', maxPerKey: 2, action: { status: 500 } }]);
		const statuses = [];
		for (let i = 0; i < 4; i++) statuses.push((await post(sb, '/transfers', 'capped', { n: 1 })).status);
		expect(statuses).toEqual([500, 500, 201, 201]);
		expect((await post(sb, '/transfers', 'other-key', { n: 2 })).status).toBe(500);
		expect(sb.stats()).toMatchObject({ records: 1, replays: 1, faultsInjected: 3 });

		// With random faults too: only injected faults count against the cap.
		sb.reset();
		sb.setFaults({ random: { seed: 3, p500: 0.9 }, maxPerKey: 1 } as never);
		for (let k = 0; k < 20; k++) {
			const first = (await post(sb, '/transfers', `r-${k}`, { k })).status;
			const second = (await post(sb, '/transfers', `r-${k}`, { k })).status;
			expect([first, second]).toEqual(first === 201 ? [201, 201] : [500, 201]);
		}
		expect(sb.stats().records).toBe(20);
		expect(() => sb.setFaults([{ maxPerKey: -1, action: { status: 500 } }])).toThrow(/maxPerKey must be a number >= 0/);
	});

	it('auth is checked before faults', async () => {
		sb.setFaults([{ action: { status: 500 } }]);
		expect((await fetch(sb.baseUrl + '/accounts')).status).toBe(401);
		expect(sb.stats().faultsInjected).toBe(0);
	});

	it('rejects invalid rules without changing the current ones', async () => {
		sb.setFaults([{ times: 1, action: { status: 418 } }]);
		expect(() => sb.setFaults([{ action: { nonsense: true } } as never])).toThrow(/action must have one of/);
		expect((await api(sb, '/accounts')).status).toBe(418);
	});
});

async function statusesWith(rules: unknown, n: number): Promise<string[]> {
	sb.reset();
	sb.setFaults(rules as never);
	const out: string[] = [];
	for (let i = 0; i < n; i++) {
		try {
			const res = await post(sb, '/transfers', `rk-${i}`, { i });
			out.push(String(res.status));
			await res.arrayBuffer();
		} catch {
			out.push('drop');
		}
	}
	return out;
}

describe('seeded randomness', () => {
	it('probability with a seed is deterministic and not all-or-nothing', async () => {
		const rules = [{ method: 'POST', probability: 0.5, seed: 42, action: { status: 500 } }];
		const a = await statusesWith(rules, 30);
		const b = await statusesWith(rules, 30);
		expect(a).toEqual(b);
		const failures = a.filter((s) => s === '500').length;
		expect(failures).toBeGreaterThan(5);
		expect(failures).toBeLessThan(25);
		const c = await statusesWith([{ method: 'POST', probability: 0.5, seed: 7, action: { status: 500 } }], 30);
		expect(c).not.toEqual(a);
	});

	it('random mode: same seed -> same sequence of outcomes, all kinds appear, stats count them', async () => {
		const random = { seed: 1234, p500: 0.2, pDropAfterCommit: 0.15, p429: 0.15, retryAfterSeconds: 2, pSlow: 0.1, slowMs: 5 };
		const a = await statusesWith({ random }, 60);
		const statsA = sb.stats();
		const b = await statusesWith([{ random }], 60);
		expect(b).toEqual(a);
		expect(new Set(a)).toEqual(new Set(['201', '500', '429', 'drop']));
		const injected = a.filter((s) => s !== '201').length;
		expect(statsA.faultsInjected).toBeGreaterThanOrEqual(injected);
		// dropped-after-commit requests still created their record
		expect(statsA.records).toBe(a.filter((s) => s === '201' || s === 'drop').length);
	});

	it('random mode sends Retry-After on 429s', async () => {
		sb.setFaults({ random: { seed: 1, p429: 1, retryAfterSeconds: 3 } } as never);
		const res = await api(sb, '/accounts');
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBe('3');
	});
});
