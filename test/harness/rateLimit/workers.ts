/**
 * Queue mode on a simulated clock: N worker processes share one API key and nothing else. Each worker
 * takes the next execution from a queue that is always ahead of the API, runs it (its items at the run's
 * Concurrency) and takes the next. The figures are those of the time until the workers have the
 * accepting answers of `executions` executions' items, while the queue still holds work for every
 * worker; then the queue runs to its end, and the API must have accepted each of its items once (or the
 * item failed). The worker's rate limit is the product's (a governor per worker, a RunLimiter per
 * execution) or one of two controls:
 *
 * - `ideal`: the workers take their turns from one copy of the API's token bucket (which processes
 *   cannot share): the floor, no 429;
 * - `retryAfterOnly`: nothing held back; a refused request waits its Retry-After and goes again.
 */
import type { Ticket } from '../../../nodes/TenantApi/transport/rateLimit/governor';
import type { RunClient, Simulation } from './simulation';
import { DEFAULT_SETTINGS } from './simulation';

export type WorkerClient = 'governor' | 'ideal' | 'retryAfterOnly';

export interface QueueOptions {
	workers: number;
	/** Executions measured: the queue holds one more per worker, so it is still ahead when they are done. */
	executions: number;
	itemsPerExecution: number;
	concurrency: number;
	client: WorkerClient;
}

export interface QueueResult {
	/** Items measured: the figures below are those of the time until this many were answered as accepted. */
	items: number;
	elapsedMs: number;
	/** The least time the API's rate and the workers' concurrency allow. */
	floorMs: number;
	/** Answers in that time (accepted and 429), and the 429s among them. */
	requests: number;
	refused: number;
	/** Per worker: items accepted, 429s met, and the longest time without an accepted answer. */
	workers: Array<{ items: number; refused: number; longestGapMs: number }>;
	/** Once every execution of the queue has run to its end: its items, those that failed, those accepted. */
	queuedItems: number;
	failedItems: number;
	accepted: number;
}

/**
 * The control that knows the API's bucket: every worker books its turn in one copy of it (which
 * processes cannot share), first come first served, so no request is ever refused and none waits longer
 * than the API makes it (a token bucket as a schedule: GCRA).
 */
function idealPacer(simulation: Simulation, perSecond: number, burst: number): RunClient {
	const { clock } = simulation;
	const intervalMs = 1000 / perSecond;
	/** When the bucket would be full again were no more requests sent. */
	let fullAt = 0;
	return {
		...retryAfterOnly(simulation),
		acquire: async (): Promise<Ticket> => {
			const turn = Math.max(clock.now(), fullAt - (burst - 1) * intervalMs);
			fullAt = Math.max(fullAt, turn) + intervalMs;
			await clock.sleep(turn - clock.now());
			return { seq: 0, busyS: 0 };
		},
	};
}

/** Nothing held back (the control clients' tickets carry nothing); a refused request waits its Retry-After. */
function retryAfterOnly(simulation: Simulation): RunClient {
	return {
		acquire: () => ({ seq: 0, busyS: 0 }),
		release: () => {},
		waitOut: async (retryAfterMs) => await simulation.clock.sleep(retryAfterMs ?? 1000),
	};
}

export async function runQueue(
	simulation: Simulation,
	options: QueueOptions,
): Promise<QueueResult> {
	const { workers, executions, itemsPerExecution, concurrency, client } = options;
	const { clock, api } = simulation;
	const { perSecond, burst, latencyMs } = api.options;
	const ideal = idealPacer(simulation, perSecond, burst);
	const items = executions * itemsPerExecution;
	const queued = executions + workers;
	const startedAt = clock.now();
	let taken = 0;
	let failedItems = 0;
	/** Answers until the measured items were accepted: accepted ones and 429s. */
	const answered = { accepted: 0, refused: 0 };
	let endedAt: number | undefined;
	const perWorker = Array.from({ length: workers }, () => ({
		items: 0,
		refused: 0,
		longestGapMs: 0,
		lastAcceptedAt: startedAt,
	}));
	const onAnswer = (stats: (typeof perWorker)[number]) => (status: number) => {
		if (endedAt !== undefined) return;
		const now = clock.now();
		if (status === 429) {
			stats.refused++;
			answered.refused++;
			return;
		}
		stats.items++;
		stats.longestGapMs = Math.max(stats.longestGapMs, now - stats.lastAcceptedAt);
		stats.lastAcceptedAt = now;
		if (++answered.accepted < items) return;
		endedAt = now;
		for (const other of perWorker)
			other.longestGapMs = Math.max(other.longestGapMs, now - other.lastAcceptedAt);
	};
	const worker = async (stats: (typeof perWorker)[number]) => {
		const governor = simulation.newGovernor();
		while (taken < queued) {
			taken++;
			const run = await simulation.runWith(
				client === 'governor'
					? new simulation.code.RunLimiter(governor, DEFAULT_SETTINGS, clock, simulation.random)
					: client === 'ideal'
						? ideal
						: retryAfterOnly(simulation),
				itemsPerExecution,
				concurrency,
				onAnswer(stats),
			);
			failedItems += run.failedItems;
		}
	};
	await simulation.settle(Promise.all(perWorker.map(worker)));
	const elapsedMs = (endedAt ?? clock.now()) - startedAt;
	return {
		items,
		elapsedMs,
		floorMs: Math.max((items / perSecond) * 1000, (items / (workers * concurrency)) * latencyMs),
		requests: answered.accepted + answered.refused,
		refused: answered.refused,
		workers: perWorker.map(({ items, refused, longestGapMs }) => ({
			items,
			refused,
			longestGapMs,
		})),
		queuedItems: queued * itemsPerExecution,
		failedItems,
		accepted: api.accepted,
	};
}
