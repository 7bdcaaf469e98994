/**
 * Makes the items of one node run wait their turn according to the shared RateLimitState. Nodes may
 * not set timers, so waiting is the clock's `sleep` (n8n-workflow's in the node, a controllable one in
 * tests); a single loop hands out turns, so the items never wake in a crowd.
 */
import type { RateLimitSettings, RateSignal, Ticket } from './rateLimitState';
import { RateLimitState } from './rateLimitState';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export class RateLimitWaitExceeded extends Error {
	constructor(
		readonly waitedMs: number,
		readonly askedMs: number,
		readonly maxWaitMs: number,
	) {
		super(`${seconds(askedMs)} more asked, ${seconds(waitedMs)} waited, ${seconds(maxWaitMs)} allowed`);
		this.name = 'RateLimitWaitExceeded';
	}
}

function seconds(ms: number): string {
	const value = ms / 1000;
	return `${Number.isInteger(value) || value >= 10 ? Math.round(value) : value.toFixed(1)} s`;
}

interface Waiter {
	resolve: (ticket: Ticket) => void;
	reject: (error: Error) => void;
}

export class RateLimiter {
	readonly state: RateLimitState;
	private readonly queue: Waiter[] = [];
	private pumping = false;

	constructor(
		settings: RateLimitSettings,
		private readonly clock: Clock,
		random: () => number = Math.random,
	) {
		this.state = new RateLimitState(settings, random);
	}

	/**
	 * Resolves when a request may go out; the returned ticket goes back with `release`. A retry after a
	 * 429 goes to the front, so that an item the API refused does not wait behind the whole run.
	 */
	acquire(retry = false): Ticket | Promise<Ticket> {
		// Nobody waiting and nothing to wait for (the usual case without a rate limit): no promise, no loop.
		if (this.queue.length === 0 && !this.pumping && !this.state.exhausted) {
			const now = this.clock.now();
			if (this.state.delayBeforeSend(now) === 0) return this.state.send(now);
		}
		return new Promise<Ticket>((resolve, reject) => {
			if (retry) this.queue.unshift({ resolve, reject });
			else this.queue.push({ resolve, reject });
			void this.pump();
		});
	}

	release(ticket: Ticket, signal: RateSignal): void {
		this.state.answer(this.clock.now(), ticket, signal);
		if (this.queue.length > 0) void this.pump();
	}

	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.queue.length > 0) {
				const exhausted = this.state.exhausted;
				if (exhausted) {
					const error = new RateLimitWaitExceeded(exhausted.waitedMs, exhausted.askedMs, exhausted.maxWaitMs);
					for (const waiter of this.queue.splice(0)) waiter.reject(error);
					return;
				}
				const now = this.clock.now();
				const delay = this.state.delayBeforeSend(now);
				if (delay === undefined) return;
				if (delay > 0) {
					// Whole milliseconds, as timers have: rounding errors must not make it wake a hair too early, again and again.
					await this.clock.sleep(Math.ceil(delay));
					continue;
				}
				this.queue.shift()?.resolve(this.state.send(now));
			}
		} finally {
			this.pumping = false;
		}
	}
}
