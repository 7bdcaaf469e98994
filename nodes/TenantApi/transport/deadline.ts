/**
 * A time limit over a whole exchange. n8n's HTTP helper only times the wait for the response headers;
 * a body that trickles in afterwards would hold the node forever. Nodes may not use setTimeout, so the
 * timer is n8n-workflow's sleep, cancelled through an AbortSignal as soon as the exchange is over (no
 * timer stays pending for the rest of the timeout after each request).
 */
import * as n8nWorkflow from 'n8n-workflow';

export type AbortableSleep = (ms: number, signal: AbortSignal) => Promise<void>;

interface SleepExports {
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	sleepWithAbort?: AbortableSleep;
}

/**
 * n8n-workflow is n8n's own copy at run time. 1.x exports `sleepWithAbort` (its `sleep` ignores a
 * signal); 2.x dropped it and its `sleep` takes the signal. Either way the timer is cleared on abort.
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
	/** Clears the timer. Call it when the exchange is over, whatever its outcome. */
	cancel(): void;
}

export function startDeadline(ms: number, sleep: AbortableSleep = abortableSleep): Deadline {
	const controller = new AbortController();
	// Settles only when the time is up; after cancel() it never settles and is collected.
	const expired = new Promise<never>((_resolve, reject) => {
		sleep(ms, controller.signal).then(
			() => reject(new DeadlineExceededError(ms)),
			() => undefined,
		);
	});
	expired.catch(() => undefined);
	return {
		async race<T>(work: Promise<T>, onExpired: () => void): Promise<T> {
			let settled = false;
			const timeUp = expired.then(undefined, async (error: DeadlineExceededError) => {
				if (!settled) onExpired();
				return await Promise.reject(error);
			});
			try {
				return await Promise.race([work, timeUp]);
			} finally {
				settled = true;
			}
		},
		cancel: () => controller.abort(),
	};
}
