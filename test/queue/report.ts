/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * What the queue-mode suite measures and reports (report.json, the figures of docs/queue-mode.md),
 * apart from what it asserts (queue-mode.test.ts): counts read from n8n's API, the processes' logs and
 * the sandbox, the status history of the executions a killed worker held, an operator's retry of them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type {
	AttemptLog,
	CreatedRecord,
	HeldRequest,
	Sandbox,
	StatsSnapshot,
	WebhookOptions,
} from '../../sandbox/server';
import type { ClusterProcess, QueueCluster } from '../harness/queue/cluster';
import type { ApiExecution, Flow } from './helpers';
import {
	countBy,
	executionFacts,
	eventIdOfExecution,
	getExecution,
	sleep,
	waitFor,
	workerJobs,
} from './helpers';

type Counts = Record<string, number>;

/** An execution a worker runs, waiting on its POST, which the sandbox holds (`heldId`). */
export interface HeldExecution {
	executionId: string;
	eventId: string;
	heldId: number;
	flow: Flow['tag'];
}

/** A held execution of the killed worker, with what the sender got for its event. */
export interface VictimEvent extends HeldExecution {
	committedBeforeKill: boolean;
	attempts: AttemptLog[];
}

export interface ProcessFacts {
	enqueuedByWebhookProcessor: number;
	enqueuedByMain: number;
	startedPerWorker: Counts;
	refusedDeliveriesLoggedByWebhookProcessor: number;
}

export interface PhaseASandboxFacts {
	records: number;
	distinctEventIds: number;
	distinctIdempotencyKeys: number;
	postRequests: number;
	faultsInjected: number;
	replays: number;
	conflicts: number;
	executionsWhoseFinalTryNeededSeveralAttempts: number;
	executionsAnsweredByReplay: number;
	requestsFromEarlierNodeTries: number;
}

export interface PhaseAReport {
	faults: Record<string, number>;
	deliveries?: {
		sent: number;
		bursts: number;
		burstSize: number;
		burstSeconds: number[];
		answered: Counts;
	};
	forged?: Record<string, Counts>;
	sendSeconds?: number;
	executions?: { total: number; byStatus: Counts; byMode: Counts; stillRunning: number };
	secondsUntilAllFinished?: number;
	processes?: ProcessFacts;
	sandbox?: PhaseASandboxFacts;
}

/** Records per event of one workflow: the outcome the worker-kill test asserts. */
export interface FlowOutcome {
	events: number;
	exactlyOne: number;
	lost: string[];
	duplicated: string[];
}

export interface TimelineEntry {
	at: string;
	secondsAfterKill: number;
	statuses: Counts;
}

export interface DeadWorkerHandling {
	settled: boolean;
	statuses: Counts;
	errorMessages: (string | null)[];
	stalledLinesInWebhookProcessorLog: number;
	reRunByAnotherWorker: number;
	history: Record<string, string>;
	timeline: TimelineEntry[];
}

export interface OperatorRetryReport {
	requested: number;
	answers: Counts;
	newExecutionStatuses: Counts;
	nodesRunByTheRetries: string[];
	errors: string[];
	newSandboxRecords: number;
}

export interface WorkerKillReport {
	redelivery: WebhookOptions;
	sandboxDuringHold?: string;
	secondsUntilBothWorkersWaited?: number;
	hold?: { secondsHeld: number; nodeTimeoutSeconds: number; released: Counts };
	killedWorker?: { name: string; pid: number | null; signal: 'SIGKILL'; secondsIntoPhase: number };
	secondsAfterKillUntilAllDelivered?: number;
	deliveries?: {
		events: number;
		attempts: Counts;
		victimEvents: { flow: Flow['tag']; committedBeforeKill: boolean; attempts: string }[];
		otherEventsAttempts: Counts;
		otherEventsDeliveredAgain?: { flow: Flow['tag']; attempts: string; executions: string }[];
	};
	sandbox?: Record<Flow['tag'], FlowOutcome>;
	sandboxTotals?: { records: number; distinctIdempotencyKeys: number; conflicts: number };
	byItself?: DeadWorkerHandling;
	operatorRetry?: OperatorRetryReport;
	executions?: {
		enqueuedByWebhookProcessor: number;
		byStatus: Counts;
		victimStartedBeforeKill: number;
		survivorStarted: number;
	};
	seconds?: number;
}

export interface QueueReport {
	n8n: string;
	extraN8nEnv: Record<string, string>;
	/** QUEUE_WORKER_LOCK_DURATION, QUEUE_WORKER_LOCK_RENEW_TIME, QUEUE_WORKER_STALLED_INTERVAL (ms) of every process. */
	deadWorkerTiming: Record<string, string>;
	topology: {
		workers: number;
		concurrencyPerWorker: number;
		webhookProcessors: number;
		mains: number;
	};
	startupSeconds?: number;
	startupTimings?: Record<string, number>;
	phaseA?: PhaseAReport;
	workerKill?: WorkerKillReport;
	loopbackOnly?: { processesUnderGuard: number; attemptsOutsideLoopback: number };
	totalSeconds?: number;
}

export const secs = (ms: number): number => Math.round(ms / 100) / 10;
export const counts = <T>(items: T[], key: (t: T) => string): Counts =>
	Object.fromEntries(countBy(items, key));

/** Executions n8n has finished (any final status). */
export const isFinished = (e: ApiExecution): boolean =>
	!['new', 'running', 'waiting'].includes(e.status);

/** Execution ids the webhook processor enqueued in `logText`. */
export function enqueuedExecutions(logText: string): string[] {
	return [...logText.matchAll(/Enqueued execution (\d+) \(job (\d+)\)/g)].map((m) => m[1]);
}

/** Which process did what: webhook() on the webhook processor (it enqueues), execute() on the workers. */
export function processFacts(cluster: QueueCluster): ProcessFacts {
	const matches = (p: ClusterProcess, re: RegExp) => (p.log().match(re) ?? []).length;
	return {
		enqueuedByWebhookProcessor: matches(cluster.webhook, /Enqueued execution \d+/g),
		enqueuedByMain: matches(cluster.main, /Enqueued execution \d+/g),
		startedPerWorker: Object.fromEntries(
			cluster.workers.map((w) => [w.name, workerJobs(w.log()).started.size]),
		),
		refusedDeliveriesLoggedByWebhookProcessor: matches(
			cluster.webhook,
			/Tenant API Trigger refused a delivery/g,
		),
	};
}

/** The sandbox side of phase A's executions: records, requests, faults, and what they say about retries. */
export function phaseASandboxFacts(
	records: CreatedRecord[],
	stats: StatsSnapshot,
	executions: ApiExecution[],
): PhaseASandboxFacts {
	const posts = executions.map((e) => executionFacts(e).post);
	const attemptsInFinalTry = posts.reduce((n, p) => n + (Number(p?.attempts) || 0), 0);
	const postRequests = Object.entries(stats.byRoute)
		.filter(([k]) => k.startsWith('POST'))
		.reduce((n, [, v]) => n + v, 0);
	return {
		records: records.length,
		distinctEventIds: new Set(records.map((r) => String(r.event_id))).size,
		distinctIdempotencyKeys: new Set(records.map((r) => r.idempotency_key)).size,
		postRequests,
		faultsInjected: stats.faultsInjected,
		replays: stats.replays,
		conflicts: stats.conflicts,
		executionsWhoseFinalTryNeededSeveralAttempts: posts.filter((p) => Number(p?.attempts) > 1)
			.length,
		executionsAnsweredByReplay: posts.filter((p) => p?.replayed === true).length,
		// Requests not accounted for by the final node try of each execution: earlier node tries,
		// i.e. n8n's Retry On Fail re-running the node after it gave up.
		requestsFromEarlierNodeTries: postRequests - attemptsInFinalTry,
	};
}

/** Records per event of the events in `eventIds`. */
export function flowOutcome(
	eventIds: string[],
	recordsFor: (eventId: string) => number,
): FlowOutcome {
	return {
		events: eventIds.length,
		exactlyOne: eventIds.filter((id) => recordsFor(id) === 1).length,
		lost: eventIds.filter((id) => recordsFor(id) === 0),
		duplicated: eventIds.filter((id) => recordsFor(id) > 1).map((id) => `${id}×${recordsFor(id)}`),
	};
}

/** "status@seconds-after-the-kill" of one delivery attempt. */
export const describeAttempt = (a: AttemptLog, killAt: number): string =>
	`${a.status ?? a.error}@${secs(Date.parse(a.at) - killAt)}s`;

/** Status changes of executions, in seconds after the kill. */
export class StatusHistory {
	private readonly changes = new Map<string, { s: number; status: string }[]>();

	constructor(private readonly killAt: number) {}

	note(executionId: string, status: string): void {
		const h = this.changes.get(executionId) ?? [];
		if (h.length === 0 || h[h.length - 1].status !== status)
			h.push({ s: secs(Date.now() - this.killAt), status });
		this.changes.set(executionId, h);
	}

	describe(executionId: string): string {
		return (this.changes.get(executionId) ?? []).map((x) => `${x.s}s:${x.status}`).join(' → ');
	}

	/** Sample the status of `ids()` every 4 s (for at most 6 min after the kill) until the returned stop() is called. */
	sample(cluster: QueueCluster, ids: () => string[]): () => Promise<void> {
		let sampling = true;
		const loop = (async () => {
			while (sampling && Date.now() - this.killAt < 6 * 60 * 1000) {
				for (const id of ids()) {
					const st = await getExecution(cluster, id).then(
						(e) => e.status,
						() => 'unreadable',
					);
					if (!sampling) break;
					this.note(id, st);
				}
				await sleep(4000);
			}
		})();
		return async () => {
			sampling = false;
			await loop;
		};
	}
}

/**
 * What n8n does by itself with the executions the dead worker held: their statuses until none is
 * new/running (or `settleMs`), the error they end with, the stalled-job lines, re-runs by the other worker.
 */
export async function observeDeadWorkerHandling(
	cluster: QueueCluster,
	victims: VictimEvent[],
	{
		history,
		killAt,
		webhookLogOffset,
		survivor,
		settleMs,
	}: {
		history: StatusHistory;
		killAt: number;
		webhookLogOffset: number;
		survivor: ClusterProcess;
		settleMs: number;
	},
): Promise<DeadWorkerHandling> {
	const timeline: TimelineEntry[] = [];
	const observe = async (label: string) => {
		const rows = await Promise.all(
			victims.map(async (h) => ({
				executionId: h.executionId,
				status: (await getExecution(cluster, h.executionId)).status,
			})),
		);
		for (const r of rows) history.note(r.executionId, r.status);
		timeline.push({
			at: label,
			secondsAfterKill: secs(Date.now() - killAt),
			statuses: counts(rows, (r) => r.status),
		});
		return rows;
	};
	const unsettled = (rows: { status: string }[]) =>
		rows.filter((r) => ['new', 'running'].includes(r.status));
	const rows = await waitFor(
		async () => {
			const r = await observe('waiting (no intervention)');
			return unsettled(r).length === 0 ? r : null;
		},
		{ timeoutMs: settleMs, intervalMs: 3000 },
	);
	const webhookLog = cluster.webhook.log().slice(webhookLogOffset);
	const errorOf = async (h: VictimEvent) =>
		(await getExecution(cluster, h.executionId, true)).data?.resultData?.error?.message ?? null;
	return {
		settled: !!rows,
		statuses: counts(rows ?? (await observe('timeout')), (r) => r.status),
		errorMessages: [...new Set(await Promise.all(victims.map(errorOf)))],
		stalledLinesInWebhookProcessorLog: (
			webhookLog.match(/job stalled more than maxStalledCount/g) ?? []
		).length,
		reRunByAnotherWorker: victims.filter((h) =>
			workerJobs(survivor.log()).started.has(h.executionId),
		).length,
		// Status history of each held execution (seconds after the kill, sampled every 4 s, then every 3 s).
		history: Object.fromEntries(
			victims.map((h) => [h.executionId, history.describe(h.executionId)]),
		),
		timeline,
	};
}

type RetryAnswer = { http: number | string; newId?: string | null; error?: string };

/**
 * An operator retries the failed executions (public API, like "Retry" in the executions list). n8n
 * answers once the new execution has finished; one earlier run saw no answer within undici's 300 s, so
 * the wait is bounded (`answerMs`) and recorded.
 */
export async function operatorRetry(
	cluster: QueueCluster,
	sandbox: Sandbox,
	victims: VictimEvent[],
	answerMs: number,
): Promise<OperatorRetryReport> {
	const recordsBefore = sandbox.records().length;
	const retries: RetryAnswer[] = await Promise.all(
		victims.map(async (h): Promise<RetryAnswer> => {
			const call = cluster
				.api<{ id?: string }>('POST', `/executions/${h.executionId}/retry`, {})
				.catch((err: Error) => err);
			const res = await Promise.race([call, sleep(answerMs).then(() => null)]);
			if (res === null) return { http: `no answer within ${answerMs / 1000} s` };
			if (res instanceof Error) return { http: `request failed: ${res.message}` };
			return {
				http: res.status,
				newId: res.json?.id ?? null,
				error: res.status === 200 ? undefined : res.text.slice(0, 200),
			};
		}),
	);
	const details = await Promise.all(
		retries
			.filter((r) => r.newId)
			.map(async (r) => {
				const ex = await getExecution(cluster, String(r.newId), true);
				return {
					status: ex.status,
					ranNodes: Object.keys(ex.data?.resultData?.runData ?? {}),
					error: ex.data?.resultData?.error?.message ?? null,
				};
			}),
	);
	return {
		requested: retries.length,
		answers: counts(retries, (r) => String(r.http)),
		newExecutionStatuses: counts(details, (d) => d.status),
		nodesRunByTheRetries: [...new Set(details.flatMap((d) => d.ranNodes))],
		errors: [...new Set(details.map((d) => d.error).filter((e): e is string => !!e))],
		newSandboxRecords: sandbox.records().length - recordsBefore,
	};
}

/** Every execution the webhook processor enqueued in the burst, with its run data. */
export function burstExecutions(
	cluster: QueueCluster,
	webhookLogOffset: number,
): Promise<ApiExecution[]> {
	return Promise.all(
		enqueuedExecutions(cluster.webhook.log().slice(webhookLogOffset)).map((id) =>
			getExecution(cluster, id, true),
		),
	);
}

/** Events the killed worker did not hold that still needed another attempt: what the sender got, and their executions. */
export function otherEventsDeliveredAgain(
	others: { id: string; flow: Flow }[],
	attemptsOf: (eventId: string) => AttemptLog[],
	runs: ApiExecution[],
	killAt: number,
): { flow: Flow['tag']; attempts: string; executions: string }[] {
	return others
		.filter((e) => attemptsOf(e.id).length > 1)
		.map((e) => ({
			flow: e.flow.tag,
			attempts: attemptsOf(e.id)
				.map((a) => describeAttempt(a, killAt))
				.join(' → '),
			executions: runs
				.filter((run) => eventIdOfExecution(run) === e.id)
				.map((run) => `${run.id}:${run.status}`)
				.join(', '),
		}));
}

/** Held requests by the event id of their body. */
export function heldByEvent(held: HeldRequest[]): Map<string, HeldRequest> {
	return new Map(
		held.map((h) => [String((h.body as { event_id?: unknown } | undefined)?.event_id), h]),
	);
}

/** The report and every process's log into test-artifacts/queue/ (kept for CI and for a look later). */
export function saveArtifacts(runDir: string): void {
	const dest = path.join(__dirname, '..', '..', 'test-artifacts', 'queue');
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	for (const entry of fs.readdirSync(runDir, { withFileTypes: true })) {
		const from = entry.isDirectory()
			? path.join(runDir, entry.name, 'n8n.log')
			: path.join(runDir, entry.name);
		const name = entry.isDirectory() ? `${entry.name}.log` : entry.name;
		if (/\.(log|json)$/.test(name) && fs.existsSync(from) && name !== 'processes.json')
			fs.copyFileSync(from, path.join(dest, name));
	}
}

/** <runDir>/report.json, printed, then copied with the logs to test-artifacts/queue/. */
export function writeReport(runDir: string, report: QueueReport): void {
	fs.writeFileSync(path.join(runDir, 'report.json'), JSON.stringify(report, null, 2));
	process.stdout.write(`\n===== queue-mode report =====\n${JSON.stringify(report, null, 2)}\n`);
	saveArtifacts(runDir);
}
