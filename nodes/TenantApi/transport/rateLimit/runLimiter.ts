/**
 * The rate limit as one node run sees it: turns from the key's shared RateGovernor (and the run's
 * own Max Requests per Second), the wait of a refused request, and Max Rate-Limit Wait. Nodes may
 * not set timers, so waiting is the clock's `sleep` (n8n-workflow's in the node, a controllable one
 * in tests); one loop per run hands out turns, so the items never wake in a crowd.
 */
import type { RateGovernor, RateSignal, Ticket } from './governor';
import { JITTER, waitFloorMs } from './governor';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export interface RunLimitSettings {
	/** The Max Requests per Second option; undefined: no fixed pace. */
	maxRequestsPerSecond?: number;
	/** The Max Rate-Limit Wait option: how long in all the rate limit may hold the run back. */
	maxWaitMs: number;
	/** The wait after a 429 without Retry-After (doubled per further 429 of it, to `maxPauseMs`). */
	basePauseMs: number;
	maxPauseMs: number;
}

export class RateLimitWaitExceeded extends Error {
	constructor(
		readonly waitedMs: number,
		readonly askedMs: number,
		readonly maxWaitMs: number,
	) {
		super(
			`${seconds(askedMs)} more asked, ${seconds(waitedMs)} waited, ${seconds(maxWaitMs)} allowed`,
		);
		this.name = 'RateLimitWaitExceeded';
	}
}

function seconds(ms: number): string {
	const value = ms / 1000;
	return `${Number.isInteger(value) || value >= 10 ? Math.round(value) : value.toFixed(1)} s`;
}

/** The longest the loop sleeps before looking at the pace again. */
const MAX_SLEEP_MS = 100;

interface Waiter {
	resolve: (ticket: Ticket) => void;
	reject: (error: Error) => void;
}

export class RunLimiter {
	private readonly queue: Waiter[] = [];
	private pumping = false;
	private pacer = { tokens: 1, at: 0 };
	private inFlight = 0;
	/** Items of this run waiting out a 429. */
	private waitingOut = 0;
	/** Time the run was held back: nothing in flight while an item waited out a 429 or a pause. */
	private heldMs = 0;
	private heldSince?: number;
	private exhausted?: RateLimitWaitExceeded;

	constructor(
		readonly governor: RateGovernor,
		private readonly settings: RunLimitSettings,
		private readonly clock: Clock,
		private readonly random: () => number = Math.random,
	) {}

	/** Resolves when a request may go (a retry first); the ticket goes back with `release`. */
	acquire(retry = false): Ticket | Promise<Ticket> {
		// Nobody waiting and nothing to wait for (the usual case without a rate limit): no promise, no
		// loop.
		if (this.queue.length === 0 && !this.pumping && !this.exhausted) {
			const now = this.clock.now();
			if (this.delay(now) === 0) return this.send(now);
		}
		return new Promise<Ticket>((resolve, reject) => {
			if (retry) this.queue.unshift({ resolve, reject });
			else this.queue.push({ resolve, reject });
			this.account(this.clock.now());
			void this.pump();
		});
	}

	release(ticket: Ticket, signal: RateSignal): void {
		const now = this.clock.now();
		this.inFlight--;
		this.governor.answer(now, ticket, signal);
		this.account(now);
		if (this.queue.length > 0) void this.pump();
	}

	/**
	 * After a 429: waits its Retry-After (without one, the base delay doubled per 429 of this
	 * request), at least a floor that doubles per 429 of this request, plus jitter. Throws
	 * RateLimitWaitExceeded when the wait does not fit in what is left of Max Rate-Limit Wait.
	 */
	async waitOut(retryAfterMs: number | undefined, refusedInARow: number): Promise<void> {
		const { basePauseMs, maxPauseMs, maxWaitMs } = this.settings;
		const doublings = Math.max(0, refusedInARow - 1);
		const askedMs = Math.max(
			retryAfterMs ?? Math.min(maxPauseMs, basePauseMs * 2 ** doublings),
			waitFloorMs(doublings),
		);
		const waitedMs = this.heldAt(this.clock.now());
		if (this.exhausted) throw this.exhausted;
		if (waitedMs + askedMs > maxWaitMs)
			throw new RateLimitWaitExceeded(waitedMs, askedMs, maxWaitMs);
		this.waitingOut++;
		this.account(this.clock.now());
		try {
			await this.clock.sleep(Math.ceil(askedMs * (1 + JITTER * this.random())));
		} finally {
			this.waitingOut--;
			this.account(this.clock.now());
		}
	}

	/** For reports and tests. */
	get heldBackMs(): number {
		return this.heldAt(this.clock.now());
	}

	private delay(now: number): number | undefined {
		const governor = this.governor.delay(now);
		const perSecond = this.settings.maxRequestsPerSecond;
		if (governor === undefined || !perSecond) return governor;
		return Math.max(governor, ((1 - this.pacerTokens(now, perSecond)) / perSecond) * 1000);
	}

	private pacerTokens(now: number, perSecond: number): number {
		return Math.min(1, this.pacer.tokens + ((now - this.pacer.at) * perSecond) / 1000);
	}

	private send(now: number): Ticket {
		const perSecond = this.settings.maxRequestsPerSecond;
		if (perSecond) this.pacer = { tokens: this.pacerTokens(now, perSecond) - 1, at: now };
		this.inFlight++;
		this.account(now);
		return this.governor.send(now);
	}

	private heldAt(now: number): number {
		return this.heldMs + (this.heldSince === undefined ? 0 : now - this.heldSince);
	}

	/** Call on every change: adds the time since the last change if the run was held back then. */
	private account(now: number): void {
		this.heldMs = this.heldAt(now);
		const paused = this.queue.length > 0 && now < this.governor.pausedUntil;
		this.heldSince = this.inFlight === 0 && (this.waitingOut > 0 || paused) ? now : undefined;
	}

	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.queue.length > 0) {
				if (this.exhausted) {
					for (const waiter of this.queue.splice(0)) waiter.reject(this.exhausted);
					this.account(this.clock.now());
					return;
				}
				const now = this.clock.now();
				const delay = this.delay(now);
				if (delay === undefined) {
					await this.governor.nextAnswer();
					continue;
				}
				if (delay > 0) {
					const pauseMs = this.governor.pausedUntil - now;
					if (pauseMs > 0 && this.heldAt(now) + pauseMs > this.settings.maxWaitMs) {
						this.exhausted = new RateLimitWaitExceeded(
							this.heldAt(now),
							pauseMs,
							this.settings.maxWaitMs,
						);
						continue;
					}
					this.account(now);
					// Whole milliseconds, as timers have: rounding errors must not make it wake a hair too
					// early, again and again. At most a tenth of a second: the pace may change meanwhile
					// (answers of other runs).
					await this.clock.sleep(Math.min(MAX_SLEEP_MS, Math.ceil(delay)));
					continue;
				}
				this.queue.shift()?.resolve(this.send(now));
			}
		} finally {
			this.pumping = false;
		}
	}
}
