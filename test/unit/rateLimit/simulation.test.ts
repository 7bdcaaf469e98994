/**
 * Whole runs on a simulated clock against a simulated token-bucket API (simulatedApi.ts, the sandbox's
 * rules): one process's governor shared by its runs, as in n8n. Simulated time is exact and seeded, so
 * the figures asserted here are the same on every machine; timing on a real machine is the benchmarks'.
 */
import { mapWithConcurrency } from '../../../nodes/TenantApi/actions/common/runItems';
import { RateGovernor } from '../../../nodes/TenantApi/transport/rateLimit/governor';
import { RateLimitWaitExceeded } from '../../../nodes/TenantApi/transport/rateLimit/runLimiter';
import { createPrng } from '../../../sandbox/prng';
import type { SimulatedApiOptions } from '../../harness/rateLimit/simulatedApi';
import { Simulation, simulate } from '../../harness/rateLimit/simulation';
import { runQueue } from '../../harness/rateLimit/workers';

/** The benchmark's API: 50 requests/s per key, bursts of 10, 40 ms to answer (+ up to 10 ms). */
const BENCH_API = { perSecond: 50, burst: 10, latencyMs: 40, jitterMs: 10 };
/** Its conditions: timers on time; up to 5 ms late; the first requests arriving late and timers up to 10 ms late. */
const CONDITIONS = [
	{ name: 'timers on time', api: {}, timerLateMs: 0 },
	{ name: 'timers up to 5 ms late', api: {}, timerLateMs: 5 },
	{
		name: 'first 5 requests 50 ms late, timers up to 10 ms late',
		api: { jitterMs: 0, coldArrival: { count: 5, extraMs: 50 } },
		timerLateMs: 10,
	},
];

/**
 * `count` executions of one item each, `atOnce` at a time, spread over one process per governor (queue
 * mode: one per worker). Also counts, per worker, the executions that ended in the second half.
 */
async function executions(
	simulation: Simulation,
	count: number,
	atOnce: number,
	governors: RateGovernor[],
	perSecond: number,
) {
	let next = 0;
	let failed = 0;
	const startedAt = simulation.clock.now();
	const secondHalf = governors.map(() => 0);
	const halfMs = (count / perSecond / 2) * 1000;
	// A worker takes the next execution when one of its slots is free, as n8n's queue hands out jobs.
	const worker = async (governor: RateGovernor, index: number) =>
		await mapWithConcurrency(
			Math.ceil(atOnce / governors.length),
			Math.ceil(atOnce / governors.length),
			async () => {
				while (next < count) {
					next++;
					failed += (await simulation.run(1, 1, {}, governor)).failedItems;
					if (simulation.clock.now() - startedAt > halfMs) secondHalf[index]++;
				}
			},
		);
	await simulation.settle(Promise.all(governors.map(worker)));
	return { elapsedMs: simulation.clock.now() - startedAt, failed, secondHalf };
}

describe('rate limit: whole runs against a simulated rate-limited API', () => {
	describe.each([5, 16])(
		'one run of 500 POSTs at Concurrency %i, then the same run again in the same process',
		(concurrency) => {
			const runs = CONDITIONS.flatMap((condition) =>
				[1, 2, 3].map((seed) => ({ ...condition, seed })),
			);
			it.each(runs.map((run) => [`${run.name}, seed ${run.seed}`, run]))(
				'%s: ≤ 1.10× the floor, ≤ 1.05 requests per item; again: ≤ 1.03×, at most one 429',
				async (_, { api, timerLateMs, seed }) => {
					const simulation = new Simulation({ ...BENCH_API, ...api }, seed, timerLateMs);
					const first = await simulation.settle(simulation.run(500, concurrency));
					expect(first.failedItems).toBe(0);
					expect(first.requests / 500).toBeLessThanOrEqual(1.05);
					expect(first.elapsedMs / 10_000).toBeLessThanOrEqual(1.1);
					await simulation.idle(500);
					const again = await simulation.settle(simulation.run(500, concurrency));
					expect(again.failedItems).toBe(0);
					expect(again.refused).toBeLessThanOrEqual(1);
					expect(again.elapsedMs / 10_000).toBeLessThanOrEqual(1.03);
				},
			);

			it.each([undefined, 'ietf', 'x'] as const)(
				'2,000 POSTs (rate-limit headers: %s): ≤ 1.05× the floor, ≤ 1.02 requests per item',
				async (headers) => {
					const run = await simulate(2000, concurrency, { ...BENCH_API, headers });
					expect(run.failedItems).toBe(0);
					expect(run.requests / 2000).toBeLessThanOrEqual(1.02);
					expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.05);
				},
			);

			it('with Max Requests per Second at the API limit: not a single 429', async () => {
				const run = await simulate(2000, concurrency, BENCH_API, { maxRequestsPerSecond: 50 });
				expect(run.refused).toBe(0);
				expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.01);
			});
		},
	);

	it('two runs share the governor: the second sends no 429, where a run with a governor of its own does', async () => {
		const simulation = new Simulation(BENCH_API, 4);
		const first = await simulation.settle(simulation.run(300, 16));
		expect(first.refused).toBeGreaterThan(0);
		await simulation.idle(2000);
		const second = await simulation.settle(simulation.run(100, 16));
		expect(second.refused).toBe(0);
		await simulation.idle(2000);
		const alone = await simulation.settle(simulation.run(100, 16, {}, new RateGovernor()));
		expect(alone.refused).toBeGreaterThanOrEqual(6);
	});

	it('two runs at the same time share it too: together as fast as one run of both, ≤ 1.05 requests per item', async () => {
		const simulation = new Simulation(BENCH_API, 5);
		const [a, b] = await simulation.settle(
			Promise.all([simulation.run(250, 5), simulation.run(250, 16)]),
		);
		expect(a.failedItems + b.failedItems).toBe(0);
		expect(simulation.requests / 500).toBeLessThanOrEqual(1.05);
		expect(Math.max(a.elapsedMs, b.elapsedMs) / 10_000).toBeLessThanOrEqual(1.1);
	});

	it.each(
		[
			[1, 1.15, 1.1],
			[2, 1.3, 1.3],
		].flatMap(([workers, floor, requests]) =>
			[1, 2, 3].map((seed) => [workers, floor, requests, seed]),
		),
	)(
		'300 executions of one item, 25 at once, against 10 requests/s, %i worker(s) with a governor each: ≤ %d× the floor, ≤ %d requests per item, every worker gets a share (seed %i)',
		async (workers, floor, requests, seed) => {
			const simulation = new Simulation(
				{ perSecond: 10, burst: 10, latencyMs: 60, jitterMs: 20 },
				seed,
			);
			const governors = [simulation.governor];
			if (workers === 2) governors.push(new RateGovernor(simulation.random));
			const { elapsedMs, failed, secondHalf } = await executions(
				simulation,
				300,
				25,
				governors,
				10,
			);
			expect(failed).toBe(0);
			expect(simulation.requests / 300).toBeLessThanOrEqual(requests);
			expect(elapsedMs / 30_000).toBeLessThanOrEqual(floor);
			// No worker is starved: each ran at least a quarter of the executions of the second half.
			const total = secondHalf.reduce((sum, n) => sum + n, 0);
			expect(Math.min(...secondHalf) / total).toBeGreaterThanOrEqual(0.25);
		},
	);

	it.each([
		[8, 10, 10],
		[32, 50, 10],
	])(
		'queue mode, %i workers with a governor each against %i requests/s (burst %i), executions of 20 items at Concurrency 5 from a queue ahead of the API: ≤ 1.10 requests per item, ≤ 1.05× the floor, no worker 10 s without an accepted answer, every item once',
		async (workers, perSecond, burst) => {
			const simulation = new Simulation({ perSecond, burst, latencyMs: 40 }, 1);
			const executions = (perSecond * 300) / 20;
			const run = await runQueue(simulation, {
				workers,
				executions,
				itemsPerExecution: 20,
				concurrency: 5,
				client: 'governor',
			});
			expect(run.requests / run.items).toBeLessThanOrEqual(1.1);
			expect(run.elapsedMs / run.floorMs).toBeLessThanOrEqual(1.05);
			expect(Math.max(...run.workers.map((worker) => worker.longestGapMs))).toBeLessThan(10_000);
			expect(run.failedItems).toBe(0);
			expect(run.accepted).toBe(run.queuedItems);
		},
	);

	it('the hot loop (every answer 429 with Retry-After: 0, Retry Base Delay 0) ends by Max Rate-Limit Wait, at a handful of requests per second', async () => {
		const simulation = new Simulation(
			{ perSecond: 50, burst: 10, latencyMs: 40, refuseAllWithRetryAfterS: 0 },
			1,
		);
		const run = await simulation.settle(
			simulation.run(16, 16, { basePauseMs: 0, maxWaitMs: 20_000 }),
		);
		expect(run.failedItems).toBe(16);
		expect(run.errors.every((error) => error instanceof RateLimitWaitExceeded)).toBe(true);
		expect(run.elapsedMs).toBeLessThan(30_000);
		// The first wave goes out at once (nothing is known yet); after it, at most 5 requests in any second.
		const arrivals = simulation.api.arrivals.filter((at) => at >= 1000);
		const busiestSecond = Math.max(
			...arrivals.map((from) => arrivals.filter((at) => at >= from && at < from + 1000).length),
		);
		expect(busiestSecond).toBeLessThanOrEqual(5);
		expect(simulation.requests).toBeLessThanOrEqual(16 + 2 * 20);
	});

	it('over seeded limits, bursts, latencies and concurrencies: every item goes through, refused requests stay bounded, the next run in the same process within 1.25× the floor', async () => {
		const draw = createPrng(2024);
		const pick = <T>(values: T[]): T => values[Math.floor(draw() * values.length)];
		for (let i = 0; i < 40; i++) {
			const api: Omit<SimulatedApiOptions, 'random'> = {
				perSecond: pick([1, 2, 5, 10, 20, 50, 100, 200]),
				burst: pick([1, 2, 5, 10, 20, 50]),
				latencyMs: pick([20, 40, 100, 300]),
			};
			api.jitterMs = api.latencyMs / 4;
			const concurrency = pick([1, 2, 5, 16, 32, 64]);
			const items = Math.max(100, 15 * api.perSecond);
			const label = `${JSON.stringify(api)}, Concurrency ${concurrency}, ${items} items`;
			const meanLatencyMs = api.latencyMs * 1.125;
			// The API's limit (its burst used at once) or the concurrency, whichever allows less.
			const floorMs =
				Math.max(
					((items - api.burst) / api.perSecond) * 1000,
					(items / concurrency) * meanLatencyMs,
				) + meanLatencyMs;
			const simulation = new Simulation(api, i + 1);
			const first = await simulation.settle(simulation.run(items, concurrency));
			await simulation.idle(2000);
			const again = await simulation.settle(simulation.run(items, concurrency));
			// A first wave of up to Concurrency requests may all be refused; after it, a 429 now and then (most often
			// against APIs of a request or two per second, where probing above the rate costs more, relatively).
			expect({
				label,
				failed: first.failedItems + again.failedItems,
				excess: first.requests - items <= 0.4 * items + concurrency,
				slow: first.elapsedMs / floorMs <= 1.7,
				slowAgain: again.elapsedMs / floorMs <= 1.25,
			}).toEqual({ label, failed: 0, excess: true, slow: true, slowAgain: true });
		}
	});

	it('without a rate limit it adds no wait: the Concurrency option alone sets the pace', async () => {
		const run = await simulate(300, 4, { perSecond: 1000, burst: 1000, latencyMs: 40 }, {}, 7);
		expect(run.refused).toBe(0);
		expect(run.simulation.api.peakInFlight).toBe(4);
		// 300 items, 4 at a time, 40 ms each: exactly 75 rounds.
		expect(run.elapsedMs).toBe(75 * 40);
	});

	it('no item fails while the API keeps answering, however slow its limit and with a burst of one', async () => {
		const run = await simulate(100, 16, { perSecond: 2, burst: 1, latencyMs: 40 }, {}, 3);
		expect(run.failedItems).toBe(0);
		expect(run.simulation.api.accepted).toBe(100);
		expect(run.requests).toBeLessThan(150);
	});

	it('items whose wait does not fit in Max Rate-Limit Wait fail with the error that says so; the others are sent', async () => {
		// One request per minute: after the first, the API asks for a minute, more than the 30 s allowed.
		const run = await simulate(
			5,
			1,
			{ perSecond: 1 / 60, burst: 1, latencyMs: 40 },
			{ maxWaitMs: 30_000 },
			1,
		);
		expect(run.simulation.api.accepted).toBe(1);
		expect(run.failedItems).toBe(4);
		expect(run.errors[0]).toBeInstanceOf(RateLimitWaitExceeded);
		expect((run.errors[0] as RateLimitWaitExceeded).askedMs).toBe(60_000);
		expect(run.elapsedMs).toBeLessThan(30_000);
	});
});
