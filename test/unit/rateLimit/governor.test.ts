/**
 * The governor's decisions, one answer at a time, with time given by the test. That `nextAnswer` wakes a run waiting
 * for one is simulation.test.ts's (runs with rate-limit headers wait on it).
 */
import type { RateSignal, Ticket } from '../../../nodes/TenantApi/transport/rateLimit/governor';
import {
	BETA,
	CUBIC_C,
	MEASURED_ANSWERS,
	PROBE_AFTER_S,
	QUICK_RECOVERY,
	SHARED_FOR_S,
	RECOVERY,
	RateGovernor,
} from '../../../nodes/TenantApi/transport/rateLimit/governor';

/** CUBIC's K for a W_max: back at W_max after RECOVERY × K seconds of growth. */
const cubicK = (wMax: number) => Math.cbrt((wMax * (1 - BETA)) / CUBIC_C);

const accepted: RateSignal = { kind: 'accepted' };
const limited = (retryAfterMs?: number): RateSignal => ({ kind: 'limited', retryAfterMs });

/** Sends whenever the governor lets a request go, from `from` to `to` (1 ms steps); each is answered `answerMs` later. */
function sendPaced(
	governor: RateGovernor,
	from: number,
	to: number,
	answer: (ticket: Ticket, at: number) => RateSignal = () => accepted,
	answerMs = 0,
) {
	const sent: Array<{ at: number; ticket: Ticket }> = [];
	const due: Array<{ at: number; ticket: Ticket }> = [];
	for (let now = from; now < to; now++) {
		while (due.length > 0 && due[0].at <= now) {
			const { ticket } = due.shift()!;
			governor.answer(now, ticket, answer(ticket, now));
		}
		if (governor.delay(now) === 0) {
			const ticket = governor.send(now);
			sent.push({ at: now, ticket });
			due.push({ at: now + answerMs, ticket });
		}
	}
	return sent;
}

/** Sends at the pace from `from` to `to`, everything accepted, and the API refuses the last request (at `to`). */
function refuseLast(governor: RateGovernor, from: number, to: number) {
	const [last] = sendPaced(governor, from, to).slice(-1);
	governor.answer(to, last.ticket, limited(1000));
}

/** The first moment from `from` on (1 ms steps) at which the governor lets a request go. */
function nextTurn(governor: RateGovernor, from: number) {
	let now = from;
	while (governor.delay(now) !== 0) now++;
	return now;
}

/** Sends at the pace until it probes above W_max; the next request is refused. Returns when. */
function refuseProbe(governor: RateGovernor, from: number) {
	let now = from;
	while ((governor.snapshot(now).rate as number) <= (governor.snapshot(now).wMax as number))
		sendPaced(governor, now, (now += 100));
	now = nextTurn(governor, now);
	governor.answer(now, governor.send(now), limited(1000));
	return now;
}

/** A governor that has just had its first 429, after `acceptedFirst` accepted answers. */
function afterFirstContact(acceptedFirst: number, at = 100, random = () => 0) {
	const governor = new RateGovernor(random);
	const tickets = Array.from({ length: acceptedFirst + 1 }, () => governor.send(0));
	tickets.slice(0, acceptedFirst).forEach((ticket) => governor.answer(at, ticket, accepted));
	governor.answer(at, tickets[acceptedFirst], limited(1000));
	return governor;
}

describe('rate governor', () => {
	it('holds nothing back until the API answers 429', () => {
		const governor = new RateGovernor();
		for (let i = 0; i < 1000; i++) {
			expect(governor.delay(0)).toBe(0);
			governor.send(0);
		}
		expect(governor.snapshot(0).rate).toBeUndefined();
	});

	it('the first 429 starts a pace at what the API let through in the last second, counting answers of the first wave that come in after it', () => {
		const governor = new RateGovernor(() => 0);
		const tickets = Array.from({ length: 16 }, () => governor.send(0));
		governor.answer(40, tickets[15], limited(1000));
		expect(governor.snapshot(40).rate).toBe(1);
		tickets.slice(0, 10).forEach((ticket) => governor.answer(41, ticket, accepted));
		expect(governor.snapshot(41)).toMatchObject({ rate: 10, slowStart: true });
		// The other 429s of the first wave went out before the pace existed: they change nothing.
		tickets.slice(10, 15).forEach((ticket) => governor.answer(42, ticket, limited(1000)));
		expect(governor.snapshot(42)).toMatchObject({ rate: 10, slowStart: true });
		expect(governor.delay(42)).toBeGreaterThan(0);
	});

	it.each([
		[1000, 1],
		[2000, 0.5],
		[0, 1],
		[undefined, 1],
	])(
		'with nothing let through, the first 429 (Retry-After %p ms) starts a pace of %p request(s) per second: one per Retry-After, one a second at the most',
		(retryAfterMs, perSecond) => {
			const governor = new RateGovernor(() => 0);
			governor.answer(40, governor.send(0), limited(retryAfterMs));
			expect(governor.snapshot(40)).toMatchObject({ rate: perSecond, slowStart: true });
		},
	);

	it('after the first 429 the next turn comes after one to two turns, at random (processes refused by the same burst do not come back in step); after a later cut, after one', () => {
		expect(afterFirstContact(10, 100, () => 0).delay(100)).toBeCloseTo(100, 6);
		expect(afterFirstContact(10, 100, () => 0.5).delay(100)).toBeCloseTo(150, 6);
		const governor = afterFirstContact(10);
		refuseLast(governor, 100, 700);
		expect(governor.delay(700)).toBeCloseTo(1000 / (governor.snapshot(700).rate as number), 6);
	});

	it('a process whose requests never wait for the pace (one at a time, each sent right after the last answer) does not grow it', () => {
		const governor = afterFirstContact(10);
		refuseLast(governor, 100, 700);
		let ticket = governor.send(nextTurn(governor, 700));
		const before = governor.snapshot(2000);
		for (let now = 2000; now < 60_000; now += 500) {
			governor.answer(now - 1, ticket, accepted);
			expect(governor.delay(now)).toBe(0);
			ticket = governor.send(now);
		}
		expect(governor.snapshot(60_000)).toEqual(before);
	});

	it('slow start: the pace doubles every quarter of a second it holds requests back, at most twice what the API accepted in the last second', () => {
		const governor = afterFirstContact(10);
		// Everything accepted: 10/s at first, then faster, but never above twice the last second's accepted answers.
		const sent = sendPaced(governor, 100, 1100);
		const perQuarter = [0, 1, 2, 3].map(
			(q) => sent.filter(({ at }) => at >= 100 + q * 250 && at < 350 + q * 250).length,
		);
		expect(perQuarter[1]).toBeGreaterThan(perQuarter[0]);
		expect(perQuarter[3]).toBeGreaterThan(perQuarter[2]);
		const { rate } = governor.snapshot(1100);
		expect(rate).toBeLessThanOrEqual(2 * sent.filter(({ at }) => at > 100).length + 1e-9);
	});

	it('a 429 of a request sent at the pace cuts it to β of W_max; 429s of requests sent before the cut cut nothing more', () => {
		const governor = afterFirstContact(10);
		const sent = sendPaced(governor, 100, 400);
		const before = governor.snapshot(400).rate as number;
		const [first, second] = [sent[sent.length - 2].ticket, sent[sent.length - 1].ticket];
		governor.answer(400, first, limited(1000));
		const { rate, wMax, slowStart } = governor.snapshot(400);
		expect(slowStart).toBe(false);
		expect(wMax).toBeLessThanOrEqual(before);
		expect(rate).toBeCloseTo(BETA * (wMax as number), 6);
		governor.answer(401, second, limited(1000));
		expect(governor.snapshot(401).wMax).toBe(wMax);
	});

	it(`from fewer than ${MEASURED_ANSWERS} accepted answers a 429 measures nothing: W_max is β × the pace refused; from more, over a second of sending, what they measure`, () => {
		// One request a second after the first 429; two answers accepted, then a 429.
		const governor = afterFirstContact(0);
		let now = 100;
		for (let i = 0; i < 2; i++) {
			now = nextTurn(governor, now);
			governor.answer(now, governor.send(now), accepted);
		}
		now = nextTurn(governor, now);
		const pace = governor.snapshot(now).rate as number;
		governor.answer(now, governor.send(now), limited(1000));
		expect(governor.snapshot(now).slowStart).toBe(false);
		expect(governor.snapshot(now).wMax).toBeCloseTo(BETA * pace, 6);
		// Then MEASURED_ANSWERS at the pace, all accepted, and a 429.
		now = governor.pausedUntil;
		const acceptedAt: number[] = [];
		for (let i = 0; i < MEASURED_ANSWERS; i++) {
			now = nextTurn(governor, now);
			governor.answer(now, governor.send(now), accepted);
			acceptedAt.push(now);
		}
		now = nextTurn(governor, now);
		const refused = governor.send(now);
		const paceRefused = governor.snapshot(now).rate as number;
		governor.answer(now, refused, limited(1000));
		expect(refused.busyS).toBeGreaterThanOrEqual(1);
		const lastSecond = acceptedAt.filter((at) => at > now - 1000).length;
		expect(lastSecond).toBeLessThan(MEASURED_ANSWERS);
		const measured = Math.max(
			MEASURED_ANSWERS / refused.busyS,
			Math.min(BETA * paceRefused, lastSecond),
		);
		expect(governor.snapshot(now).wMax).toBeCloseTo(Math.min(paceRefused, measured), 6);
	});

	it('W_max is what the API accepted between two 429s (its bucket empty at both), measured over a second or more of sending', () => {
		const governor = afterFirstContact(10);
		// Slow start ends with a 429; then 3 s at the pace, all accepted, then one refused.
		refuseLast(governor, 100, 700);
		expect(governor.snapshot(700).slowStart).toBe(false);
		const accepted3s = sendPaced(governor, 700, 3700).length;
		const pace = governor.snapshot(3700).rate as number;
		governor.answer(3700, governor.send(3700), limited(1000));
		const { wMax } = governor.snapshot(3700);
		expect(wMax).toBeCloseTo(accepted3s / 3, 0);
		expect(wMax).toBeLessThanOrEqual(pace);
		expect(wMax).toBeGreaterThanOrEqual(BETA * pace);
	});

	it.each([
		['alone on the key (its 429s come when it probes): flat until K', false],
		['with another process on the key (a 429 at W_max): flat until PROBE_AFTER_S', true],
	])(
		'CUBIC: back to W_max after RECOVERY × K seconds of sending at the pace (K = ∛(W_max × (1 − β) / C)); %s, then above it',
		(_, shared) => {
			const governor = afterFirstContact(10);
			// Slow start ends; the pace probes above what it found, and a probe is refused.
			refuseLast(governor, 100, 700);
			let now = refuseProbe(governor, 700);
			// Refused again right after, below W_max: not its own probe.
			if (shared) {
				now = nextTurn(governor, now);
				governor.answer(now, governor.send(now), limited(1000));
			}
			const start = Math.max(now, governor.pausedUntil);
			const { wMax, rate } = governor.snapshot(start);
			expect(rate).toBeCloseTo(BETA * (wMax as number), 6);
			const w = wMax as number;
			const k = cubicK(w);
			let at = start;
			const rateAfter = (seconds: number) => {
				sendPaced(governor, at, start + seconds * 1000);
				at = start + seconds * 1000;
				return governor.snapshot(at).rate as number;
			};
			expect(rateAfter((RECOVERY * k) / 2)).toBeLessThan(w);
			expect(rateAfter((RECOVERY * k) / 2)).toBeGreaterThan(0.98 * w);
			expect(rateAfter(RECOVERY * k)).toBeCloseTo(w, 4);
			expect(rateAfter(k)).toBeCloseTo(w, 6);
			expect(k + 3).toBeLessThan(PROBE_AFTER_S);
			if (shared) {
				expect(rateAfter(k + 3)).toBeCloseTo(w, 6);
				expect(rateAfter(PROBE_AFTER_S)).toBeCloseTo(w, 6);
				expect(rateAfter(PROBE_AFTER_S + 3)).toBeGreaterThan(w);
			} else expect(rateAfter(k + 3)).toBeGreaterThan(w);
		},
	);

	it('a 429 at W_max counts as another process on the key for SHARED_FOR_S: till then probing waits PROBE_AFTER_S, then K again', () => {
		const governor = afterFirstContact(10);
		refuseLast(governor, 100, 700);
		// A probe refused, then the next request too, below W_max.
		const sharedAt = nextTurn(governor, refuseProbe(governor, 700));
		governor.answer(sharedAt, governor.send(sharedAt), limited(1000));
		// Only probes are refused from now on: each comes PROBE_AFTER_S after the last cut while that
		// cut came within SHARED_FOR_S of the 429 at W_max, after K once it did not.
		const cuts: Array<{ at: number; nextS: number }> = [];
		for (let cut = sharedAt; cut < sharedAt + (SHARED_FOR_S + 60) * 1000; ) {
			const next = refuseProbe(governor, cut);
			cuts.push({ at: cut, nextS: (next - cut) / 1000 });
			cut = next;
		}
		const k = cubicK(governor.snapshot(sharedAt).wMax as number);
		expect(k + 3).toBeLessThan(PROBE_AFTER_S);
		const shared = cuts.filter(({ at }) => at < sharedAt + SHARED_FOR_S * 1000);
		const alone = cuts.slice(shared.length);
		expect(shared.length).toBeGreaterThan(5);
		expect(alone.length).toBeGreaterThan(2);
		expect(shared.every(({ nextS }) => nextS > PROBE_AFTER_S)).toBe(true);
		expect(alone.every(({ nextS }) => nextS < k + 3)).toBe(true);
	});

	it('leaving slow start, W_max (what the API accepted in the last second) is reached again in a third of K', () => {
		const governor = afterFirstContact(10);
		refuseLast(governor, 100, 700);
		const w = governor.snapshot(700).wMax as number;
		const quickS = cubicK(w) * QUICK_RECOVERY;
		sendPaced(governor, 700, 700 + quickS * 1000);
		expect(governor.snapshot(700 + quickS * 1000).rate).toBeCloseTo(w, 0);
	});

	it(`leaving slow start from fewer than ${MEASURED_ANSWERS} answers in the last second, W_max is no measure to probe above soon: not before K`, () => {
		const governor = afterFirstContact(0);
		const at = nextTurn(governor, 100);
		governor.answer(at, governor.send(at), limited(1000));
		const { wMax, slowStart } = governor.snapshot(at);
		expect(slowStart).toBe(false);
		const k = cubicK(wMax as number);
		expect(k).toBeGreaterThan(3);
		// Two seconds of sending (and up to two turns before them): past 0.3 K, short of K.
		const end = governor.pausedUntil + 2000;
		sendPaced(governor, governor.pausedUntil, end);
		expect(governor.snapshot(end).rate).toBeCloseTo(wMax as number, 6);
		sendPaced(governor, end, end + 5000);
		expect(governor.snapshot(end + 5000).rate).toBeGreaterThan(wMax as number);
	});

	it('the pace grows only while it holds requests back: not between runs', () => {
		const governor = afterFirstContact(10);
		refuseLast(governor, 100, 700);
		const right = governor.snapshot(700).rate;
		// An hour without requests.
		expect(governor.snapshot(3_600_700).rate).toBe(right);
		expect(governor.delay(3_600_700)).toBe(0);
		governor.send(3_600_700);
		expect(governor.snapshot(3_600_700).rate).toBe(right);
		// While requests wait for it, it grows.
		sendPaced(governor, 3_600_700, 3_602_700);
		expect(governor.snapshot(3_602_700).rate).toBeGreaterThan(right as number);
	});

	it('a process that waited for an answer (a run ending before the next one starts) may make up the turn it missed; an idle one may not', () => {
		const turnAfter = (answered: boolean) => {
			const governor = afterFirstContact(10);
			refuseLast(governor, 100, 700);
			// Every answer comes a minute later: the last ones are still on their way at 5 s.
			const sent = sendPaced(governor, 700, 5000, () => accepted, 60_000);
			const turnMs = 1000 / (governor.snapshot(5000).rate as number);
			const now = 5000 + 2.5 * turnMs;
			if (answered) governor.answer(now, sent[sent.length - 1].ticket, accepted);
			governor.send(now);
			return governor.delay(now);
		};
		expect(turnAfter(true)).toBe(0);
		expect(turnAfter(false)).toBeGreaterThan(0);
	});

	it('after idling, the pace lets one request go at once, not a burst', () => {
		const governor = afterFirstContact(10);
		sendPaced(governor, 100, 300);
		governor.send(100_000);
		expect(governor.delay(100_000)).toBeGreaterThan(0);
	});

	it('429s at the lower pace with nothing accepted in between pause everything: Retry-After, or a floor that doubles while it lasts', () => {
		const governor = afterFirstContact(0);
		// Retry-After: 0, again and again.
		let now = 2000;
		const pauses: number[] = [];
		for (let i = 0; i < 4; i++) {
			governor.answer(now, governor.send(now), limited(0));
			pauses.push(governor.delay(now) as number);
			now = governor.pausedUntil;
		}
		expect(pauses).toEqual([100, 200, 400, 800]);
		governor.answer(now, governor.send(now), limited(3000));
		expect(governor.delay(now)).toBe(3000);
		// Once something was accepted, the next 429 cuts the pace but pauses nothing.
		now = governor.pausedUntil;
		governor.answer(now, governor.send(now), accepted);
		const paused = governor.pausedUntil;
		governor.answer(now + 10, governor.send(now), limited(0));
		expect(governor.pausedUntil).toBe(paused);
	});

	it('a pause gets up to 10 % jitter', () => {
		const governor = new RateGovernor(() => 1);
		governor.answer(0, governor.send(0), limited(1000));
		governor.answer(2000, governor.send(2000), limited(1000));
		expect(governor.delay(2000)).toBeCloseTo(1100, 6);
	});

	it('a RateLimit-Policy header sets the pace, with its burst while no 429 came', () => {
		const governor = new RateGovernor();
		governor.answer(0, governor.send(0), {
			kind: 'accepted',
			info: { remaining: 9, policy: { perSecond: 20, burst: 2 } },
		});
		const sent = sendPaced(governor, 0, 1000);
		expect(sent.length).toBeGreaterThanOrEqual(20);
		expect(sent.length).toBeLessThanOrEqual(22);
		expect(sent.slice(-3).map(({ at }, i, all) => (i === 0 ? 50 : at - all[i - 1].at))).toEqual([
			50, 50, 50,
		]);
	});

	it('with Remaining, no more requests are in flight than the API has left, across runs', () => {
		const governor = new RateGovernor();
		const first = governor.send(0);
		governor.send(0);
		governor.send(0);
		governor.answer(40, first, { kind: 'accepted', info: { remaining: 2 } });
		expect(governor.delay(40)).toBeUndefined();
	});

	it('Remaining 0 with a Reset pauses everything until the reset while no pace is known, not once one is', () => {
		const unknown = new RateGovernor(() => 0);
		unknown.answer(40, unknown.send(0), {
			kind: 'accepted',
			info: { remaining: 0, resetMs: 3000 },
		});
		expect(unknown.delay(40)).toBe(3000);
		const paced = new RateGovernor(() => 0);
		paced.answer(40, paced.send(0), {
			kind: 'accepted',
			info: { remaining: 5, policy: { perSecond: 50 } },
		});
		paced.answer(60, paced.send(40), { kind: 'accepted', info: { remaining: 0, resetMs: 3000 } });
		expect(paced.delay(60)).toBeLessThan(100);
	});

	it('an attempt without an answer says nothing about the rate limit', () => {
		const governor = new RateGovernor();
		governor.answer(10, governor.send(0), { kind: 'unanswered' });
		expect(governor.snapshot(10).rate).toBeUndefined();
		expect(governor.delay(10)).toBe(0);
	});
});
