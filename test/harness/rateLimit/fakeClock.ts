/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * A clock the test moves: `sleep` registers a timer, `runUntilSettled` jumps from timer to timer, letting
 * every promise chain settle in between. Simulated minutes take milliseconds, and the same seed gives
 * the same run.
 */
import type { Clock } from '../../../nodes/TenantApi/transport/rateLimit/runLimiter';

interface Timer {
	at: number;
	order: number;
	resolve: () => void;
}

const settle = async () => await new Promise<void>((resolve) => setImmediate(resolve));

export class FakeClock implements Clock {
	/**
	 * @param late how much later than asked a timer fires (ms), as on a loaded machine: `() => 0` for
	 * ideal timers.
	 */
	constructor(private readonly late: () => number = () => 0) {}

	private time = 0;
	private order = 0;
	private timers: Timer[] = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((resolve) => {
			this.timers.push({
				at: this.time + Math.max(0, ms) + this.late(),
				order: this.order++,
				resolve,
			});
		});
	}

	/** Runs timers in time order until none is left and `done` has settled (or `maxMs` of simulated time). */
	async runUntilSettled<T>(done: Promise<T>, maxMs = 3_600_000): Promise<T> {
		let finished = false;
		const result = done.finally(() => {
			finished = true;
		});
		result.catch(() => undefined);
		await settle();
		while (!finished) {
			if (this.timers.length === 0)
				throw new Error(
					`nothing left to wait for at ${this.time} ms, and the work has not finished`,
				);
			this.timers.sort((a, b) => a.at - b.at || a.order - b.order);
			const timer = this.timers.shift() as Timer;
			if (timer.at > maxMs) throw new Error(`still running after ${maxMs} ms of simulated time`);
			this.time = Math.max(this.time, timer.at);
			timer.resolve();
			await settle();
		}
		return await result;
	}
}
