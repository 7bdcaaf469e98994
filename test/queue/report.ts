/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The figures of docs/queue-mode.md that the suite records and does not assert: written to
 * <runDir>/report.json, printed, and copied with every process's log to test-artifacts/queue/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AttemptLog, Sandbox } from '../../sandbox/server';
import type { ClusterProcess, QueueCluster } from '../harness/queue/cluster';
import type { ApiExecution } from './helpers';
import {
	POST_NAME,
	countBy,
	enqueued,
	eventIdOf,
	outputOf,
	sessionLib,
	sleep,
	workerJobs,
} from './helpers';

const { getExecution } = sessionLib;

export type Report = Record<string, unknown>;
export const secs = (ms: number): number => Math.round(ms / 100) / 10;
/** "status@seconds-after-the-kill" of each delivery attempt. */
export const describeAttempts = (attempts: AttemptLog[], killAt: number): string =>
	attempts.map((a) => `${a.status ?? a.error}@${secs(Date.parse(a.at) - killAt)}s`).join(' → ');

/** Which process did what, from their logs: the webhook processor enqueues, the workers run. */
export const processFacts = (cluster: QueueCluster) => ({
	enqueuedByWebhookProcessor: enqueued(cluster.webhook.log()).length,
	enqueuedByMain: enqueued(cluster.main.log()).length,
	startedPerWorker: Object.fromEntries(
		cluster.workers.map((w) => [w.name, workerJobs(w.log()).started.size]),
	),
	refusedLoggedByWebhookProcessor: cluster.webhook.log().split('refused a delivery').length - 1,
});

/** How the faults of the 200 deliveries were absorbed: the node's attempts, replays, Retry On Fail. */
export function retryFacts(sandbox: Sandbox, executions: ApiExecution[]) {
	const stats = sandbox.stats();
	const posts = executions.map((e) => outputOf(e, POST_NAME));
	const postRequests = Object.entries(stats.byRoute)
		.filter(([route]) => route.startsWith('POST'))
		.reduce((n, [, v]) => n + v, 0);
	return {
		postRequests,
		faultsInjected: stats.faultsInjected,
		replays: stats.replays,
		executionsWhoseFinalTryNeededSeveralAttempts: posts.filter((p) => Number(p?.attempts) > 1)
			.length,
		executionsAnsweredByReplay: posts.filter((p) => p?.replayed === true).length,
		// Requests beyond the final node try of each execution: Retry On Fail re-ran the node.
		requestsFromEarlierNodeTries:
			postRequests - posts.reduce((n, p) => n + (Number(p?.attempts) || 0), 0),
	};
}

/**
 * Samples the status of the executions the killed worker held every 2 s; stop() waits until none is
 * new or running (at most `settleMs`) and returns each one's history, in seconds after the kill.
 */
export function watchVictims(cluster: QueueCluster, ids: string[], killAt: number) {
	const history: Record<string, string[]> = Object.fromEntries(ids.map((id) => [id, []]));
	const note = async () => {
		for (const id of ids) {
			const { status } = await getExecution(cluster, id).catch(() => ({ status: 'unreadable' }));
			if (!history[id].at(-1)?.endsWith(`:${status}`))
				history[id].push(`${secs(Date.now() - killAt)}s:${status}`);
		}
		return ids.every((id) => !/:(new|running)$/.test(history[id].at(-1) ?? ':new'));
	};
	let stopping = 0;
	const loop = (async () => {
		while (!(await note()) && (!stopping || Date.now() < stopping)) await sleep(2000);
	})();
	return async (settleMs: number) => {
		stopping = Date.now() + settleMs;
		await loop;
		return Object.fromEntries(ids.map((id) => [id, history[id].join(' → ')]));
	};
}

/**
 * After the kill: what n8n did with the dead worker's executions, an operator's "Retry" of them (public
 * API; n8n answers once the new execution finished, so the wait is bounded), the events of the burst
 * the sender delivered again although the killed worker did not hold them, every execution of the burst.
 */
export async function afterKill(
	cluster: QueueCluster,
	sandbox: Sandbox,
	{
		victims,
		survivor,
		webhookLog,
		others,
		attemptsOf,
		killAt,
	}: {
		victims: string[];
		survivor: ClusterProcess;
		webhookLog: string;
		others: { id: string; flow: { tag: string } }[];
		attemptsOf: (eventId: string) => AttemptLog[];
		killAt: number;
	},
) {
	const withData = (id: string) => getExecution(cluster, id, true);
	const recordsBefore = sandbox.records().length;
	const retries = await Promise.all(
		victims.map(async (id) => {
			const call = cluster.api<{ id?: string }>('POST', `/executions/${id}/retry`, {});
			const res = await Promise.race([call.catch((err: Error) => err), sleep(60000)]);
			if (!res || res instanceof Error) return { answer: res ? res.message : 'none in 60 s' };
			const retried = res.json?.id ? await withData(res.json.id) : undefined;
			return { answer: String(res.status), retried };
		}),
	);
	const runs = await Promise.all(enqueued(webhookLog).map(withData));
	const errorOf = (e?: ApiExecution) => e?.data?.resultData?.error?.message ?? null;
	return {
		victimErrors: [...new Set((await Promise.all(victims.map(withData))).map(errorOf))],
		stalledLinesInWebhookProcessorLog: webhookLog.split('job stalled more than').length - 1,
		reRunByAnotherWorker: victims.filter((id) => workerJobs(survivor.log()).started.has(id)).length,
		operatorRetry: {
			answers: countBy(retries, (r) => r.answer),
			newExecutionStatuses: countBy(retries, (r) => r.retried?.status ?? '(none)'),
			nodesRun: [
				...new Set(retries.flatMap((r) => Object.keys(r.retried?.data?.resultData?.runData ?? {}))),
			],
			errors: [...new Set(retries.map((r) => errorOf(r.retried)))],
			newSandboxRecords: sandbox.records().length - recordsBefore,
		},
		otherEventsDeliveredAgain: others
			.filter((e) => attemptsOf(e.id).length > 1)
			.map((e) => ({
				flow: e.flow.tag,
				attempts: describeAttempts(attemptsOf(e.id), killAt),
				executions: runs.filter((r) => eventIdOf(r) === e.id).map((r) => `${r.id}:${r.status}`),
			})),
		burstExecutions: {
			enqueuedByWebhookProcessor: runs.length,
			byStatus: countBy(runs, (e) => e.status),
		},
	};
}

export function writeReport(runDir: string, report: Report): void {
	const text = JSON.stringify(report, null, 2);
	fs.writeFileSync(path.join(runDir, 'report.json'), text);
	process.stdout.write(`\n===== queue-mode report =====\n${text}\n`);
	const dest = path.join(__dirname, '..', '..', 'test-artifacts', 'queue');
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	for (const name of fs.readdirSync(runDir)) {
		const log = path.join(runDir, name, 'n8n.log');
		if (fs.existsSync(log)) fs.copyFileSync(log, path.join(dest, `${name}.log`));
		else if (/\.(log|json)$/.test(name) && name !== 'processes.json')
			fs.copyFileSync(path.join(runDir, name), path.join(dest, name));
	}
}
