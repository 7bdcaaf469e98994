/**
 * Whole runs on a simulated clock: N items through one RateLimiter against a simulated token-bucket API
 * (simulatedApi.ts, the sandbox's rules). Simulated time is exact and seeded, so the figures asserted
 * here are the same on every machine.
 */
import { RateLimiter, RateLimitWaitExceeded } from '../../../nodes/TenantApi/transport/rateLimit/rateLimiter';
import { FakeClock } from './fakeClock';
import { DEFAULT_SETTINGS, simulate } from './simulation';

/** The benchmark's API: 50 requests/s per key, bursts of 10, 40 ms to answer (+ up to 10 ms). */
const BENCH_API = { perSecond: 50, burst: 10, latencyMs: 40, jitterMs: 10 };

describe('rate limiter: whole runs against a simulated rate-limited API', () => {
	describe.each([5, 16])('2,000 items at concurrency %i', (concurrency) => {
		it.each([1, 2, 3])('without rate-limit headers it learns the rate: ≤ 1.10× the floor, ≤ 1.05 requests per item, no item fails (seed %i)', async (seed) => {
			const run = await simulate(2000, concurrency, BENCH_API, {}, seed);
			expect(run.failedItems).toBe(0);
			expect(run.api.accepted).toBe(2000);
			expect(run.requests / 2000).toBeLessThanOrEqual(1.05);
			expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.1);
			expect(run.limiter.state.snapshot.estimate?.perSecond).toBeGreaterThan(48);
			expect(run.limiter.state.snapshot.estimate?.perSecond).toBeLessThan(52);
		});

		it.each(['ietf', 'x'] as const)('with %s rate-limit headers: ≤ 1.05× the floor, ≤ 1.01 requests per item', async (headers) => {
			const run = await simulate(2000, concurrency, { ...BENCH_API, headers });
			expect(run.failedItems).toBe(0);
			expect(run.requests / 2000).toBeLessThanOrEqual(1.01);
			expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.05);
		});

		it.each([1, 2, 3])('a slow start makes the first estimate low: the pace still finds the limit, ≤ 1.15× the floor (seed %i)', async (seed) => {
			// The first 20 answers take 100 ms longer (connections, JIT): at Concurrency 5 the first stretch is
			// slowed by the node itself and the first estimate comes out at ~34/s; the next stretch, paced by
			// the node from there, used to count as a measurement and settle the rate at 43/s (1.21× the floor).
			// Climbing from 34/s costs ~4 s: 1.11-1.13× at Concurrency 5, 1.08-1.09× at 16.
			const run = await simulate(2000, concurrency, { ...BENCH_API, coldStart: { count: 20, extraMs: 100 } }, {}, seed);
			expect(run.failedItems).toBe(0);
			expect(run.requests / 2000).toBeLessThanOrEqual(1.05);
			expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.15);
			expect(run.limiter.state.snapshot.estimate?.perSecond).toBeGreaterThanOrEqual(0.95 * BENCH_API.perSecond);
		});

		it.each([1, 2, 3])('two first stretches alike draw no line: the rough guess still lands ≤ 1.10× the floor, ≤ 1.05 requests per item (seed %i)', async (seed) => {
			// No latency jitter and the first 5 answers 40 ms late: at Concurrency 5 the first two stretches both
			// end after 160 ms with 18 accepted. What got through per second, pauses included, said 14/s, and the
			// stretches paced from there kept coming out alike: 1.76× the floor and 63 429s. The middle of that
			// lower bound and the upper bound each stretch sets (≥ 1 request of burst) says ~60/s.
			const run = await simulate(2000, concurrency, { ...BENCH_API, jitterMs: 0, coldStart: { count: 5, extraMs: 40 } }, {}, seed);
			expect(run.failedItems).toBe(0);
			expect(run.requests / 2000).toBeLessThanOrEqual(1.05);
			expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.1);
		});

		it('with Max Requests per Second at the API limit: not a single 429', async () => {
			const run = await simulate(2000, concurrency, BENCH_API, { maxRequestsPerSecond: 50 });
			expect(run.refused).toBe(0);
			expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.01);
		});
	});

	describe('over a grid of conditions: concurrency, latency jitter, cold starts, late timers', () => {
		const conditions = [5, 16].flatMap((concurrency) =>
			[0, 10].flatMap((jitterMs) =>
				[undefined, { count: 5, extraMs: 40 }, { count: 20, extraMs: 100 }].flatMap((coldStart) =>
					[1, 2].map((seed) => ({ concurrency, jitterMs, coldStart, seed })),
				),
			),
		);
		const label = ({ concurrency, jitterMs, coldStart, seed }: (typeof conditions)[number]) =>
			`concurrency ${concurrency}, jitter ${jitterMs} ms, cold start ${coldStart ? `${coldStart.count} × ${coldStart.extraMs} ms` : 'none'}, seed ${seed}`;

		it.each(conditions.map((condition) => [label(condition), condition]))('timers on time: ≤ 1.10× the floor, ≤ 1.05 requests per item, no item fails (%s)', async (_, condition) => {
			const run = await simulate(2000, condition.concurrency, { ...BENCH_API, jitterMs: condition.jitterMs, coldStart: condition.coldStart }, {}, condition.seed);
			expect(run.failedItems).toBe(0);
			expect(run.requests / 2000).toBeLessThanOrEqual(1.05);
			expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.1);
		});

		it.each([5, 16])('the first requests reach the API late, as on the benchmark (concurrency %i): ≤ 1.10× the floor, no item fails', async (concurrency) => {
			// The first 5 requests arrive 50 ms after they went out (connections being opened): the first stretch
			// tilts the first line (steep, small burst) and learning takes a fourth 429, as in the benchmark runs
			// over 1.10× (docs/benchmarks.md, issue 13, runs G-I); a fifth, late in the run, is what took them over.
			for (const seed of [1, 2, 3]) {
				const run = await simulate(2000, concurrency, { ...BENCH_API, coldArrival: { count: 5, extraMs: 50 } }, {}, seed);
				expect(run.failedItems).toBe(0);
				expect(run.requests / 2000).toBeLessThanOrEqual(1.05);
				expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.1);
			}
		});

		it.each(conditions.map((condition) => [label(condition), condition]))('timers up to 10 ms late (a loaded machine): ≤ 1.12× the floor, no item fails (%s)', async (_, condition) => {
			const run = await simulate(2000, condition.concurrency, { ...BENCH_API, jitterMs: condition.jitterMs, coldStart: condition.coldStart }, {}, condition.seed, 10);
			expect(run.failedItems).toBe(0);
			expect(run.requests / 2000).toBeLessThanOrEqual(1.05);
			expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.12);
		});
	});

	it('without a rate limit it adds no wait: the Concurrency option alone sets the pace', async () => {
		const run = await simulate(300, 4, { perSecond: 1000, burst: 1000, latencyMs: 40 }, {}, 7);
		expect(run.refused).toBe(0);
		expect(run.api.peakInFlight).toBe(4);
		// 300 items, 4 at a time, 40 ms each: exactly 75 rounds.
		expect(run.elapsedMs).toBe(75 * 40);
	});

	it('after 429s, fewer requests in flight, never more than the Concurrency option', async () => {
		const run = await simulate(2000, 16, BENCH_API, {}, 1);
		expect(run.api.peakInFlight).toBe(16);
		expect(run.limiter.state.snapshot.limit).toBeLessThanOrEqual(16);
		const afterLimit = await simulate(40, 16, { perSecond: 1, burst: 16, latencyMs: 40 }, {}, 1);
		expect(afterLimit.limiter.state.snapshot.limit).toBeLessThan(16);
	});

	it('no item fails while the API keeps answering, however slow its limit and with a burst of one', async () => {
		const run = await simulate(100, 16, { perSecond: 2, burst: 1, latencyMs: 40 }, {}, 3);
		expect(run.failedItems).toBe(0);
		expect(run.api.accepted).toBe(100);
		// Most 429s come from the first 16 requests, all sent at once against a burst of 1.
		expect(run.requests).toBeLessThan(150);
	});

	it('ends the items still waiting once the run has waited the maximum, and says so', async () => {
		// One request per minute: after the first, the API asks for a minute, more than the 30 s allowed.
		const run = await simulate(5, 1, { perSecond: 1 / 60, burst: 1, latencyMs: 40 }, { maxWaitMs: 30_000 }, 1);
		expect(run.api.accepted).toBe(1);
		expect(run.failedItems).toBe(4);
		expect(run.elapsedMs).toBeLessThan(30_000);
		const exhausted = run.limiter.state.exhausted;
		expect(exhausted?.maxWaitMs).toBe(30_000);
		expect(exhausted?.askedMs).toBe(60_000);
	});

	it('jitter: runs with different random draws resume after a 429 at different times', async () => {
		const resumes = new Set<number>();
		for (const seed of [1, 2, 3, 4, 5]) {
			const run = await simulate(12, 12, { perSecond: 1, burst: 10, latencyMs: 40 }, {}, seed);
			resumes.add(Math.round(run.limiter.state.snapshot.pausedUntil));
		}
		expect(resumes.size).toBe(5);
	});

	it('a retry after a 429 goes ahead of items that have not been sent yet', async () => {
		const clock = new FakeClock();
		const limiter = new RateLimiter({ ...DEFAULT_SETTINGS, maxConcurrency: 1 }, clock);
		const order: string[] = [];
		const first = await limiter.acquire();
		const waiting = Promise.resolve(limiter.acquire()).then(() => order.push('new item'));
		const retry = Promise.resolve(limiter.acquire(true)).then(() => order.push('retry'));
		limiter.release(first, { kind: 'accepted' });
		await retry;
		expect(order).toEqual(['retry']);
		void waiting;
	});

	it('the error says what the API asked, how long the run waited and the cap', () => {
		expect(new RateLimitWaitExceeded(598_000, 60_000, 600_000).message).toBe('60 s more asked, 598 s waited, 600 s allowed');
		expect(new RateLimitWaitExceeded(0, 1050, 600_000).message).toBe('1.1 s more asked, 0 s waited, 600 s allowed');
	});
});
