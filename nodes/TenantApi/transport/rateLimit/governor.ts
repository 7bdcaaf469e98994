/**
 * The rate governor of one API origin + key, shared by every run and execution in this n8n process
 * (governors.ts). Pure: time comes in as an argument, randomness through `random`. The algorithm is
 * explained in docs/rate-limits.md.
 *
 * Nothing is held back until the API first answers 429. From then on requests go out at a pace that
 * follows CUBIC (RFC 9438), as in the AWS SDKs' adaptive retry mode: a 429 cuts the pace to β ×
 * W_max, the pace climbs back to W_max (sooner than CUBIC: RECOVERY), stays there until K, then
 * probes above it along CUBIC's curve; t counts only time in which the pace held requests back
 * (RFC 9438 §5.8). Where other processes use the key (a 429 came at or below W_max), K is at least
 * PROBE_AFTER_S: processes sharing a key (queue-mode workers) cut each other with their probes, so
 * the 429s of N processes grow with N / K, not with N × their probing. W_max is what the API let
 * through since the previous 429 (its bucket was empty at both), but never more than the pace it
 * refused; from too few answers, β × that pace. The first 429 says little: the pace starts at what
 * the API let through in the last second (at least one request per Retry-After) and doubles every
 * quarter of a second until the next one (TCP's slow start).
 */
import type { RateLimitInfo, RatePolicy } from './headers';

/** What one attempt's answer says about the rate limit. */
export type RateSignal =
	| { kind: 'limited'; retryAfterMs?: number; info?: RateLimitInfo }
	| { kind: 'accepted'; info?: RateLimitInfo }
	/** No answer (network error, timeout): says nothing about the rate limit. */
	| { kind: 'unanswered' };

export interface Ticket {
	readonly seq: number;
	/** Seconds of sending since the last cut when it went out. */
	readonly busyS: number;
}

/** Share of W_max the pace is cut to by a 429. */
export const BETA = 0.9;
/** CUBIC's C (requests/s per s³): K = ∛(W_max × (1 − β) / C) is 10 s at 50/s, 5.8 s at 10/s. */
export const CUBIC_C = 0.005;
/** After a cut the pace is back at W_max in this share of K: a run right after one loses little. */
export const RECOVERY = 0.6;
/** Leaving slow start, W_max is a guess: the pace gets back to it and above it this much sooner. */
export const QUICK_RECOVERY = 0.3;
/** A 429 after less sending since the last cut measured too little: W_max from the last second. */
const MEASURED_S = 1;
/** Slow start doubles the pace after this much sending held back by it. */
const DOUBLING_S = 0.25;
/**
 * With other processes on the key, probing above W_max begins this many seconds of sending after a
 * cut at the soonest, whatever the rate: they cut each other (the API refuses whoever comes to an
 * empty bucket), so a process meets about one 429 per PROBE_AFTER_S however many share the key.
 */
export const PROBE_AFTER_S = 25;
/** After a 429 at or below W_max (others use the key), probing waits PROBE_AFTER_S this long. */
export const SHARED_FOR_S = 300;
/** A cut measures W_max from this many accepted answers at least; with fewer, the pace × β. */
export const MEASURED_ANSWERS = 5;
/** Requests per second at the least: one every 20 s (32 processes on a 10/s key get 0.31 each). */
const MIN_RATE = 0.05;
/** A pause of everything lasts at least this, doubled for each one in a row. */
const PAUSE_FLOOR_MS = 100;
const MAX_PAUSE_FLOOR_MS = 10_000;

/** At least PAUSE_FLOOR_MS after a 429, doubled `doublings` times, at most MAX_PAUSE_FLOOR_MS. */
export function waitFloorMs(doublings: number): number {
	return Math.min(MAX_PAUSE_FLOOR_MS, PAUSE_FLOOR_MS * 2 ** doublings);
}
/** Random extra on every pause and wait: up to this share of it. */
export const JITTER = 0.1;
/**
 * A request that waited for its turn may make up for this many turns missed: its timer fired late
 * (a loaded machine), or the process was waiting for an answer (a run's last one, before the next
 * run).
 */
const LATE_TURNS = 1;

interface Pace {
	perSecond: number;
	burst: number;
}

export class RateGovernor {
	private seq = 0;
	private inFlight = 0;
	/** CUBIC's W_max (in slow start, the pace it started from); undefined until the first 429. */
	private wMax?: number;
	private slowStart = false;
	/** Seconds of growth from the last cut back to W_max: RECOVERY (or QUICK_RECOVERY) × K. */
	private recoveredAt = 1;
	/**
	 * When probing above W_max begins, along W_max + C' × (t − probeAt)³ with C' = W_max × (1 − β) /
	 * probeAt³: CUBIC's K and C, but K at least PROBE_AFTER_S (so C' is gentler); after slow start,
	 * sooner and steeper.
	 */
	private probeAt = 1;
	/** Seconds in which the pace held requests back since the last cut: CUBIC's t. */
	private growthS = 0;
	/** Seconds spent sending since the last cut (a longer gap than two turns counts as two). */
	private busyS = 0;
	private lastSendAt?: number;
	/** When the pace last made a request wait. */
	private heldBackAt = Number.NEGATIVE_INFINITY;
	private lastAnswerAt = Number.NEGATIVE_INFINITY;
	/** Until when other processes are taken to use the key (SHARED_FOR_S). */
	private sharedUntil = Number.NEGATIVE_INFINITY;
	/** Requests up to this sequence number went out before the last cut: their 429s cut no more. */
	private cutSeq = 0;
	private acceptedSinceCut = 0;
	private tokens = 1;
	private tokensAt = 0;
	/** When the accepted answers of the last second came in (from `head` on). */
	private acceptedAt: number[] = [];
	private head = 0;
	/** Cuts since the last accepted answer (every one after the first paused everything). */
	private cutsInARow = 0;
	pausedUntil = 0;
	private policy?: RatePolicy;
	/** The API's latest `Remaining`, as of the request with sequence number `asOf`. */
	private remaining?: { value: number; asOf: number };
	private answered?: { promise: Promise<void>; resolve: () => void };

	constructor(private readonly random: () => number = Math.random) {}

	/** Milliseconds until the next request may go (0: now); undefined: not before another answer. */
	delay(now: number): number | undefined {
		if (now < this.pausedUntil) return this.pausedUntil - now;
		const remaining =
			this.remaining === undefined
				? Number.POSITIVE_INFINITY
				: this.remaining.value - (this.seq - this.remaining.asOf);
		if (remaining <= 0 && this.inFlight > 0) return undefined;
		const pace = this.pace(now);
		const wait =
			pace === undefined
				? 0
				: Math.max(0, ((1 - this.tokensNow(now, pace)) / pace.perSecond) * 1000);
		if (wait > 0) this.heldBackAt = now;
		return wait;
	}

	/** Records a request going out now; call only when delay(now) is 0. */
	send(now: number): Ticket {
		const pace = this.pace(now);
		if (pace) {
			this.tokens = this.tokensNow(now, pace) - 1;
			this.tokensAt = now;
			const sending =
				this.lastSendAt === undefined
					? 0
					: Math.min(now - this.lastSendAt, 2000 / pace.perSecond) / 1000;
			this.busyS += sending;
			if (now - this.heldBackAt <= 2000 / pace.perSecond) this.growthS += sending;
		}
		this.lastSendAt = now;
		this.inFlight++;
		return { seq: ++this.seq, busyS: this.busyS };
	}

	answer(now: number, ticket: Ticket, signal: RateSignal): void {
		this.inFlight--;
		this.lastAnswerAt = now;
		this.answered?.resolve();
		this.answered = undefined;
		if (signal.kind === 'unanswered') {
			if (ticket.seq > (this.remaining?.asOf ?? 0)) this.remaining = undefined;
			return;
		}
		this.readHeaders(now, ticket, signal.info);
		if (signal.kind === 'accepted') {
			this.acceptedAt.push(now);
			if (ticket.seq > this.cutSeq) this.acceptedSinceCut++;
			this.cutsInARow = 0;
			// Slow start begins at what the API let through in the last second, the first wave's late
			// answers included.
			if (this.slowStart && this.growthS === 0)
				this.wMax = Math.max(this.wMax ?? 0, this.acceptedLastSecond(now));
		} else if (ticket.seq > this.cutSeq) {
			this.cut(now, ticket, signal.retryAfterMs);
		}
	}

	/** Resolves with the next answer of any run (for a run waiting for `Remaining` to come back). */
	async nextAnswer(): Promise<void> {
		if (!this.answered) {
			let resolve = () => {};
			const promise = new Promise<void>((done) => (resolve = done));
			this.answered = { promise, resolve };
		}
		await this.answered.promise;
	}

	/** For reports and tests. */
	snapshot(now: number) {
		return {
			rate: this.pace(now)?.perSecond,
			wMax: this.wMax,
			slowStart: this.slowStart,
			growthS: this.growthS,
			pausedUntil: this.pausedUntil,
		};
	}

	/** The first 429 of a request sent after the last cut. */
	private cut(now: number, refused: Ticket, retryAfterMs: number | undefined): void {
		const acceptedLastSecond = this.acceptedLastSecond(now);
		const inARow = ++this.cutsInARow;
		// The next turn comes after one turn; after the first 429, after one to two (random): processes
		// refused by the same burst do not come back in step.
		let nextTurn = 1;
		if (this.wMax === undefined) {
			// Nothing is known of this process's share yet: what got through in the last second, and at
			// least one request per Retry-After (one a second at the most).
			const perRetryAfter = 1000 / Math.max(1000, retryAfterMs ?? 1000);
			this.wMax = Math.max(MIN_RATE, perRetryAfter, acceptedLastSecond);
			this.slowStart = true;
			nextTurn += this.random();
		} else {
			const pace = this.cubicRate(now);
			if (!this.slowStart && pace <= this.wMax) this.sharedUntil = now + SHARED_FOR_S * 1000;
			const measured =
				!this.slowStart && refused.busyS >= MEASURED_S && this.acceptedSinceCut >= MEASURED_ANSWERS;
			// The API's bucket was empty at both 429s: what it accepted in between is its rate (or our
			// share of it); at least β × the pace refused, unless less got through in the last second (a
			// pace far above the rate). Too few answers measure nothing: β × the pace.
			const apiRate = measured
				? Math.max(this.acceptedSinceCut / refused.busyS, Math.min(BETA * pace, acceptedLastSecond))
				: acceptedLastSecond >= MEASURED_ANSWERS
					? acceptedLastSecond
					: BETA * pace;
			this.wMax = Math.max(MIN_RATE, Math.min(pace, apiRate));
			// Leaving slow start, W_max is what got through in the last second while the pace was still
			// climbing: back to it and above it sooner.
			const climbing = this.slowStart && acceptedLastSecond >= MEASURED_ANSWERS;
			const cubicK = Math.cbrt((this.wMax * (1 - BETA)) / CUBIC_C);
			this.recoveredAt = cubicK * (climbing ? QUICK_RECOVERY : RECOVERY);
			const shared = now < this.sharedUntil;
			this.probeAt = climbing
				? this.recoveredAt
				: shared
					? Math.max(PROBE_AFTER_S, cubicK)
					: cubicK;
			this.slowStart = false;
			// 429s keep coming at the lower pace, nothing accepted in between: everything waits, longer
			// each time in a row whatever Retry-After says (never a hot loop).
			if (inARow > 1) {
				const floor = waitFloorMs(inARow - 2);
				this.pauseUntil(now + Math.max(retryAfterMs ?? 0, floor) * (1 + JITTER * this.random()));
			}
		}
		this.growthS = 0;
		this.busyS = 0;
		this.acceptedSinceCut = 0;
		this.cutSeq = this.seq;
		this.lastSendAt = now;
		this.tokens = 1 - nextTurn;
		this.tokensAt = now;
	}

	private pauseUntil(until: number): void {
		if (until <= this.pausedUntil) return;
		this.pausedUntil = until;
		this.tokens = 1;
		this.tokensAt = until;
		this.remaining = undefined;
	}

	private readHeaders(now: number, ticket: Ticket, info: RateLimitInfo | undefined): void {
		if (info?.policy) this.policy = info.policy;
		if (ticket.seq <= (this.remaining?.asOf ?? 0)) return;
		if (info?.remaining === undefined) {
			this.remaining = undefined;
			return;
		}
		this.remaining = { value: info.remaining, asOf: ticket.seq };
		// Nothing left and no pace known: everything waits for the quota to come back, as the API says.
		if (info.remaining <= 0 && info.resetMs !== undefined && this.pace(now) === undefined)
			this.pauseUntil(now + info.resetMs * (1 + JITTER * this.random()));
	}

	/** Slow start: doubling, at most twice what got through in the last second. Then CUBIC's W(t). */
	private cubicRate(now: number): number {
		const wMax = this.wMax ?? MIN_RATE;
		if (this.slowStart)
			return Math.min(
				wMax * 2 ** (this.growthS / DOUBLING_S),
				2 * Math.max(wMax, this.acceptedLastSecond(now)),
			);
		// Back to W_max by recoveredAt along a cubic from β × W_max, flat until probeAt, then W_max +
		// C' × (t − probeAt)³.
		const t = this.growthS;
		const back = this.recoveredAt;
		if (t < back)
			return Math.max(MIN_RATE, wMax - ((wMax * (1 - BETA)) / back ** 3) * (back - t) ** 3);
		const probeC = (wMax * (1 - BETA)) / this.probeAt ** 3;
		return Math.max(MIN_RATE, wMax + probeC * Math.max(0, t - this.probeAt) ** 3);
	}

	/** The slower of CUBIC's pace and a `RateLimit-Policy`'s; undefined: as fast as requests come. */
	private pace(now: number): Pace | undefined {
		const cubic = this.wMax === undefined ? undefined : this.cubicRate(now);
		if (!this.policy) return cubic === undefined ? undefined : { perSecond: cubic, burst: 1 };
		return cubic === undefined
			? { perSecond: this.policy.perSecond, burst: this.policy.burst ?? 1 }
			: { perSecond: Math.min(cubic, this.policy.perSecond), burst: 1 };
	}

	/**
	 * A token bucket; a busy process (a request waited for the pace, or an answer came, within
	 * the last two turns) may make up a turn it missed, an idle pace saves none.
	 */
	private tokensNow(now: number, pace: Pace): number {
		const busy = now - Math.max(this.heldBackAt, this.lastAnswerAt) <= 2000 / pace.perSecond;
		const burst = pace.burst + (busy ? LATE_TURNS : 0);
		return Math.min(
			burst,
			this.tokens + (Math.max(0, now - this.tokensAt) * pace.perSecond) / 1000,
		);
	}

	private acceptedLastSecond(now: number): number {
		while (this.head < this.acceptedAt.length && this.acceptedAt[this.head] <= now - 1000)
			this.head++;
		if (this.head > 1024) {
			this.acceptedAt = this.acceptedAt.slice(this.head);
			this.head = 0;
		}
		return this.acceptedAt.length - this.head;
	}
}
