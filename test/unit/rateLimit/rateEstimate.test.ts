import { estimateRate } from '../../../nodes/TenantApi/transport/rateLimit/rateEstimate';

describe('learning the rate from 429s', () => {
	it('needs a stretch that lasted: one refused at once (or within timer noise) says too little', () => {
		expect(estimateRate([], 0)).toBeUndefined();
		expect(estimateRate([{ startedAt: 0, elapsedMs: 0, accepted: 10 }], 2000)).toBeUndefined();
		// 10 accepted within 1 ms would put the upper bound at 9,000/s.
		expect(estimateRate([{ startedAt: 0, elapsedMs: 1, accepted: 10 }], 1100)).toBeUndefined();
	});

	it('one stretch that lasted: the middle of what got through, pause included, and what the stretch allows', () => {
		// 14 accepted in the 100 ms before the first 429, then a pause: 1.2 s since the stretch began.
		const estimate = estimateRate([{ startedAt: 0, elapsedMs: 100, accepted: 14 }], 1200);
		expect(estimate?.perSecond).toBeCloseTo((14 / 1.2 + 13 / 0.1) / 2, 6);
		expect(estimate?.uncertainty).toBeCloseTo((13 / 0.1 - 14 / 1.2) / 2, 6);
	});

	it('stretches nearly alike draw a steep, uncertain line: the rough guess is more precise and wins', () => {
		// 18 accepted in 179 ms, 19 in 185 ms: a line through them says 167/s ± 167.
		const segments = [
			{ startedAt: 0, elapsedMs: 179, accepted: 18 },
			{ startedAt: 1260, elapsedMs: 185, accepted: 19 },
		];
		const estimate = estimateRate(segments, 2590);
		expect(estimate?.perSecond).toBeLessThan(60);
		expect(estimate?.perSecond).toBeCloseTo((37 / 2.59 + 17 / 0.179) / 2, 6);
	});

	it("the run's first stretch (connections still opening) leaves the line once two later stretches draw it", () => {
		// The first stretch's requests reached the API late: as a point it would tilt the line to 52/s.
		const segments = [
			{ startedAt: 0, elapsedMs: 238, accepted: 19, cold: true },
			{ startedAt: 1330, elapsedMs: 1255, accepted: 72 },
			{ startedAt: 3690, elapsedMs: 2342, accepted: 126 },
		];
		// Through the cold stretch the line guides the probing but does not settle, however precise it looks.
		expect(estimateRate(segments.slice(0, 2), 3690)).toMatchObject({ perSecond: expect.closeTo(53 / 1.017, 6), settled: false });
		// Settled on the two later ones (54 more in 1.087 s more, ± 1 / 1.087 s), paced a quarter of that below.
		expect(estimateRate(segments, 7170)).toMatchObject({ perSecond: expect.closeTo(54 / 1.087 - 1 / 1.087 / 4, 6), settled: true });
	});

	it('without a line (every stretch ends at once), takes what got through per second, pauses included, as a rough guess', () => {
		const segments = [0, 1000, 2000].map((startedAt) => ({ startedAt, elapsedMs: 0, accepted: 1 }));
		expect(estimateRate(segments, 3000)).toEqual({ perSecond: 1, burst: 1, uncertainty: 1, settled: false });
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
		const segments = [
			{ startedAt: 0, elapsedMs: 0, accepted: 10 },
			{ startedAt: 1000, elapsedMs: 400, accepted: 30 },
			{ startedAt: 2400, elapsedMs: 2000, accepted: 110 },
		];
		const estimate = estimateRate(segments, 5400);
		expect(estimate?.burst).toBeCloseTo(10, 6);
		// Two stretches: one request either way over the 400 ms between them.
		expect(estimateRate(segments.slice(0, 2), 2400)?.uncertainty).toBeCloseTo(2.5, 6);
		// The third did not move the line: as certain as the floor, 0.5 % of the rate (the span alone says 0.5/s).
		expect(estimate?.uncertainty).toBeCloseTo(0.25, 6);
		// Settled: the node paces at the line's lower side, a quarter of its uncertainty below.
		expect(estimate).toMatchObject({ settled: true });
		expect(estimate?.perSecond).toBeCloseTo(50 - 0.25 / 4, 6);
	});

	it('a line the latest stretch moved is as uncertain as the move', () => {
		const segments = [
			{ startedAt: 0, elapsedMs: 0, accepted: 10 },
			{ startedAt: 1000, elapsedMs: 400, accepted: 30 },
			{ startedAt: 2400, elapsedMs: 2000, accepted: 106 },
		];
		const before = estimateRate(segments.slice(0, 2), 2400)?.perSecond ?? 0;
		const estimate = estimateRate(segments, 5400);
		expect(before).toBeCloseTo(50, 6);
		expect(estimate?.uncertainty).toBeCloseTo(Math.min(0.5, before - (estimate?.perSecond ?? 0)), 6);
	});

	it('follows the latest stretches when the limit changes', () => {
		const stretches = (perSecond: number) => Array.from({ length: 6 }, (_, i) => ({ startedAt: 0, elapsedMs: 1000 * i, accepted: 10 + perSecond * i }));
		// Settled at 20/s, paced a quarter of its uncertainty (0.5 % of the rate) below.
		expect(estimateRate([...stretches(100), ...stretches(20)], 0)?.perSecond).toBeCloseTo(20 * (1 - 0.005 / 4), 6);
	});

	it('falls back to the rough guess when the line makes no sense (more accepted in less time)', () => {
		const segments = [
			{ startedAt: 0, elapsedMs: 100, accepted: 50 },
			{ startedAt: 1100, elapsedMs: 900, accepted: 5 },
		];
		expect(estimateRate(segments, 5000)).toEqual({ perSecond: 11, burst: 5, uncertainty: 11, settled: false });
	});

	it('leaves out a stretch the node paced itself from below the rate: what it really sent in the last seconds bounds the rate instead', () => {
		// Two short stretches say ~34/s; then the node paced from 36/s upward until the API refused it, after
		// 508 accepted in 11 s. As a point on the line it would say 43/s. In its last 4 s it really sent
		// 50 requests a second (its nominal pace said 55.6: a loaded machine sends late).
		const paced = { perSecond: 55.6, startPerSecond: 36, burst: 11.7 };
		const tailMs = Array.from({ length: 200 }, (_, i) => 20 * (i + 1));
		const segments = [
			{ startedAt: 0, elapsedMs: 713, accepted: 37 },
			{ startedAt: 1800, elapsedMs: 178, accepted: 18 },
			{ startedAt: 3000, elapsedMs: 11_085, accepted: 508, paced, tailMs },
		];
		expect(estimateRate(segments.slice(0, 2), 3000)?.perSecond).toBeCloseTo(35.5, 0);
		const estimate = estimateRate(segments, 15_000);
		// The best window is the longest of the tail: 200 accepted in 4 s, less the burst, over 4 s (+ 5 ms
		// slack); paced 0.5 % below, in case the burst was larger than estimated.
		expect(estimate?.perSecond).toBeCloseTo((((200 - 11.7) * 1000) / 4005) * 0.995, 6);
		expect(estimate?.perSecond).toBeLessThan(50);
		expect(estimate?.uncertainty).toBeCloseTo(55.6 - (estimate?.perSecond ?? 0), 6);
	});

	it('replays a self-paced stretch it knows whole through a bucket: the node\'s own burst at the start does not pull the bound down', () => {
		// The API: 50/s, burst 10. After a pause the node sends 8 at once, then paces from 43/s upward (4.8/s
		// more every second) until the API refuses one. Its 8 left the bucket short, and the slow start did not
		// fill it again before the pace passed 50/s: no window that ends with the refusal holds burst + rate × window.
		const bucket = { perSecond: 50, burst: 10 };
		const sentMs: number[] = Array.from({ length: 8 }, () => 0);
		for (let at = 0, pace = 43; sentMs.length < 1000; pace = 43 + 4.8 * (at / 1000)) sentMs.push((at += 1000 / pace));
		let tokens = bucket.burst;
		let last = 0;
		const refusedAt = sentMs.findIndex((ms) => {
			tokens = Math.min(bucket.burst, tokens + ((ms - last) * bucket.perSecond) / 1000);
			last = ms;
			if (tokens < 1) return true;
			tokens -= 1;
			return false;
		});
		const elapsedMs = sentMs[refusedAt];
		const pacedAt = 43 + 4.8 * (elapsedMs / 1000);
		const stretch = {
			startedAt: 1000,
			elapsedMs,
			accepted: refusedAt,
			paced: { perSecond: pacedAt, startPerSecond: 43, burst: 10 },
			tailMs: sentMs.slice(0, refusedAt).map((ms) => elapsedMs - ms).reverse(),
		};
		const estimate = estimateRate([{ startedAt: 0, elapsedMs: 0, accepted: 10 }, stretch], 1000 + elapsedMs);
		// What the windows alone bound it by (the previous estimate) is 2 % below: ~49/s.
		expect(estimate?.perSecond).toBeGreaterThan(50 * 0.99);
		expect(estimate?.perSecond).toBeLessThanOrEqual(50);
		expect(estimate?.settled).toBe(true);
		// A stretch remembered only in part (its oldest sends forgotten) gives no replay: the windows decide.
		const partial = estimateRate([{ startedAt: 0, elapsedMs: 0, accepted: 10 }, { ...stretch, tailMs: stretch.tailMs.slice(0, 100) }], 1000 + elapsedMs);
		expect(partial?.perSecond).toBeLessThan(50 * 0.99);
	});

	it('drops a bound the API contradicts: a later stretch begun at its pace was refused with less let through', () => {
		// Seen in the simulation: a burst estimated too small (6.7 against 10) put a self-paced stretch's bound
		// at 51/s, settled; paced there, the API refused every stretch after ~2.2 s, and the bound held until
		// it fell out of the latest six.
		const cold = { startedAt: 0, elapsedMs: 0, accepted: 10, cold: true };
		const selfPaced = { startedAt: 1300, elapsedMs: 1419, accepted: 80, paced: { perSecond: 63.1, startPerSecond: 49.4, burst: 6.7 } };
		const bound = estimateRate([cold, selfPaced], 3800);
		expect(bound).toMatchObject({ settled: true });
		expect(bound?.perSecond).toBeGreaterThan(51);
		const atTheBound = { startedAt: 3800, elapsedMs: 2180, accepted: 118, paced: { perSecond: (bound?.perSecond ?? 0) * 1.0002, startPerSecond: bound?.perSecond ?? 0, burst: 6.7 } };
		const estimate = estimateRate([cold, selfPaced, atTheBound], 7000);
		// What is left: the line through the cold stretch and the refused one, (118 - 10) / 2.18 s, unsettled.
		expect(estimate?.perSecond).toBeCloseTo(108 / 2.18, 6);
		expect(estimate?.settled).toBe(false);
		// A later stretch begun faster than the bound does not contradict it.
		const faster = { ...atTheBound, paced: { ...atTheBound.paced, startPerSecond: (bound?.perSecond ?? 0) * 1.01 } };
		expect(estimateRate([cold, selfPaced, faster], 7000)?.perSecond).toBeCloseTo(bound?.perSecond ?? 0, 6);
	});

	it('keeps what a self-paced stretch showed when the next stretch is short', () => {
		// Seen in the benchmark: two stretches that draw no line, a long self-paced one, then a burst.
		const tailMs = Array.from({ length: 150 }, (_, i) => 20 * (i + 1));
		const segments = [
			{ startedAt: 0, elapsedMs: 224, accepted: 19 },
			{ startedAt: 1400, elapsedMs: 197, accepted: 19 },
			{ startedAt: 2600, elapsedMs: 11_139, accepted: 424, paced: { perSecond: 58, startPerSecond: 18, burst: 19 }, tailMs },
			{ startedAt: 14_900, elapsedMs: 185, accepted: 19 },
		];
		expect(estimateRate(segments, 16_200)?.perSecond).toBeCloseTo((((150 - 19) * 1000) / 3005) * 0.995, 6);
	});

	it('a stretch paced from above the rate measures the API like any other', () => {
		const segments = [
			{ startedAt: 0, elapsedMs: 0, accepted: 10 },
			{ startedAt: 1000, elapsedMs: 400, accepted: 30 },
			{ startedAt: 2400, elapsedMs: 2000, accepted: 110, paced: { perSecond: 61, startPerSecond: 55, burst: 10 } },
		];
		expect(estimateRate(segments, 5400)?.perSecond).toBeCloseTo(50 - 0.25 / 4, 6);
	});

});
