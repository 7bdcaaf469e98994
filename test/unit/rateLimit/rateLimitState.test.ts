/** The shared state's decisions, one answer at a time, with time given by the test. */
import type { RateLimitSettings } from '../../../nodes/TenantApi/transport/rateLimit/rateLimitState';
import { RateLimitState } from '../../../nodes/TenantApi/transport/rateLimit/rateLimitState';

const settings = (overrides: Partial<RateLimitSettings> = {}): RateLimitSettings => ({
	maxConcurrency: 16,
	maxWaitMs: 600_000,
	basePauseMs: 500,
	maxPauseMs: 10_000,
	...overrides,
});

const limited = (retryAfterMs?: number) => ({ kind: 'limited' as const, retryAfterMs });
const accepted = { kind: 'accepted' as const };

describe('rate-limit state of one run', () => {
	it('a 429 pauses every item for its Retry-After, plus up to 10 % jitter', () => {
		for (const [random, expected] of [
			[0, 1000],
			[0.5, 1050],
			[1, 1100],
		]) {
			const state = new RateLimitState(settings(), () => random);
			const first = state.send(0);
			state.send(0);
			state.answer(40, first, limited(1000));
			expect(state.delayBeforeSend(40)).toBeCloseTo(expected, 6);
			expect(state.delayBeforeSend(40 + expected)).toBe(0);
		}
	});

	it('429s of requests sent before the pause extend it only to their own Retry-After, and count as one episode', () => {
		const state = new RateLimitState(settings(), () => 0);
		const tickets = [state.send(0), state.send(0), state.send(0)];
		state.answer(40, tickets[0], limited(1000));
		state.answer(45, tickets[1], limited(1000));
		state.answer(45, tickets[2], limited(500));
		expect(state.delayBeforeSend(45)).toBe(1000);
		expect(state.snapshot.limit).toBe(8);
		expect(state.snapshot.waitedMs).toBe(1005);
	});

	it('concurrency: halved by a 429, back up by one per `limit` answers, never above the option', () => {
		const state = new RateLimitState(settings({ maxConcurrency: 4 }), () => 0);
		const tickets = [0, 1, 2, 3].map(() => state.send(0));
		expect(state.delayBeforeSend(0)).toBeUndefined();
		state.answer(10, tickets[0], accepted);
		expect(state.snapshot.limit).toBe(4);
		state.answer(10, tickets[1], limited(100));
		expect(state.snapshot.limit).toBe(2);
		state.answer(20, tickets[2], accepted);
		state.answer(20, tickets[3], accepted);
		expect(state.snapshot.limit).toBeCloseTo(2 + 1 / 2 + 1 / 2.5, 6);
		expect(state.delayBeforeSend(200)).toBe(0);
		for (let i = 0; i < 100; i++) state.answer(300, state.send(300), accepted);
		expect(state.snapshot.limit).toBe(4);
	});

	it('Max Requests per Second spaces the requests', () => {
		const state = new RateLimitState(settings({ maxRequestsPerSecond: 10 }), () => 0);
		state.send(0);
		expect(state.delayBeforeSend(0)).toBeCloseTo(100, 6);
		expect(state.delayBeforeSend(60)).toBeCloseTo(40, 6);
		state.send(100);
		expect(state.delayBeforeSend(100)).toBeCloseTo(100, 6);
	});

	it('a RateLimit-Policy header sets the pace', () => {
		const state = new RateLimitState(settings(), () => 0);
		expect(state.snapshot.pace).toBeUndefined();
		state.answer(40, state.send(0), { kind: 'accepted', info: { remaining: 9, policy: { perSecond: 20, burst: 2 } } });
		expect(state.snapshot.pace).toEqual({ perSecond: 20, burst: 2, learned: false });
		const sendTimes: number[] = [];
		for (let now = 40; sendTimes.length < 6; now++) {
			if (state.delayBeforeSend(now) !== 0) continue;
			state.send(now);
			sendTimes.push(now);
		}
		const gaps = sendTimes.slice(1).map((time, i) => time - sendTimes[i]);
		expect(gaps.slice(-3)).toEqual([50, 50, 50]);
	});

	it('with Remaining, no more requests are in flight than the API has left', () => {
		const state = new RateLimitState(settings(), () => 0);
		const first = state.send(0);
		state.send(0);
		state.send(0);
		// The first answer says 2 were left after it; the two sent since use them up.
		state.answer(40, first, { kind: 'accepted', info: { remaining: 2 } });
		expect(state.delayBeforeSend(40)).toBeUndefined();
		expect(state.delayBeforeSend(40)).toBeUndefined();
	});

	it('Remaining 0 with a Reset pauses the run until the reset when no pace is known', () => {
		const state = new RateLimitState(settings(), () => 0);
		state.answer(40, state.send(0), { kind: 'accepted', info: { remaining: 0, resetMs: 3000 } });
		expect(state.delayBeforeSend(40)).toBe(3000);
		expect(state.snapshot.waitedMs).toBe(3000);
	});

	it('Remaining 0 with a known pace leaves the spacing to the pacer', () => {
		const state = new RateLimitState(settings({ maxRequestsPerSecond: 50 }), () => 0);
		state.answer(40, state.send(0), { kind: 'accepted', info: { remaining: 0, resetMs: 3000 } });
		expect(state.delayBeforeSend(40)).toBe(0);
		expect(state.snapshot.waitedMs).toBe(0);
	});

	it('without Retry-After: the base delay, doubled for each further 429 in a row', () => {
		const state = new RateLimitState(settings(), () => 0);
		state.answer(10, state.send(0), limited());
		expect(state.delayBeforeSend(10)).toBe(500);
		state.answer(520, state.send(510), limited());
		expect(state.delayBeforeSend(520)).toBe(1000);
		state.answer(1530, state.send(1520), accepted);
		state.answer(1540, state.send(1530), limited());
		expect(state.delayBeforeSend(1540)).toBe(500);
	});

	it('stops at the wait cap and says how long it waited and what the API asked', () => {
		const state = new RateLimitState(settings({ maxWaitMs: 5000 }), () => 0);
		state.answer(0, state.send(0), limited(3000));
		expect(state.exhausted).toBeUndefined();
		state.answer(3000, state.send(3000), limited(3000));
		expect(state.exhausted).toEqual({ waitedMs: 3000, askedMs: 3000, maxWaitMs: 5000 });
	});

	it('an attempt without an answer says nothing about the rate limit', () => {
		const state = new RateLimitState(settings(), () => 0);
		state.answer(10, state.send(0), { kind: 'unanswered' });
		expect(state.snapshot).toMatchObject({ inFlight: 0, limit: 16, waitedMs: 0 });
		expect(state.delayBeforeSend(10)).toBe(0);
	});

	it('learns burst and rate from the stretches between 429s, then paces at the rate', () => {
		const state = new RateLimitState(settings(), () => 0);
		// A token bucket of 10 refilled at 50/s lets 10 + 50 × t through before the first 429.
		let now = 0;
		const stretch = (count: number, elapsedMs: number) => {
			const tickets = Array.from({ length: count + 1 }, () => {
				const ticket = state.send(now);
				now += elapsedMs / count;
				return ticket;
			});
			tickets.slice(0, count).forEach((ticket) => state.answer(now, ticket, accepted));
			state.answer(now, tickets[count], limited(1000));
			now += 1000;
			expect(state.delayBeforeSend(now)).toBeGreaterThanOrEqual(0);
		};
		stretch(20, 200);
		// One stretch: at least 20 in the 1.21 s since it began, at most 19 beyond the first in 200 ms.
		expect(state.snapshot.estimate?.perSecond).toBeCloseTo((20 / 1.21 + 19 / 0.2) / 2, 6);
		expect(state.snapshot.estimate?.uncertainty).toBeCloseTo((19 / 0.2 - 20 / 1.21) / 2, 6);
		stretch(30, 400);
		expect(state.snapshot.estimate?.perSecond).toBeCloseTo(50, 6);
		stretch(110, 2000);
		const { estimate, pace } = state.snapshot;
		// The first (cold) stretch leaves the line; the other two settle it at 50/s ± 1 / 1.6 s, paced a quarter of that below.
		expect(estimate?.perSecond).toBeCloseTo(50 - 1 / 1.6 / 4, 6);
		expect(estimate?.burst).toBeCloseTo(10, 6);
		expect(pace?.perSecond).toBeCloseTo(50 - 1 / 1.6 / 4, 6);
	});

	it('after a pause taken while the learned rate was not settled, the next stretch starts without a burst', () => {
		const state = new RateLimitState(settings(), () => 0);
		const stretch = (from: number, count: number, spacingMs: number) => {
			const tickets = Array.from({ length: count + 1 }, (_, i) => state.send(from + i * spacingMs));
			const answeredAt = from + count * spacingMs + 40;
			tickets.slice(0, count).forEach((ticket) => state.answer(answeredAt, ticket, accepted));
			state.answer(answeredAt, tickets[count], limited(1000));
			return answeredAt + 1000;
		};
		// First stretch: 20 accepted in 200 ms. Its pause ends before anything is learned from it.
		const firstPauseEnd = stretch(0, 20, 10);
		expect(state.delayBeforeSend(firstPauseEnd)).toBe(0);
		// A rough guess now, not settled, with a burst of ~9; the second stretch is taken while it holds.
		expect(state.snapshot.estimate).toMatchObject({ settled: false, burst: expect.any(Number) });
		expect(state.snapshot.estimate?.burst).toBeGreaterThan(5);
		const secondPauseEnd = stretch(firstPauseEnd, 30, 13);
		expect(state.delayBeforeSend(secondPauseEnd)).toBe(0);
		state.send(secondPauseEnd);
		// The second request waits for the pace: no burst of 0.8 × the estimated one at the stretch's start.
		expect(state.delayBeforeSend(secondPauseEnd)).toBeGreaterThan(0);
	});

	it('counts every request accepted before the first refused one, however long the stretch, in flat memory', () => {
		const state = new RateLimitState(settings({ maxConcurrency: 64 }), () => 0);
		// 10,000 accepted, answered in order; then 64 in flight, the 10th of which is refused first.
		for (let i = 0; i < 10_000; i++) state.answer(i, state.send(i), accepted);
		const inFlight = Array.from({ length: 64 }, () => state.send(10_000));
		inFlight.slice(0, 9).forEach((ticket) => state.answer(10_040, ticket, accepted));
		state.answer(10_040, inFlight[9], limited(1000));
		inFlight.slice(10).forEach((ticket) => state.answer(10_041, ticket, accepted));
		state.delayBeforeSend(12_000);
		const [segment] = state.snapshot.segments;
		expect(segment).toMatchObject({ startedAt: 0, elapsedMs: 10_000, accepted: 10_009, cold: true });
		// The send times of the latest accepted requests, for the windows that end with the refused one.
		expect(segment.tailMs?.slice(0, 11)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
		expect(segment.tailMs?.length).toBeLessThanOrEqual(1024);
	});
});
