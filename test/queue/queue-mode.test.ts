/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The packed package on n8n's distributed engine (test/harness/queue/cluster.js): Redis + PostgreSQL, one
 * main, two workers (concurrency 5), one webhook processor, on loopback. The 200 deliveries' POSTs meet
 * random faults (500, 429, connection dropped after the commit) with Retry On Fail on. In the rate-limited
 * burst each worker has a rate governor of its own (the API's 429s are all they share) and the trigger
 * answers on receipt: with "When the Workflow Finishes" n8n left some deliveries unanswered
 * (docs/queue-mode.md). In the worker kill every state the assertions rely on is made by the test, none
 * by timing. The figures recorded and not asserted (report.json, docs/queue-mode.md) come from report.ts.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AttemptLog, CreatedRecord, Sandbox, WebhookOptions } from '../../sandbox/server';
import type { ClusterProcess, QueueCluster } from '../harness/queue/cluster';
import { removeUnlessKept, tarball } from '../harness/packedPackage';
import { N8N_VERSION } from '../harness/realN8n';
import type { Flow, ForgeKind } from './helpers';
import {
	NODE_TIMEOUT_MS,
	TRANSFER_RETRIES,
	clusterLib,
	countBy,
	deliver,
	eventBody,
	eventIdOf,
	examplesLib,
	isFinished,
	sandboxLib,
	sessionLib,
	sleep,
	transferWorkflow,
	workerJobs,
} from './helpers';
import type { Report } from './report';
import {
	afterKill,
	describeAttempts,
	processFacts,
	retryFacts,
	secs,
	watchVictims,
	writeReport,
} from './report';

/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS script of scripts/ */
const {
	guardEnv,
	readGuardLog,
}: typeof import('../harness/n8n/netguard-log') = require('../harness/n8n/netguard-log');
/* eslint-enable @typescript-eslint/no-require-imports */

const SECRET = `whsec_queue_${crypto.randomBytes(6).toString('hex')}`;
const TAG = Date.now().toString(36);
const [WORKERS, CONCURRENCY] = [2, 5];
const [DELIVERIES, BURST, KILL_BURST, RATE_BURST] = [200, 25, 40, 100];
const RATE_LIMIT = { perSecond: 10, burst: 10 };
const ATTEMPTS_PER_EXECUTION = TRANSFER_RETRIES.maxAttempts * TRANSFER_RETRIES.maxTries;
const FAULTS_PER_KEY = 3;
const FORGES: ForgeKind[] = ['wrong-secret', 'tampered-body', 'unsigned'];
/** Extra n8n settings for every process, as JSON (e.g. n8n's defaults for the timing below, to compare). */
const EXTRA_N8N_ENV: Record<string, string> = JSON.parse(process.env.QUEUE_N8N_ENV || '{}');
const TIMING = { ...clusterLib.DEAD_WORKER_TIMING, ...EXTRA_N8N_ENV };
/**
 * The sandbox's redelivery in the worker kill: an attempt waits 15 s longer than n8n can take to give up
 * a dead worker's job (its lock expires, two stalled-job checks, then n8n 2.41.1 rechecks the execution
 * for 30 s: docs/queue-mode.md), so the sender sees n8n's 500 for those.
 */
const REDELIVERY: WebhookOptions = {
	maxAttempts: 4,
	retryDelayMs: 1000,
	timeoutMs:
		Number(TIMING.QUEUE_WORKER_LOCK_DURATION) +
		2 * Number(TIMING.QUEUE_WORKER_STALLED_INTERVAL) +
		45 * 1000,
};
/** Events `evt_<run>_<prefix><n>`, alternately for the business-key and the default-key flow. */
const events = (prefix: string, count: number, flows: Record<Flow['tag'], Flow>) =>
	Array.from({ length: count }, (_, i) => ({
		id: `evt_${TAG}_${prefix}${String(i).padStart(3, '0')}`,
		amount: 100 + i,
		flow: flows[i % 2 === 0 ? 'business' : 'default'],
	}));
/** "id×n" of every event without exactly one of `count`. */
const notExactlyOne = (sent: { id: string }[], count: Record<string, number>) =>
	sent.filter((e) => count[e.id] !== 1).map((e) => `${e.id}×${count[e.id] ?? 0}`);

const { poll, listExecutions, getExecution } = sessionLib;

const report: Report = {
	n8n: N8N_VERSION,
	extraN8nEnv: EXTRA_N8N_ENV,
	deadWorkerTiming: TIMING,
	topology: { workers: WORKERS, concurrencyPerWorker: CONCURRENCY, webhookProcessors: 1, mains: 1 },
};

describe(`n8n ${N8N_VERSION} in queue mode with the packed package`, () => {
	let sandbox: Sandbox;
	let cluster: QueueCluster;
	const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-queue-'));
	/** Respond "On Receipt" (the 200 deliveries, and the rate-limited burst), "When the Workflow Finishes" (the kill). */
	const flows = {} as Record<Flow['tag'], Flow>;
	const killFlows = {} as Record<Flow['tag'], Flow>;
	let rateLimitFlow: Flow;
	const t0 = Date.now();
	const url = (flow: Flow) => `${cluster.webhookBase}${flow.path}`;
	const transfers = () => sandbox.records().filter((r) => r.endpoint === '/transfers');
	const recordsPerEvent = () => countBy(transfers(), (r) => String(r.event_id));
	/** Executions of `flows` (the public API's query: `includeData`, `status`…), with the tag of their flow. */
	const executionsOf = async (of: Flow[], query?: Record<string, string>) =>
		(
			await Promise.all(
				of.map(async (f) =>
					(await listExecutions(cluster, f.id, query)).map((e) => ({ ...e, tag: f.tag })),
				),
			)
		).flat();
	/** Wait until `count` executions of `of` finished, then a moment (an extra one would show up): all succeeded. */
	const successfulExecutions = async (of: Flow[], count: number) => {
		const finished = async () => (await executionsOf(of)).filter(isFinished).length >= count;
		await poll(finished, `fewer than ${count} finished executions`, { timeoutMs: 240000 });
		await sleep(3000);
		const executions = await executionsOf(of, { includeData: 'true' });
		expect(executions).toHaveLength(count);
		expect(
			executions.filter((e) => e.status !== 'success').map((e) => `${e.id}:${e.status}`),
		).toEqual([]);
		return executions;
	};

	beforeAll(async () => {
		sandbox = await sandboxLib.startSandbox({ port: 0 });
		cluster = await clusterLib.startCluster({
			version: N8N_VERSION,
			tarball: tarball(),
			runDir,
			workers: WORKERS,
			concurrency: CONCURRENCY,
			deadlineMs: 14 * 60 * 1000,
			// Every process runs under the loopback guard (test/harness/n8n/netguard.js); the last test reads it.
			env: { ...guardEnv(path.join(runDir, 'netguard.jsonl')), ...EXTRA_N8N_ENV },
		});
		const credentials = await examplesLib.sandboxCredentials(cluster, sandbox, SECRET, 'queue');
		const activeFlow = async (tag: Flow['tag'], respond: 'onReceipt' | 'whenFinished') => {
			const name = `Queue: transfer per delivery (${tag} key, respond ${respond})`;
			const { workflow, path } = transferWorkflow(name, credentials, tag === 'business', respond);
			return { tag, path, id: await sessionLib.createActiveWorkflow(cluster, workflow) };
		};
		for (const tag of ['business', 'default'] as const) {
			flows[tag] = await activeFlow(tag, 'onReceipt');
			killFlows[tag] = await activeFlow(tag, 'whenFinished');
		}
		rateLimitFlow = await activeFlow('default', 'onReceipt');
		// Webhook processor and workers start once the workflows are active (as in a real rollout).
		await cluster.startProcessors();
		report.startupSeconds = secs(Date.now() - t0);
	}, 480000);

	afterAll(async () => {
		await cluster
			?.stop()
			.catch((err: Error) => process.stderr.write(`[queue] stop: ${err.message}\n`));
		await sandbox?.close();
		report.totalSeconds = secs(Date.now() - t0);
		writeReport(runDir, report);
		removeUnlessKept(runDir, process.env.QUEUE_KEEP === '1');
	}, 60000);

	test(`${DELIVERIES} signed deliveries in parallel bursts: one successful execution each, forged ones none (401)`, async () => {
		const phaseStart = Date.now();
		sandbox.reset();
		// At most FAULTS_PER_KEY faults per Idempotency-Key, fewer than the attempts an execution has (Max
		// Attempts × Retry On Fail tries): every execution succeeds by construction, while two faults in a
		// row still make Retry On Fail re-run the node.
		const random = {
			seed: 20261122,
			p500: 0.15,
			pDropAfterCommit: 0.1,
			p429: 0.1,
			retryAfterSeconds: 0,
		};
		sandbox.setFaults([{ random, maxPerKey: FAULTS_PER_KEY }]);
		expect(FAULTS_PER_KEY).toBeLessThan(ATTEMPTS_PER_EXECUTION);
		const sent = events('a', DELIVERIES, flows);
		// Per burst, one forged delivery of each kind.
		const forged = events('forged', (DELIVERIES / BURST) * FORGES.length, flows).map((e, i) => ({
			...e,
			kind: FORGES[i % FORGES.length],
		}));
		const statuses: number[] = [];
		const forgedStatuses: Record<string, number[]> = {};
		const burstSeconds: number[] = [];
		for (let b = 0; b * BURST < DELIVERIES; b++) {
			const burstStart = Date.now();
			const signed = sent.slice(b * BURST, (b + 1) * BURST);
			const bad = forged.slice(b * FORGES.length, (b + 1) * FORGES.length);
			const results = await Promise.all([
				...signed.map((e) => deliver(url(e.flow), eventBody(e.id, e.amount), SECRET)),
				...bad.map((f) => deliver(url(f.flow), eventBody(f.id, 1), SECRET, f.kind)),
			]);
			burstSeconds.push(secs(Date.now() - burstStart));
			statuses.push(...results.slice(0, signed.length));
			bad.forEach((f, k) => (forgedStatuses[f.kind] ??= []).push(results[signed.length + k]));
		}
		expect(statuses.filter((s) => s !== 200)).toEqual([]);
		expect(
			Object.values(forgedStatuses)
				.flat()
				.filter((s) => s !== 401),
		).toEqual([]);

		const both = Object.values(flows);
		const executions = await successfulExecutions(both, DELIVERIES);
		const running = await executionsOf(both, { status: 'running' });
		const seen = countBy(executions, (e) => eventIdOf(e) ?? '(none)');
		const flowOf = new Map(sent.map((e) => [e.id, e.flow.tag]));
		expect(notExactlyOne(sent, seen)).toEqual([]);
		expect(forged.filter((f) => seen[f.id])).toEqual([]);
		expect(executions.filter((e) => flowOf.get(eventIdOf(e) ?? '') !== e.tag)).toEqual([]);
		expect(running).toEqual([]);
		const processes = processFacts(cluster);
		expect(processes.enqueuedByWebhookProcessor).toBe(DELIVERIES);
		expect(processes.enqueuedByMain).toBe(0);
		for (const w of cluster.workers) expect(workerJobs(w.log()).started.size).toBeGreaterThan(0);

		const records = transfers();
		const perEvent = recordsPerEvent();
		const stats = sandbox.stats();
		expect(notExactlyOne(sent, perEvent)).toEqual([]);
		expect(forged.filter((f) => perEvent[f.id])).toEqual([]);
		expect(new Set(records.map((r) => r.idempotency_key)).size).toBe(records.length);
		const business = records.filter((r) => flowOf.get(String(r.event_id)) === 'business');
		expect(business.filter((r) => r.idempotency_key !== `evt-${r.event_id}`)).toEqual([]);
		expect(stats.faultsInjected).toBeGreaterThan(0);
		expect(stats.conflicts).toBe(0);
		report.deliveries = {
			faults: {
				...random,
				maxPerKey: FAULTS_PER_KEY,
				attemptsPerExecution: ATTEMPTS_PER_EXECUTION,
			},
			burstSeconds,
			answered: countBy(statuses, String),
			forged: Object.fromEntries(
				Object.entries(forgedStatuses).map(([k, v]) => [k, countBy(v, String)]),
			),
			executions: {
				byStatus: countBy(executions, (e) => e.status),
				byMode: countBy(executions, (e) => String(e.mode)),
			},
			processes,
			records: records.length,
			...retryFacts(sandbox, executions),
			secondsUntilAllFinished: secs(Date.now() - phaseStart),
		};
	}, 360000);

	test(`${RATE_BURST} executions, deliveries ${BURST} at once, against an API that lets ${RATE_LIMIT.perSecond} requests/s through: all succeeded, one record each`, async () => {
		sandbox.reset();
		sandbox.setRateLimit(RATE_LIMIT);
		const sent = events('r', RATE_BURST, flows);
		const statuses: number[] = [];
		for (let i = 0; i < RATE_BURST; i += BURST) {
			const burst = sent.slice(i, i + BURST);
			statuses.push(
				...(await Promise.all(
					burst.map((e) => deliver(url(rateLimitFlow), eventBody(e.id, e.amount), SECRET)),
				)),
			);
		}
		expect(statuses.filter((s) => s !== 200)).toEqual([]);
		await successfulExecutions([rateLimitFlow], RATE_BURST);
		const { requests, rateLimited } = sandbox.stats();
		sandbox.setRateLimit(null);
		expect(notExactlyOne(sent, recordsPerEvent())).toEqual([]);
		report.rateLimitedBurst = { requests, rateLimited };
	}, 300000);

	test('SIGKILL one worker while it waits on POSTs the sandbox holds; Respond "When the Workflow Finishes": the sender delivers again, every event ends with exactly one record', async () => {
		const phaseStart = Date.now();
		const [victim, survivor] = cluster.workers;
		// Every POST is parked by the sandbox before it is processed, so each worker fills its
		// CONCURRENCY slots with executions that wait on their POST and takes no more jobs.
		sandbox.setFaults([{ method: 'POST', path: '/v1/transfers', action: { hold: true } }]);
		const logStart = new Map(cluster.processes.map((p) => [p, p.log().length]));
		const logOf = (p: ClusterProcess) => p.log().slice(logStart.get(p));
		const sent = events('k', KILL_BURST, killFlows);
		const flowOfEvent = new Map(sent.map((e) => [e.id, e.flow.tag]));
		const ofBurst = (r: CreatedRecord) => flowOfEvent.has(String(r.event_id));
		const eventOf = new Map<string, string | undefined>(); // execution id → event id

		// The sandbox's own webhook dispatcher sends the events and delivers each one again until it gets a
		// 2xx. The trigger answers only once the workflow has finished: 200 on success, 500 on failure.
		const sending = Promise.all(
			sent.map((e) =>
				sandbox.deliver(
					{
						id: e.id,
						event: 'transfer.created',
						data: { object: { id: `tr_${e.id}`, amount: e.amount, currency: 'EUR' } },
					},
					{ url: url(e.flow), secrets: [SECRET], scheme: 'hmac-sha256-hex', ...REDELIVERY },
				),
			),
		);

		// The state to kill in, made by the test: each worker has CONCURRENCY executions started and not
		// finished (its log), and the sandbox holds the POST of every one of them (matched by event id).
		const waiting = async (worker: ClusterProcess) => {
			const { started, finished } = workerJobs(logOf(worker));
			const open = [...started].filter((id) => !finished.has(id));
			const held = new Map(
				sandbox.held().map((h) => [String((h.body as { event_id?: string })?.event_id), h]),
			);
			const rows = [];
			for (const executionId of open) {
				if (!eventOf.get(executionId))
					eventOf.set(
						executionId,
						eventIdOf(
							await getExecution(cluster, executionId, true).catch(() => ({ id: '', status: '' })),
						),
					);
				const eventId = eventOf.get(executionId) ?? '';
				const h = held.get(eventId);
				if (!h) return null;
				rows.push({ executionId, eventId, heldId: h.id, flow: flowOfEvent.get(eventId) });
			}
			return open.length === CONCURRENCY ? rows : null;
		};
		const { onVictim, onSurvivor } = await poll(
			async () => {
				const [v, s] = [await waiting(victim), await waiting(survivor)];
				return v && s ? { onVictim: v, onSurvivor: s } : null;
			},
			'the workers did not both wait on held POSTs in every slot',
			{ timeoutMs: 240000 },
		);
		const firstHeldAt = Math.min(...sandbox.held().map((h) => Date.parse(h.heldAt)));
		expect(sandbox.held()).toHaveLength(WORKERS * CONCURRENCY); // one POST per waiting execution, no retry sent
		expect(transfers().filter(ofBurst)).toEqual([]);

		// Half of the victim's POSTs (alternately, per workflow, in event-id order) reach the service before
		// the kill; the others never do. Both cases, whatever the speed of the machine.
		const byEvent = [...onVictim].sort((a, b) => a.eventId.localeCompare(b.eventId));
		const toCommit = new Set(
			(['business', 'default'] as const).flatMap((tag) =>
				byEvent
					.filter((h) => h.flow === tag)
					.filter((_, i) => i % 2 === 0)
					.map((h) => h.heldId),
			),
		);
		expect(sandbox.commitHeld([...toCommit])).toHaveLength(toCommit.size);

		const killAt = Date.now();
		await victim.kill();
		// The kernel closes the dead worker's connections: wait until the sandbox has seen all of them go.
		const victimHeldIds = onVictim.map((h) => h.heldId).sort();
		const gone = () =>
			sandbox
				.held()
				.filter((h) => h.clientGone)
				.map((h) => h.id)
				.sort();
		await poll(
			async () => gone().length >= CONCURRENCY,
			"the killed worker's connections did not close",
			{
				timeoutMs: 60000,
				intervalMs: 200,
			},
		);
		expect(gone()).toEqual(victimHeldIds);

		// From now on the service answers at once; the held answers are released.
		sandbox.setFaults(null);
		const released = sandbox.releaseHeld();
		const heldForMs = Date.now() - firstHeldAt;
		const outcomeOf = new Map(released.map((r) => [r.id, r.outcome]));
		// No node timeout (hence no node retry, no Retry On Fail) could fire while the answers were held.
		expect(heldForMs).toBeLessThan(NODE_TIMEOUT_MS);
		expect(onSurvivor.map((h) => outcomeOf.get(h.heldId))).toEqual(
			onSurvivor.map(() => 'answered'),
		);
		expect(onVictim.map((h) => outcomeOf.get(h.heldId))).toEqual(
			onVictim.map((h) => (toCommit.has(h.heldId) ? 'clientGone' : 'discarded')),
		);

		// Every event ends delivered: the sender got a 2xx for it, after as many attempts as it took.
		const stopWatching = watchVictims(
			cluster,
			onVictim.map((h) => h.executionId),
			killAt,
		);
		const results = await sending;
		const secondsAfterKillUntilAllDelivered = secs(Date.now() - killAt);
		expect(results.filter((r) => !r.ok)).toEqual([]);
		const attemptsOf = (eventId: string): AttemptLog[] =>
			sandbox.deliveries().filter((a) => a.eventId === eventId);
		// By construction the victim's executions never finished, so the sender's first attempt for each of
		// them got no 2xx (n8n's 500 once it gave the job up, or the sender's own timeout) and it delivered again.
		for (const { eventId } of onVictim) {
			const attempts = attemptsOf(eventId);
			expect(attempts.length).toBeGreaterThanOrEqual(2);
			expect(attempts[0].status === null || attempts[0].status >= 300).toBe(true);
			expect(attempts.at(-1)?.status).toBe(200);
		}

		// The outcome: exactly one record per event, with the automatic key as with the business key.
		const perEvent = recordsPerEvent();
		for (const flow of Object.values(killFlows))
			expect(
				notExactlyOne(
					sent.filter((e) => e.flow === flow),
					perEvent,
				),
			).toEqual([]);
		const records = transfers().filter(ofBurst);
		expect(new Set(records.map((r) => r.idempotency_key)).size).toBe(records.length);
		expect(sandbox.stats().conflicts).toBe(0);

		const others = sent.filter((e) => !onVictim.some((h) => h.eventId === e.id));
		report.workerKill = {
			redelivery: REDELIVERY,
			killed: { name: victim.name, secondsIntoPhase: secs(killAt - phaseStart) },
			hold: { secondsHeld: secs(heldForMs), released: countBy(released, (r) => r.outcome) },
			secondsAfterKillUntilAllDelivered,
			attempts: countBy(results, (r) => String(r.attempts)),
			// What the sender got for the victim's events, and their executions' statuses, in seconds after the kill.
			victimEvents: onVictim.map((h) => ({
				flow: h.flow,
				committedBeforeKill: toCommit.has(h.heldId),
				attempts: describeAttempts(attemptsOf(h.eventId), killAt),
			})),
			victimStatuses: await stopWatching(REDELIVERY.timeoutMs!),
			records: records.length,
			...(await afterKill(cluster, sandbox, {
				victims: onVictim.map((h) => h.executionId),
				survivor,
				webhookLog: logOf(cluster.webhook),
				others,
				attemptsOf,
				killAt,
			})),
			seconds: secs(Date.now() - phaseStart),
		};
	}, 720000);

	test('no process of the cluster tried to reach anything outside loopback', () => {
		const { loaded, attempts } = readGuardLog(path.join(runDir, 'netguard.jsonl'));
		report.loopbackOnly = {
			processesUnderGuard: loaded.length,
			attemptsOutsideLoopback: attempts.length,
		};
		// main, webhook processor, workers (and the task runners they start).
		expect(loaded.length).toBeGreaterThanOrEqual(2 + WORKERS);
		expect(attempts.map((a) => `${a.kind} ${a.target} (${a.argv})`)).toEqual([]);
	});
});
