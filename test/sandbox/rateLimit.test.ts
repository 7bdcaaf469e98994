/** The sandbox's rate limit (token bucket per key, 429 + Retry-After, optional headers) and latency. */
import { KeyRateLimit, Latency } from '../../sandbox/rateLimit';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { api, control, post } from './helpers';

describe('token bucket per API key (pure, time given)', () => {
	it('lets a burst through, then refuses with Retry-After in whole seconds until a token is back', () => {
		const limit = new KeyRateLimit({ perSecond: 50, burst: 10 });
		const verdicts = Array.from({ length: 12 }, () => limit.take('key', 1000));
		expect(verdicts.map((v) => v?.ok)).toEqual([...Array(10).fill(true), false, false]);
		expect(verdicts[10]).toEqual({ ok: false, retryAfterSeconds: 1, headers: {} });
		expect(limit.refused).toBe(2);
		// 20 ms later one token is back; 100 ms later five.
		expect(limit.take('key', 1020)?.ok).toBe(true);
		expect(limit.take('key', 1020)?.ok).toBe(false);
		expect(Array.from({ length: 6 }, () => limit.take('key', 1120)?.ok)).toEqual([true, true, true, true, true, false]);
	});

	it('keeps one bucket per key', () => {
		const limit = new KeyRateLimit({ perSecond: 1, burst: 1 });
		expect(limit.take('a', 0)?.ok).toBe(true);
		expect(limit.take('a', 0)?.ok).toBe(false);
		expect(limit.take('b', 0)?.ok).toBe(true);
	});

	it('asks for a longer Retry-After when tokens come slowly', () => {
		const limit = new KeyRateLimit({ perSecond: 0.1, burst: 1 });
		limit.take('a', 0);
		expect(limit.take('a', 0)?.retryAfterSeconds).toBe(10);
		expect(limit.take('a', 4000)?.retryAfterSeconds).toBe(6);
	});

	it('sends RateLimit-* headers (IETF draft) or X-RateLimit-* with a Unix-time Reset', () => {
		const ietf = new KeyRateLimit({ perSecond: 50, burst: 10, headers: true });
		expect(ietf.take('a', 0)?.headers).toEqual({
			'ratelimit-limit': '50',
			'ratelimit-remaining': '9',
			'ratelimit-reset': '1',
			'ratelimit-policy': '50;w=1;burst=10',
		});
		const x = new KeyRateLimit({ perSecond: 50, burst: 10, headers: 'x' });
		expect(x.take('a', 1_800_000_000_000)?.headers).toEqual({
			'x-ratelimit-limit': '50',
			'x-ratelimit-remaining': '9',
			'x-ratelimit-reset': '1800000001',
		});
	});

	it('is off without a configuration, and refuses nonsense', () => {
		expect(new KeyRateLimit(undefined).take('a')).toBeNull();
		expect(new KeyRateLimit({}).config).toBeNull();
		expect(() => new KeyRateLimit({ perSecond: 0 })).toThrow('perSecond must be a number >= 0.001');
		expect(() => new KeyRateLimit({ perSecond: 5, headers: 'yes' })).toThrow('headers must be one of ietf, x, true or false');
	});

	it('latency: fixed plus up to the jitter', () => {
		const latency = new Latency({ fixedMs: 40, jitterMs: 10 });
		const samples = Array.from({ length: 200 }, () => latency.nextMs());
		expect(Math.min(...samples)).toBeGreaterThanOrEqual(40);
		expect(Math.max(...samples)).toBeLessThan(50);
		expect(new Set(samples).size).toBeGreaterThan(100);
		expect(new Latency(undefined).nextMs()).toBe(0);
	});
});

describe('sandbox API with a rate limit and latency', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		// One request per 100 s after the burst: no token comes back while the test runs.
		sb = await startSandbox({ rateLimit: { perSecond: 0.01, burst: 3, headers: 'ietf' }, latency: { fixedMs: 30 } });
	});
	afterAll(() => sb.close());
	beforeEach(() => sb.reset());

	it('answers 429 with Retry-After and the API error shape once the burst is spent; the refused POST creates nothing', async () => {
		for (let i = 0; i < 3; i++) expect((await post(sb, '/transfers', `k${i}`, { i })).status).toBe(201);
		const refused = await post(sb, '/transfers', 'k3', { i: 3 });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('100');
		expect(refused.headers.get('ratelimit-remaining')).toBe('0');
		expect(refused.headers.get('ratelimit-policy')).toBe('0.01;w=1;burst=3');
		expect(await refused.json()).toEqual({ error: { code: 'rate_limited', message: 'Too many requests: 0.01 per second are allowed for this key' } });
		expect(sb.stats()).toMatchObject({ records: 3, rateLimited: 1, requests: 4 });
	});

	it('sends the rate-limit headers on successful answers too, and a reset refills the bucket', async () => {
		const first = await api(sb, '/accounts?limit=1');
		expect(first.status).toBe(200);
		expect(first.headers.get('ratelimit-remaining')).toBe('2');
		sb.reset();
		expect((await api(sb, '/accounts?limit=1')).headers.get('ratelimit-remaining')).toBe('2');
	});

	it('requests without a valid key get 401 and take nothing from the bucket', async () => {
		expect((await fetch(sb.baseUrl + '/accounts')).status).toBe(401);
		expect((await api(sb, '/accounts')).headers.get('ratelimit-remaining')).toBe('2');
	});

	it('every answer waits the latency', async () => {
		const started = Date.now();
		await api(sb, '/accounts?limit=1');
		expect(Date.now() - started).toBeGreaterThanOrEqual(30);
	});

	it('control endpoints read and replace the rate limit and latency; bad values are a 400', async () => {
		expect(await (await control(sb, 'rate-limit')).json()).toEqual({ rateLimit: { perSecond: 0.01, burst: 3, headers: 'ietf' } });
		expect(await (await control(sb, 'rate-limit', { perSecond: 100, burst: 20, headers: 'x' })).json()).toEqual({
			ok: true,
			rateLimit: { perSecond: 100, burst: 20, headers: 'x' },
		});
		expect((await api(sb, '/accounts?limit=1')).headers.get('x-ratelimit-remaining')).toBe('19');
		expect(await (await control(sb, 'latency', { fixedMs: 5, jitterMs: 2 })).json()).toEqual({ ok: true, latency: { fixedMs: 5, jitterMs: 2 } });
		expect(await (await control(sb, 'latency')).json()).toEqual({ fixedMs: 5, jitterMs: 2 });
		const bad = await control(sb, 'rate-limit', { perSecond: -1 });
		expect(bad.status).toBe(400);
		expect((await bad.json()).error.message).toBe('perSecond must be a number >= 0.001');
		expect((await control(sb, 'latency', { fixedMs: 'slow' })).status).toBe(400);
		// null turns the limit off.
		expect(await (await control(sb, 'rate-limit', null)).json()).toEqual({ ok: true, rateLimit: null });
		expect((await api(sb, '/accounts?limit=1')).headers.get('x-ratelimit-remaining')).toBeNull();
		sb.setRateLimit({ perSecond: 0.01, burst: 3, headers: 'ietf' });
		sb.setLatency({ fixedMs: 30 });
	});
});
