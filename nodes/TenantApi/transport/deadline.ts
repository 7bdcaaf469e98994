/**
 * A time limit over a whole exchange. n8n's HTTP helper only times the wait for the response
 * headers; a body that trickles in afterwards would hold the node forever. Nodes may not use
 * setTimeout, so the timer is n8n-workflow's sleep.
 *
 * One watch per client keeps the deadlines of all its exchanges in flight. They all have the same
 * length, so they expire in the order they started: one sleep at a time, until the earliest
 * deadline still open, is all it needs. Finishing an exchange only marks it done: no timer to
 * clear, no abort per request (an abort builds an error with a stack trace). `dispose()` at the end
 * of the run stops the last sleep, so no timer outlives the run.
 */
import * as n8nWorkflow from 'n8n-workflow';

export type AbortableSleep = (ms: number, signal: AbortSignal) => Promise<void>;

interface SleepExports {
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	sleepWithAbort?: AbortableSleep;
}

/**
 * n8n-workflow is n8n's own copy at run time. 1.x exports `sleepWithAbort` (its `sleep` ignores a
 * signal); 2.x dropped it and its `sleep` takes the signal. Either way the timer is cleared on
 * abort.
 */
export function pickAbortableSleep(exports: SleepExports): AbortableSleep {
	return exports.sleepWithAbort ?? exports.sleep;
}

const abortableSleep = pickAbortableSleep(n8nWorkflow as unknown as SleepExports);

export class DeadlineExceededError extends Error {
	readonly code = 'ETIMEDOUT';

	constructor(readonly ms: number) {
		super(`No complete answer within ${ms} ms`);
		this.name = 'DeadlineExceededError';
	}
}

export interface Deadline {
	/**
	 * The work's result, or DeadlineExceededError once the time is up. `onExpired` then runs to stop
	 * the work (close the connection) since nobody waits for it any more.
	 */
	race<T>(work: Promise<T>, onExpired: () => void): Promise<T>;
	/** Marks the exchange as over, whatever its outcome. */
	cancel(): void;
}

interface Entry {
	at: number;
	done: boolean;
	expired: boolean;
	/** Set while a race is under way: ends it with DeadlineExceededError. */
	expire?: () => void;
}

/** Thrown into the watch's sleep by dispose(); one object, so stopping costs no stack trace. */
const DISPOSED = new Error('deadline watch disposed');

export class DeadlineWatch {
	private queue: Entry[] = [];
	private head = 0;
	private sleeping?: AbortController;

	constructor(
		private readonly ms: number,
		private readonly sleep: AbortableSleep = abortableSleep,
		private readonly now: () => number = Date.now,
	) {}

	start(): Deadline {
		const entry: Entry = { at: this.now() + this.ms, done: false, expired: false };
		this.queue.push(entry);
		if (!this.sleeping) void this.watch();
		return {
			race: async <T>(work: Promise<T>, onExpired: () => void) =>
				await this.race(entry, work, onExpired),
			cancel: () => {
				entry.done = true;
				entry.expire = undefined;
				this.dropFinished();
			},
		};
	}

	/** Stops the watch's sleep. Exchanges started afterwards start it again. */
	dispose(): void {
		this.sleeping?.abort(DISPOSED);
		this.sleeping = undefined;
	}

	private async race<T>(entry: Entry, work: Promise<T>, onExpired: () => void): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const expire = () => {
				onExpired();
				reject(new DeadlineExceededError(this.ms));
			};
			if (entry.expired) return expire();
			entry.expire = expire;
			const settle =
				<A>(done: (outcome: A) => void) =>
				(outcome: A) => {
					if (entry.expire === expire) entry.expire = undefined;
					done(outcome);
				};
			work.then(settle(resolve), settle(reject));
		});
	}

	/** Sleeps until the earliest open deadline, expires what is due, again until nothing is open. */
	private async watch(): Promise<void> {
		const controller = new AbortController();
		this.sleeping = controller;
		try {
			for (;;) {
				this.dropFinished();
				const next = this.queue[this.head];
				if (!next) return;
				const wait = next.at - this.now();
				if (wait > 0) {
					await this.sleep(wait, controller.signal);
					continue;
				}
				this.head++;
				next.expired = true;
				next.expire?.();
			}
		} catch {
			// Disposed.
		} finally {
			if (this.sleeping === controller) this.sleeping = undefined;
		}
	}

	private dropFinished(): void {
		while (this.head < this.queue.length && this.queue[this.head].done) this.head++;
		if (this.head > 1024 && this.head * 2 > this.queue.length) {
			this.queue = this.queue.slice(this.head);
			this.head = 0;
		}
	}
}
