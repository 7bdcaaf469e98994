/** One run's side of the rate limit: its turns, the wait after a 429, Max Requests per Second, Max Rate-Limit Wait. */
import { RateGovernor } from '../../../nodes/TenantApi/transport/rateLimit/governor';
import type { RunLimitSettings } from '../../../nodes/TenantApi/transport/rateLimit/runLimiter';
import {
	RateLimitWaitExceeded,
	RunLimiter,
} from '../../../nodes/TenantApi/transport/rateLimit/runLimiter';
import { FakeClock } from '../../harness/rateLimit/fakeClock';
import { DEFAULT_SETTINGS } from '../../harness/rateLimit/simulation';

const limiterOn = (
	clock: FakeClock,
	settings: Partial<RunLimitSettings> = {},
	random = () => 0,
	governor = new RateGovernor(random),
) => new RunLimiter(governor, { ...DEFAULT_SETTINGS, ...settings }, clock, random);

/** How long `waitOut` sleeps, on a fake clock. */
async function waitOutMs(
	limiter: RunLimiter,
	clock: FakeClock,
	retryAfterMs: number | undefined,
	refusedInARow: number,
): Promise<number> {
	const from = clock.now();
	await clock.runUntilSettled(limiter.waitOut(retryAfterMs, refusedInARow));
	return clock.now() - from;
}

describe('rate limit of one run', () => {
	it('a refused request waits its Retry-After, plus up to 10 % jitter', async () => {
		for (const [random, expected] of [
			[0, 1000],
			[0.5, 1050],
			[1, 1100],
		]) {
			const clock = new FakeClock();
			expect(
				await waitOutMs(
					limiterOn(clock, {}, () => random),
					clock,
					1000,
					1,
				),
			).toBe(expected);
		}
	});

	it('never less than a floor of 100 ms that doubles while the same request keeps being refused, whatever Retry-After and the base delay say', async () => {
		const clock = new FakeClock();
		const limiter = limiterOn(clock, { basePauseMs: 0 });
		const waits: number[] = [];
		for (let refused = 1; refused <= 9; refused++)
			waits.push(await waitOutMs(limiter, clock, 0, refused));
		expect(waits).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000]);
		expect(await waitOutMs(limiter, clock, undefined, 3)).toBe(400);
	});

	it('without Retry-After: the Retry Base Delay, doubled for each further 429 of the request, up to 10 s', async () => {
		const clock = new FakeClock();
		const limiter = limiterOn(clock, { basePauseMs: 500, maxPauseMs: 10_000 });
		const waits: number[] = [];
		for (let refused = 1; refused <= 6; refused++)
			waits.push(await waitOutMs(limiter, clock, undefined, refused));
		expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 10_000]);
	});

	it('a wait that does not fit in what is left of Max Rate-Limit Wait fails at once, saying what the API asked, what was waited and the cap', async () => {
		const clock = new FakeClock();
		const limiter = limiterOn(clock, { maxWaitMs: 5000 });
		await clock.runUntilSettled(limiter.waitOut(3000, 1));
		const started = clock.now();
		const failure = await clock.runUntilSettled(
			limiter.waitOut(3000, 1).catch((error: Error) => error),
		);
		expect(failure).toBeInstanceOf(RateLimitWaitExceeded);
		expect((failure as Error).message).toBe('3 s more asked, 3 s waited, 5 s allowed');
		expect(clock.now()).toBe(started);
	});

	it('counts as held back only the time in which nothing of the run is in flight while it waits out a 429', async () => {
		const clock = new FakeClock();
		const limiter = limiterOn(clock, { maxWaitMs: 600_000 });
		const inFlight = await limiter.acquire();
		// One item waits out a 429 while another request of the run is on its way: the run is not held back.
		const waiting = limiter.waitOut(1000, 1);
		await clock.runUntilSettled(clock.sleep(400));
		expect(limiter.heldBackMs).toBe(0);
		limiter.release(inFlight, { kind: 'accepted' });
		await clock.runUntilSettled(waiting);
		expect(limiter.heldBackMs).toBe(600);
	});

	it('Max Requests per Second spaces the requests of the run', async () => {
		const clock = new FakeClock();
		const limiter = limiterOn(clock, { maxRequestsPerSecond: 10 });
		const sentAt: number[] = [];
		const run = Promise.all(
			Array.from({ length: 5 }, async () => {
				const ticket = await limiter.acquire();
				sentAt.push(clock.now());
				limiter.release(ticket, { kind: 'accepted' });
			}),
		);
		await clock.runUntilSettled(run);
		expect(sentAt).toEqual([0, 100, 200, 300, 400]);
	});

	it('a retry after a 429 goes ahead of items that have not been sent yet', async () => {
		const clock = new FakeClock();
		const limiter = limiterOn(clock, { maxRequestsPerSecond: 10 });
		const order: string[] = [];
		const first = await limiter.acquire();
		const fresh = Promise.resolve(limiter.acquire()).then(() => order.push('new item'));
		const retry = Promise.resolve(limiter.acquire(true)).then(() => order.push('retry'));
		limiter.release(first, { kind: 'accepted' });
		await clock.runUntilSettled(Promise.all([fresh, retry]));
		expect(order).toEqual(['retry', 'new item']);
	});

	it('items waiting for a pause of everything longer than what is left of Max Rate-Limit Wait fail with the pause as what was asked', async () => {
		const clock = new FakeClock();
		const governor = new RateGovernor(() => 0);
		const limiter = limiterOn(clock, { maxWaitMs: 5000 }, () => 0, governor);
		// The API says its quota is used up for a minute.
		const ticket = await limiter.acquire();
		limiter.release(ticket, { kind: 'accepted', info: { remaining: 0, resetMs: 60_000 } });
		const failure = await clock.runUntilSettled(
			Promise.resolve(limiter.acquire()).catch((error: Error) => error),
		);
		expect(failure).toBeInstanceOf(RateLimitWaitExceeded);
		expect((failure as RateLimitWaitExceeded).askedMs).toBe(60_000);
	});

	it('the error message rounds as a person reads it', () => {
		expect(new RateLimitWaitExceeded(598_000, 60_000, 600_000).message).toBe(
			'60 s more asked, 598 s waited, 600 s allowed',
		);
		expect(new RateLimitWaitExceeded(0, 1050, 600_000).message).toBe(
			'1.1 s more asked, 0 s waited, 600 s allowed',
		);
	});
});
