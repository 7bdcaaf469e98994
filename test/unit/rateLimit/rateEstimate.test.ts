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
});
