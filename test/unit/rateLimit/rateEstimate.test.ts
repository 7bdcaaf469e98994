import { estimateRate } from '../../../nodes/TenantApi/transport/rateLimit/rateEstimate';

describe('learning the rate from 429s', () => {
	it('needs two stretches of different lengths', () => {
		expect(estimateRate([], 0)).toBeUndefined();
		expect(estimateRate([{ startedAt: 0, elapsedMs: 0, accepted: 10 }], 2000)).toBeUndefined();
	});

	it('without a line (every stretch ends at once), takes what got through per second, pauses included, as a rough guess', () => {
		const segments = [0, 1000, 2000].map((startedAt) => ({ startedAt, elapsedMs: 0, accepted: 1 }));
		expect(estimateRate(segments, 3000)).toEqual({ perSecond: 1, burst: 1, uncertainty: 1 });
	});

	it('stretches alike in length draw no line: the middle of what got through, pauses included, and what each stretch allows', () => {
		// The first two stretches of a bench run at Concurrency 5 (50/s, burst 10): 19 accepted in 223 ms, 20 in 216 ms.
		const segments = [
			{ startedAt: 0, elapsedMs: 223, accepted: 19 },
			{ startedAt: 1323, elapsedMs: 216, accepted: 20 },
		];
		const lower = 39 / 2.697;
		const upper = 18 / 0.223;
		const estimate = estimateRate(segments, 2697);
		expect(estimate?.perSecond).toBeCloseTo((lower + upper) / 2, 6);
		expect(estimate?.uncertainty).toBeCloseTo((upper - lower) / 2, 6);
		expect(estimate?.burst).toBeCloseTo(19 - ((lower + upper) / 2) * 0.223, 6);
	});

	it('finds burst and rate of a token bucket: accepted = burst + rate × time', () => {
		const estimate = estimateRate(
			[
				{ startedAt: 0, elapsedMs: 0, accepted: 10 },
				{ startedAt: 1000, elapsedMs: 400, accepted: 30 },
				{ startedAt: 2400, elapsedMs: 2000, accepted: 110 },
			],
			5400,
		);
		expect(estimate?.perSecond).toBeCloseTo(50, 6);
		expect(estimate?.burst).toBeCloseTo(10, 6);
		// One request either way over the 2 s measured.
		expect(estimate?.uncertainty).toBeCloseTo(0.5, 6);
	});

	it('follows the latest stretches when the limit changes', () => {
		const stretches = (perSecond: number) => Array.from({ length: 6 }, (_, i) => ({ startedAt: 0, elapsedMs: 1000 * i, accepted: 10 + perSecond * i }));
		expect(estimateRate([...stretches(100), ...stretches(20)], 0)?.perSecond).toBeCloseTo(20, 6);
	});

	it('falls back to the rough guess when the line makes no sense (more accepted in less time)', () => {
		const segments = [
			{ startedAt: 0, elapsedMs: 100, accepted: 50 },
			{ startedAt: 1100, elapsedMs: 900, accepted: 5 },
		];
		expect(estimateRate(segments, 5000)).toEqual({ perSecond: 11, burst: 5, uncertainty: 11 });
	});

	it('leaves out a stretch the node paced itself from below the rate: the refused pace bounds the rate instead', () => {
		// Two short stretches say ~34/s; then the node paced from 36/s upward (+1.8/s every second) until the
		// API refused it at 55.6/s, after 508 accepted in 11 s. As a point on the line it would say 43/s.
		const paced = { perSecond: 55.6, startPerSecond: 36, growth: 1.8, burst: 11.7 };
		const segments = [
			{ startedAt: 0, elapsedMs: 713, accepted: 37 },
			{ startedAt: 1800, elapsedMs: 178, accepted: 18 },
			{ startedAt: 3000, elapsedMs: 11_085, accepted: 508, paced },
		];
		expect(estimateRate(segments.slice(0, 2), 3000)?.perSecond).toBeCloseTo(35.5, 0);
		const estimate = estimateRate(segments, 15_000);
		// The higher of the two lower bounds: the refused pace less its overshoot sqrt(2 × 11.7 × 1.8) = 6.5.
		expect(estimate?.perSecond).toBeCloseTo(55.6 - Math.sqrt(2 * 11.7 * 1.8), 6);
		expect(estimate?.uncertainty).toBeCloseTo(Math.sqrt(2 * 11.7 * 1.8), 6);
	});

	it('a stretch paced from above the rate measures the API like any other', () => {
		const segments = [
			{ startedAt: 0, elapsedMs: 0, accepted: 10 },
			{ startedAt: 1000, elapsedMs: 400, accepted: 30 },
			{ startedAt: 2400, elapsedMs: 2000, accepted: 110, paced: { perSecond: 61, startPerSecond: 55, growth: 3, burst: 10 } },
		];
		expect(estimateRate(segments, 5400)?.perSecond).toBeCloseTo(50, 6);
	});

	it('keeps what a self-paced stretch showed when the next stretch is short, and counts its time and requests in a rough guess', () => {
		// Seen in the benchmark: two stretches that draw no line, a long self-paced one, then a burst.
		const segments = [
			{ startedAt: 0, elapsedMs: 224, accepted: 19 },
			{ startedAt: 1400, elapsedMs: 197, accepted: 19 },
			{ startedAt: 2600, elapsedMs: 11_139, accepted: 424, paced: { perSecond: 58, startPerSecond: 18, growth: 3.6, burst: 19 } },
			{ startedAt: 14_900, elapsedMs: 185, accepted: 19 },
		];
		expect(estimateRate(segments, 16_200)?.perSecond).toBeCloseTo(58 - Math.sqrt(2 * 19 * 3.6), 6);
	});
});
