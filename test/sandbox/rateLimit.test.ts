/**
 * The sandbox's rate limit as the rate-limit suites rely on it (test/engine/rateLimit.test.ts, the queue-mode
 * suite, npm run bench): a token bucket per key that lets exactly its rate through, 429 + Retry-After and the
 * optional headers, and a refused POST that creates nothing.
 */
import { KeyRateLimit } from '../../sandbox/rateLimit';
import { post, useSandbox } from './helpers';

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
		const later = Array.from({ length: 6 }, () => limit.take('key', 1120)?.ok);
		expect(later).toEqual([...Array(5).fill(true), false]);
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
		const ietf = new KeyRateLimit({ perSecond: 50, burst: 10, headers: 'ietf' });
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
});

describe('sandbox API with a rate limit', () => {
	// One request per 100 s after the burst: no token comes back while the test runs.
	const sb = useSandbox({ rateLimit: { perSecond: 0.01, burst: 3, headers: 'ietf' } });

	it('answers 429 with Retry-After and the API error shape once the burst is spent; the refused POST creates nothing', async () => {
		for (let i = 0; i < 3; i++)
			expect((await post(sb, '/transfers', `k${i}`, { i })).status).toBe(201);
		const refused = await post(sb, '/transfers', 'k3', { i: 3 });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('100');
		expect(refused.headers.get('ratelimit-remaining')).toBe('0');
		expect(refused.headers.get('ratelimit-policy')).toBe('0.01;w=1;burst=3');
		expect(await refused.json()).toEqual({
			error: {
				code: 'rate_limited',
				message: 'Too many requests: 0.01 per second are allowed for this key',
			},
		});
		expect(sb.stats()).toMatchObject({ records: 3, rateLimited: 1, requests: 4 });
	});
});
