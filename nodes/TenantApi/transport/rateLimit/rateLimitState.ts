/**
 * The rate-limit state of one node run, shared by all its items: when the next request may go, and what
 * every answer teaches. Pure: time comes in as an argument, randomness through `random`; the caller
 * waits (see rateLimiter.ts).
 *
 * - Shared pause: a 429 stops every item until its Retry-After (with jitter) has passed; `Remaining: 0`
 *   with a Reset does the same when the rate is not known.
 * - Pace: requests are spaced at the Max Requests per Second option, the rate of a `RateLimit-Policy`
 *   header, or the rate learned from the 429s (rateEstimate.ts), whichever is slowest. The learned pace
 *   keeps rising slowly while no 429 comes (additive increase), so a low estimate corrects itself.
 * - Adaptive concurrency: halved by a 429, back up by one for every `limit` answers, never above the
 *   Concurrency option.
 * - Headers: with `Remaining`, no more requests are in flight than the API has left.
 * - A cap on the total time the run pauses for the rate limit; past it, `exhausted` says by how much.
 */
import type { RateLimitInfo } from './headers';
import type { RateEstimate, Segment } from './rateEstimate';
import { estimateRate, RECENT_SEGMENTS } from './rateEstimate';

export interface RateLimitSettings {
	/** The Concurrency option: never more requests in flight. */
	maxConcurrency: number;
	/** The Max Requests per Second option; undefined: no fixed pace. */
	maxRequestsPerSecond?: number;
	/** The most time the run may spend paused for the rate limit, in all. */
	maxWaitMs: number;
	/** Pause after a 429 without Retry-After (doubled for each further 429 in a row, up to `maxPauseMs`). */
	basePauseMs: number;
	maxPauseMs: number;
}

/** What one attempt's answer says about the rate limit. */
export type RateSignal =
	| { kind: 'limited'; retryAfterMs?: number; info?: RateLimitInfo }
	| { kind: 'accepted'; info?: RateLimitInfo }
	/** No answer (network error, timeout): says nothing about the rate limit. */
	| { kind: 'unanswered' };

export interface Ticket {
	readonly seq: number;
	readonly sentAt: number;
	readonly segment: number;
	/** The learned pace it went out at and where that pace started, if it had been holding requests back. */
	readonly paced?: NonNullable<Segment['paced']>;
}

/** Why the run stopped waiting: the API asked for more waiting than the cap leaves. */
export interface Exhaustion {
	waitedMs: number;
	askedMs: number;
	maxWaitMs: number;
}

/**
 * Share of the learned rate by which its pace rises every second without a 429 (additive increase), so
 * that an estimate on the low side corrects itself: fast while unsettled, slowly once settled: each probe
 * that finds the limit costs the whole run a Retry-After, and at 0.01 % a second a settled pace takes
 * 100 s to reach a limit 1 % above it.
 */
const PROBE_GROWTH = { unsettled: 0.05, settled: 0.0001 };
/** Jitter added to every pause: up to this share of it. */
const PAUSE_JITTER = 0.1;
/**
 * Accepted requests remembered one by one: more than can be in flight (64) when the first 429 of a
 * stretch arrives, so every request sent before the refused one is counted, and memory stays flat.
 */
const RECENT_ACCEPTED = 1024;

interface OpenSegment {
	id: number;
	start?: number;
	/** The earliest request of this segment the API refused. */
	firstRefused?: { seq: number; sentAt: number; paced?: Ticket['paced'] };
	/** The learned pace held a request of this segment back. */
	paced?: boolean;
	/** The latest accepted requests of this segment, and how many came before them. */
	acceptedRecent: Array<{ seq: number; sentAt: number }>;
	acceptedOlder: number;
}

const openSegment = (id: number): OpenSegment => ({ id, acceptedRecent: [], acceptedOlder: 0 });

export class RateLimitState {
	private inFlight = 0;
	private limit: number;
	private pausedUntil = 0;
	private limitedStreak = 0;
	private lastSeq = 0;
	private waitedMs = 0;
	private pacerTokens = 1;
	private pacerAt = 0;
	private current: OpenSegment = openSegment(0);
	/** The segment a 429 closed, still collecting the answers of requests sent before it closed. */
	private closing?: OpenSegment;
	private readonly segments: Segment[] = [];
	private estimate?: RateEstimate;
	private policyRate?: { perSecond: number; burst: number };
	/** The API's latest `Remaining`, as of the request with sequence number `asOf`. */
	private remaining?: { value: number; asOf: number };
	exhausted?: Exhaustion;

	constructor(
		private readonly settings: RateLimitSettings,
		private readonly random: () => number = Math.random,
	) {
		this.limit = settings.maxConcurrency;
	}

	/** Milliseconds to wait before the next request may go; undefined: wait for an answer first. */
	delayBeforeSend(now: number): number | undefined {
		if (now >= this.pausedUntil) this.finishClosingSegment(now);
		if (this.inFlight >= Math.max(1, Math.floor(this.limit))) return undefined;
		if (this.remainingAfterSends() <= 0 && this.inFlight > 0) return undefined;
		const start = Math.max(now, this.pausedUntil);
		const pace = this.pace(start);
		const pacing = pace === undefined ? 0 : Math.max(0, (1 - this.tokensAt(start, pace.perSecond, pace.burst)) / pace.perSecond) * 1000;
		if (pacing > 0 && pace?.learned) this.current.paced = true;
		return start - now + pacing;
	}

	/** Records a request going out now; call only when delayBeforeSend(now) is 0. */
	send(now: number): Ticket {
		this.inFlight++;
		const pace = this.pace(now);
		if (pace) {
			this.pacerTokens = this.tokensAt(now, pace.perSecond, pace.burst) - 1;
			this.pacerAt = now;
		}
		this.current.start ??= now;
		const learned = this.current.paced ? this.learnedPace(now) : undefined;
		const paced = learned && this.estimate ? { perSecond: learned.perSecond, startPerSecond: learned.base, burst: this.estimate.burst } : undefined;
		return { seq: ++this.lastSeq, sentAt: now, segment: this.current.id, ...(paced ? { paced } : {}) };
	}

	answer(now: number, ticket: Ticket, signal: RateSignal): void {
		this.inFlight--;
		if (signal.kind === 'unanswered') {
			if (ticket.seq > (this.remaining?.asOf ?? 0)) this.remaining = undefined;
			return;
		}
		this.learnFromHeaders(now, ticket, signal.info);
		if (signal.kind === 'accepted') {
			this.limitedStreak = 0;
			this.limit = Math.min(this.settings.maxConcurrency, this.limit + 1 / this.limit);
			const segment = this.segmentOf(ticket);
			if (segment) {
				segment.acceptedRecent.push({ seq: ticket.seq, sentAt: ticket.sentAt });
				if (segment.acceptedRecent.length > RECENT_ACCEPTED) segment.acceptedOlder += segment.acceptedRecent.splice(0, RECENT_ACCEPTED / 2).length;
			}
			return;
		}
		this.onLimited(now, ticket, signal.retryAfterMs);
	}

	/** For reports and tests. */
	get snapshot() {
		return {
			inFlight: this.inFlight,
			limit: this.limit,
			pausedUntil: this.pausedUntil,
			waitedMs: this.waitedMs,
			estimate: this.estimate,
			pace: this.pace(this.pacerAt),
			segments: this.segments.slice(),
		};
	}

	private onLimited(now: number, ticket: Ticket, retryAfterMs: number | undefined): void {
		const segment = this.segmentOf(ticket);
		if (segment === this.current) {
			// The first refusal of this stretch: a new episode.
			segment.firstRefused = { seq: ticket.seq, sentAt: ticket.sentAt, paced: ticket.paced };
			this.closing = segment;
			this.current = openSegment(segment.id + 1);
			this.limit = Math.max(1, this.limit / 2);
			this.limitedStreak++;
		} else if (segment?.firstRefused && ticket.seq < segment.firstRefused.seq) {
			segment.firstRefused = { seq: ticket.seq, sentAt: ticket.sentAt, paced: ticket.paced };
		}
		const backoff = Math.min(this.settings.maxPauseMs, this.settings.basePauseMs * 2 ** Math.max(0, this.limitedStreak - 1));
		const asked = retryAfterMs ?? backoff;
		this.pauseUntil(now, now + Math.max(asked, this.limitedStreak > 1 ? backoff : 0));
	}

	private learnFromHeaders(now: number, ticket: Ticket, info: RateLimitInfo | undefined): void {
		if (info?.policy) this.policyRate = { perSecond: info.policy.perSecond, burst: info.policy.burst ?? 1 };
		if (ticket.seq <= (this.remaining?.asOf ?? 0)) return;
		if (info?.remaining === undefined) {
			this.remaining = undefined;
			return;
		}
		this.remaining = { value: info.remaining, asOf: ticket.seq };
		// Nothing left and no pace known: wait for the quota to come back, as the API says.
		if (info.remaining <= 0 && info.resetMs !== undefined && this.pace(now) === undefined) this.pauseUntil(now, now + info.resetMs);
	}

	/** What the API has left for requests sent after the one its latest `Remaining` answered. */
	private remainingAfterSends(): number {
		return this.remaining === undefined ? Number.POSITIVE_INFINITY : this.remaining.value - (this.lastSeq - this.remaining.asOf);
	}

	private pauseUntil(now: number, until: number): void {
		if (until <= this.pausedUntil) return;
		const end = until + (until - now) * PAUSE_JITTER * this.random();
		const added = end - Math.max(now, this.pausedUntil);
		if (this.waitedMs + added > this.settings.maxWaitMs) {
			this.exhausted = { waitedMs: this.waitedMs, askedMs: until - now, maxWaitMs: this.settings.maxWaitMs };
			return;
		}
		this.waitedMs += added;
		this.pausedUntil = end;
		// After the pause the API's quota is full again, and so is the pacer's; but while the learned rate is not
		// settled (as of this pause) the next stretch starts without a burst: the API's full bucket makes it last,
		// and a longer stretch measures the rate better.
		const pace = this.pace(end);
		this.pacerTokens = pace?.learned && !this.estimate?.settled ? 1 : (pace?.burst ?? 1);
		this.pacerAt = end;
		this.remaining = undefined;
	}

	/**
	 * The slowest of the fixed pace (option, policy header) and the learned one, and whether the learned one
	 * is what holds requests back; undefined: as fast as concurrency allows.
	 */
	private pace(now: number): { perSecond: number; burst: number; learned: boolean } | undefined {
		const paces: Array<{ perSecond: number; burst: number }> = [];
		if (this.settings.maxRequestsPerSecond) paces.push({ perSecond: this.settings.maxRequestsPerSecond, burst: 1 });
		if (this.policyRate) paces.push(this.policyRate);
		const learned = this.learnedPace(now);
		if (learned) paces.push(learned);
		if (paces.length === 0) return undefined;
		const perSecond = Math.min(...paces.map((pace) => pace.perSecond));
		return { perSecond, burst: Math.min(...paces.map((pace) => pace.burst)), learned: learned?.perSecond === perSecond };
	}

	/**
	 * Unsettled: above the estimate, rising fast, to find the limit; settled (a precise estimate, or the
	 * lower bound a refused pace left): at the estimate. Either way a little faster every second without a
	 * 429, so that an estimate on the low side does not hold the run back for good; the next 429 pulls it back.
	 */
	private learnedPace(now: number) {
		if (!this.estimate) return undefined;
		const { perSecond, burst, uncertainty, settled } = this.estimate;
		const growth = Math.max(settled ? 0 : uncertainty / 4, perSecond * PROBE_GROWTH[settled ? 'settled' : 'unsettled']);
		const base = settled ? perSecond : perSecond + uncertainty / 4;
		const seconds = Math.max(0, now - (this.current.start ?? now)) / 1000;
		return { perSecond: base + growth * seconds, base, burst: Math.max(1, Math.floor(burst * 0.8)) };
	}

	private tokensAt(now: number, perSecond: number, burst: number): number {
		return Math.min(burst, this.pacerTokens + (Math.max(0, now - this.pacerAt) * perSecond) / 1000);
	}

	private segmentOf(ticket: Ticket): OpenSegment | undefined {
		if (ticket.segment === this.current.id) return this.current;
		if (ticket.segment === this.closing?.id) return this.closing;
		return undefined;
	}

	/** Once the pause is over (the answers of the closed stretch are in by then): one more point for the estimate. */
	private finishClosingSegment(now: number): void {
		const closing = this.closing;
		if (!closing?.firstRefused || closing.start === undefined) return;
		this.closing = undefined;
		const refused = closing.firstRefused;
		const before = closing.acceptedRecent.filter((accepted) => accepted.seq < refused.seq);
		this.segments.push({
			startedAt: closing.start,
			elapsedMs: refused.sentAt - closing.start,
			accepted: closing.acceptedOlder + before.length,
			tailMs: before.map((accepted) => refused.sentAt - accepted.sentAt).sort((a, b) => a - b),
			...(closing.id === 0 ? { cold: true } : {}),
			...(refused.paced ? { paced: refused.paced } : {}),
		});
		if (this.segments.length > RECENT_SEGMENTS) this.segments.shift();
		this.estimate = estimateRate(this.segments, now) ?? this.estimate;
	}
}
