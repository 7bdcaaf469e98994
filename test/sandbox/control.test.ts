/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { api, post, control } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ accounts: 10 });
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb, 'reset', {});
	await control(sb, 'pagination', { mode: 'cursor' });
});

describe('/_sandbox control endpoints (no auth)', () => {
	it('GET /_sandbox/stats counts requests per route and idempotency outcomes', async () => {
		await api(sb, '/accounts');
		await api(sb, '/accounts?limit=1');
		await post(sb, '/transfers', 'a', { x: 1 });
		await post(sb, '/transfers', 'a', { x: 1 });
		await post(sb, '/transfers', 'a', { x: 2 });
		await post(sb, '/transfers', 'b', { x: 1 });
		await api(sb, '/transfers/rec_1');
		await fetch(sb.baseUrl + '/accounts'); // 401 still counts as a request
		const res = await fetch(sb.url + '/_sandbox/stats');
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({
			requests: 8,
			byRoute: { 'GET /v1/accounts': 3, 'POST /v1/transfers': 4, 'GET /v1/transfers/:id': 1 },
			records: 2,
			distinctIdempotencyKeys: 2,
			replays: 1,
			conflicts: 1,
			answersCutShort: 0,
			postsInProgress: 0,
			inFlight: 0,
			peakInFlight: 1,
			faultsInjected: 0,
			rateLimited: 0,
			deliveries: { attempts: 0, succeeded: 0, failed: 0, pending: 0 },
		});
	});

	it('GET /_sandbox/records lists created records; POST /_sandbox/reset forgets records, keys, stats and faults', async () => {
		await post(sb, '/transfers', 'r1', { x: 1 });
		await control(sb, 'faults', [{ path: '/v1/accounts', action: { status: 503 } }]);
		const records = await (await control(sb, 'records')).json();
		expect(records.count).toBe(1);
		expect(records.data[0]).toMatchObject({ id: 'rec_1', idempotency_key: 'r1', x: 1 });

		expect(await (await control(sb, 'reset', {})).json()).toEqual({ ok: true });
		expect(await (await control(sb, 'records')).json()).toEqual({ data: [], count: 0 });
		expect((await api(sb, '/accounts')).status).toBe(200);
		const again = await post(sb, '/transfers', 'r1', { x: 99 });
		expect(again.status).toBe(201);
		expect((await again.json()).id).toBe('rec_1');
		const stats = await (await control(sb, 'stats')).json();
		expect(stats).toMatchObject({ requests: 2, records: 1, replays: 0, conflicts: 0, faultsInjected: 0 });
	});

	it('POST /_sandbox/faults replaces the rules; GET returns them; bad rules are a 400', async () => {
		const rules = [{ method: 'GET', times: 2, action: { status: 500 } }];
		expect(await (await control(sb, 'faults', rules)).json()).toEqual({ ok: true, rules: 1 });
		expect(await (await control(sb, 'faults')).json()).toEqual({ rules });
		expect((await api(sb, '/accounts')).status).toBe(500);
		await control(sb, 'faults', []);
		expect((await api(sb, '/accounts')).status).toBe(200);
		const bad = await control(sb, 'faults', [{ action: { status: 'abc' } }]);
		expect(bad.status).toBe(400);
		expect((await bad.json()).error.code).toBe('invalid_config');
		expect((await (await control(sb, 'stats')).json()).faultsInjected).toBe(1);
	});

	it('POST /_sandbox/pagination switches the listing shape; unknown modes are a 400', async () => {
		expect(await (await control(sb, 'pagination', { mode: 'array' })).json()).toEqual({ ok: true, mode: 'array' });
		const body = await (await api(sb, '/accounts')).json();
		expect(Array.isArray(body)).toBe(true);
		expect(body).toHaveLength(10);
		expect((await (await control(sb, 'pagination')).json()).mode).toBe('array');
		expect((await control(sb, 'pagination', { mode: 'bogus' })).status).toBe(400);
	});

	it('GET/POST /_sandbox/webhook reads and replaces the config', async () => {
		const res = await control(sb, 'webhook', { url: 'http://127.0.0.1:1/hook', secrets: ['a', 'b'], scheme: 'hmac-sha512-hex', timestamp: true, maxAttempts: 5, retryDelayMs: 10 });
		expect(res.status).toBe(200);
		expect(await (await control(sb, 'webhook')).json()).toEqual({
			url: 'http://127.0.0.1:1/hook', secrets: ['a', 'b'], scheme: 'hmac-sha512-hex', timestamp: true, maxAttempts: 5, retryDelayMs: 10, timeoutMs: 5000, signedUrl: null, bodyFormat: null,
		});
		expect((await control(sb, 'webhook', { url: 'ftp://x' })).status).toBe(400);
		await control(sb, 'webhook', { url: null });
		expect((await (await control(sb, 'webhook')).json()).url).toBeNull();
	});

	it('answers 400 on invalid JSON, 404 on unknown control routes, lists endpoints at /_sandbox', async () => {
		const bad = await fetch(sb.url + '/_sandbox/faults', { method: 'POST', body: '[{' });
		expect(bad.status).toBe(400);
		expect((await bad.json()).error.code).toBe('invalid_json');
		expect((await control(sb, 'nope')).status).toBe(404);
		const index = await (await fetch(sb.url + '/_sandbox')).json();
		expect(Object.keys(index.endpoints)).toContain('GET /_sandbox/stats');
		expect((await fetch(sb.url + '/elsewhere')).status).toBe(404);
	});
});

describe('lifecycle', () => {
	it('starts fast and close() ends keep-alive connections and pending delayed answers', async () => {
		const t0 = Date.now();
		const other = await startSandbox();
		expect(Date.now() - t0).toBeLessThan(500);
		expect((await fetch(other.baseUrl + '/accounts', { headers: { 'Api-Key': other.apiKey } })).status).toBe(200);
		other.setFaults([{ action: { delayMs: 10_000 } }]);
		const pending = fetch(other.baseUrl + '/accounts', { headers: { 'Api-Key': other.apiKey } });
		await new Promise((r) => setTimeout(r, 50));
		const t1 = Date.now();
		await other.close();
		expect(Date.now() - t1).toBeLessThan(500);
		await expect(pending).rejects.toThrow();
		await expect(fetch(other.baseUrl + '/accounts')).rejects.toThrow();
	});
});
