/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The packed package on n8n's distributed engine: Redis + PostgreSQL, one main, two workers
 * (concurrency 5) and one webhook processor, all on loopback (test/harness/queue/cluster.js).
 *
 * 1. 200 signed deliveries in parallel bursts (plus forged ones) → exactly one successful execution per
 *    delivery, none for forged ones (401), counted through n8n's public API.
 * 2. The same executions POST to the sandbox with random faults (500, 429, connection dropped after the
 *    commit) and Retry On Fail on → exactly one record per delivery.
 * 3. A burst of executions against an API that lets 10 requests/s through (each worker has a rate governor
 *    of its own; the API's 429s are all they share) → every execution succeeded, exactly one record each.
 *    The trigger answers on receipt and the test counts the executions through the public API: with
 *    Respond "When the Workflow Finishes", n8n 2.40.7's webhook processor left some of these deliveries
 *    unanswered although their executions had succeeded (docs/queue-mode.md).
 * 4. One worker SIGKILLed while it provably waits on POSTs, the trigger set to Respond "When the
 *    Workflow Finishes", the events sent by the sandbox's webhook dispatcher (which delivers again until
 *    it gets a 2xx): the sandbox holds every POST (fault action `hold`) until each worker has all its
 *    slots taken by waiting executions, commits half of the victim's, then the test kills it and releases
 *    the rest → every event ends with exactly one record, with the automatic key as with a business key
 *    (0 lost, 0 duplicates); what n8n does with the executions the dead worker held is recorded. Every
 *    state the assertions rely on is made by the test, none by timing.
 *
 * The assertions are here; what the suite measures and reports (<runDir>/report.json, printed at the end,
 * copied to test-artifacts/queue/) is in report.ts. docs/queue-mode.md has the analysis.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type {
	AttemptLog,
	CreatedRecord,
	DeliveryResult,
	HeldRequest,
	ReleaseOutcome,
	Sandbox,
	WebhookOptions,
} from '../../sandbox/server';
import type { ClusterProcess, QueueCluster } from '../harness/queue/cluster';
import { tarball } from '../harness/packedPackage';
import { N8N_VERSION } from '../harness/realN8n';
import {
	Flow,
	ForgeKind,
	NODE_TIMEOUT_MS,
	Respond,
	TRANSFER_RETRIES,
	clusterLib,
	examplesLib,
	countBy,
	deliver,
	eventBody,
	eventIdOfExecution,
	executionFacts,
	getExecution,
	inBatches,
	listExecutions,
	sandboxLib,
	sessionLib,
	sleep,
	transferWorkflow,
	waitFor,
	workerJobs,
} from './helpers';
import {
	HeldExecution,
	PhaseAReport,
	QueueReport,
	StatusHistory,
	VictimEvent,
	WorkerKillReport,
	burstExecutions,
	counts,
	describeAttempt,
	enqueuedExecutions,
	flowOutcome,
	heldByEvent,
	isFinished,
	observeDeadWorkerHandling,
	operatorRetry,
	otherEventsDeliveredAgain,
	phaseASandboxFacts,
	processFacts,
	secs,
	writeReport,
} from './report';

/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS script of scripts/ */
const {
	guardEnv,
	readGuardLog,
}: typeof import('../harness/n8n/netguard-log') = require('../harness/n8n/netguard-log');
/* eslint-enable @typescript-eslint/no-require-imports */

const VERSION = N8N_VERSION;
const SECRET = `whsec_queue_${crypto.randomBytes(6).toString('hex')}`;
const TAG = Date.now().toString(36);
const DELIVERIES = 200;
const BURST = 25;
const KILL_BURST = 40;
/** Executions of the rate-limited burst, sent RATE_BURST_AT_ONCE at a time, against RATE_LIMIT. */
const RATE_BURST = 100;
const RATE_BURST_AT_ONCE = 25;
const RATE_LIMIT = { perSecond: 10, burst: 10 };
const ATTEMPTS_PER_EXECUTION = TRANSFER_RETRIES.maxAttempts * TRANSFER_RETRIES.maxTries;
const FAULTS_PER_KEY = 3;
const WORKERS = 2;
const CONCURRENCY = 5;
// How long the kill phase waits for both workers to fill their slots with waiting executions. With the
// time to kill and release it stays well below the node's timeout, so no held POST can time out.
const HOLD_WAIT_MS = 4 * 60 * 1000;
const RETRY_ANSWER_MS = 60 * 1000;
/** Extra n8n settings for every process, as JSON (e.g. n8n's defaults for the timing below, to compare). */
const EXTRA_N8N_ENV: Record<string, string> = JSON.parse(process.env.QUEUE_N8N_ENV || '{}');
/** How soon n8n gives up a dead worker's jobs (test/harness/queue/cluster.js), as the processes get it. */
const TIMING = { ...clusterLib.DEAD_WORKER_TIMING, ...EXTRA_N8N_ENV };
/**
 * The longest n8n takes to give up a dead worker's job: its lock expires, two stalled-job checks, then the 30 s
 * n8n 2.41.1 rechecks the execution in the database before it marks it failed (docs/queue-mode.md).
 */
const GIVE_UP_MS =
	Number(TIMING.QUEUE_WORKER_LOCK_DURATION) +
	2 * Number(TIMING.QUEUE_WORKER_STALLED_INTERVAL) +
	30 * 1000;
/**
 * The sandbox's redelivery in the worker-kill test: an attempt waits for n8n's answer 15 s longer than n8n
 * takes to give up a dead worker's job, so the sender sees n8n's 500 for those; an answer n8n never sends
 * costs one timeout. Up to 4 attempts.
 */
const REDELIVERY_TIMEOUT_MS = GIVE_UP_MS + 15 * 1000;
const REDELIVERY: WebhookOptions = {
	maxAttempts: 4,
	retryDelayMs: 1000,
	timeoutMs: REDELIVERY_TIMEOUT_MS,
};
const FORGES: ForgeKind[] = ['wrong-secret', 'tampered-body', 'unsigned'];

const report: QueueReport = {
	n8n: VERSION,
	extraN8nEnv: EXTRA_N8N_ENV,
	deadWorkerTiming: TIMING,
	topology: { workers: WORKERS, concurrencyPerWorker: CONCURRENCY, webhookProcessors: 1, mains: 1 },
};
/** The flows' credentials and workflows are created through n8n's public API: its answers carry an id and a name. */
interface Created {
	id: string;
	name: string;
	active?: boolean;
}

describe(`n8n ${VERSION} in queue mode with the packed package`, () => {
	let sandbox: Sandbox;
	let cluster: QueueCluster;
	let runDir: string;
	let failed = false;
	/** A test body that throws (not only a failed expect) marks the run failed too: its folder is kept. */
	const keepOnThrow = (fn: () => Promise<void>) => async () => {
		await fn().catch(async (err: unknown) => {
			failed = true;
			return await Promise.reject(err);
		});
	};
	/** Respond "On Receipt" (the 200 deliveries). */
	const flows = {} as Record<'business' | 'default', Flow>;
	/** Respond "When the Workflow Finishes" (the worker kill). */
	const killFlows = {} as Record<'business' | 'default', Flow>;
	/** Respond "On Receipt" (the rate-limited burst). */
	let rateLimitFlow: Flow;
	const t0 = Date.now();
	const url = (flow: Flow) => `${cluster.webhookBase}${flow.path}`;

	beforeAll(
		async () => {
			runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-queue-'));
			sandbox = await sandboxLib.startSandbox({ port: 0 });
			cluster = await clusterLib.startCluster({
				version: VERSION,
				tarball: tarball(),
				runDir,
				workers: WORKERS,
				concurrency: CONCURRENCY,
				deadlineMs: 14 * 60 * 1000,
				// Every process runs under the loopback guard (test/harness/n8n/netguard.js); the last test reads it.
				// QUEUE_N8N_ENV: extra n8n settings for every process, as JSON (e.g. to compare n8n's queue retention settings).
				env: {
					...guardEnv(path.join(runDir, 'netguard.jsonl')),
					...EXTRA_N8N_ENV,
				},
			});

			const { tenantApi: credential, tenantWebhookApi: webhookCredential } =
				await examplesLib.sandboxCredentials(cluster, sandbox, SECRET, 'queue');

			const activeFlow = async (tag: Flow['tag'], respond: Respond): Promise<Flow> => {
				const wf = transferWorkflow(
					`Queue: transfer per delivery (${tag} key, respond ${respond})`,
					credential,
					tag === 'business',
					webhookCredential,
					respond,
				);
				return {
					tag,
					id: await sessionLib.createActiveWorkflow(cluster, wf.body),
					webhookId: wf.webhookId,
					path: `/webhook/${wf.webhookId}/webhook`,
				};
			};
			for (const tag of ['business', 'default'] as const) {
				flows[tag] = await activeFlow(tag, 'onReceipt');
				killFlows[tag] = await activeFlow(tag, 'whenFinished');
			}
			rateLimitFlow = await activeFlow('default', 'onReceipt');
			// Webhook processor and workers start once the workflows are active (as in a real rollout).
			await cluster.startProcessors();
			report.startupSeconds = secs(Date.now() - t0);
		},
		8 * 60 * 1000,
	);

	afterEach(() => {
		const state = expect.getState();
		if (state.assertionCalls !== state.numPassingAsserts) failed = true;
	});

	afterAll(async () => {
		if (cluster)
			await cluster
				.stop()
				.catch((err: Error) => process.stderr.write(`[queue] stop: ${err.message}\n`));
		if (sandbox) await sandbox.close();
		report.totalSeconds = secs(Date.now() - t0);
		if (runDir) {
			writeReport(runDir, report);
			if (failed || process.env.QUEUE_KEEP === '1')
				process.stdout.write(`[queue] kept ${runDir} (logs of every process, report.json)\n`);
			else fs.rmSync(runDir, { recursive: true, force: true });
		}
	}, 60 * 1000);

	test(
		'the package is loaded on the main; workflows are active',
		keepOnThrow(async () => {
			const res = await fetch(`${cluster.mainUrl}/types/nodes.json`, {
				headers: { cookie: cluster.cookie ?? '' },
			});
			expect(res.status).toBe(200);
			const names = ((await res.json()) as { name: string }[]).map((t) => t.name);
			expect(names).toEqual(
				expect.arrayContaining([
					'n8n-nodes-tenant-api.tenantApi',
					'n8n-nodes-tenant-api.tenantApiTrigger',
				]),
			);
			for (const f of [...Object.values(flows), ...Object.values(killFlows)]) {
				const wf = await cluster.api<Created>('GET', `/workflows/${f.id}`);
				expect(wf.json?.active).toBe(true);
			}
		}),
	);

	test(
		`${DELIVERIES} signed deliveries in parallel bursts: one successful execution each, forged ones none (401)`,
		keepOnThrow(async () => {
			const phaseStart = Date.now();
			sandbox.reset();
			// Random faults, at most FAULTS_PER_KEY per Idempotency-Key: fewer than the attempts an execution has
			// (Max Attempts × Retry On Fail tries), so every execution succeeds by construction, while two
			// faults in a row still make Retry On Fail re-run the node.
			const random = {
				seed: 20261122,
				p500: 0.15,
				pDropAfterCommit: 0.1,
				p429: 0.1,
				retryAfterSeconds: 0,
			};
			sandbox.setFaults([{ random, maxPerKey: FAULTS_PER_KEY }]);
			const phaseA: PhaseAReport = (report.phaseA = {
				faults: {
					...random,
					maxPerKey: FAULTS_PER_KEY,
					attemptsPerExecution: ATTEMPTS_PER_EXECUTION,
				},
			});
			expect(FAULTS_PER_KEY).toBeLessThan(ATTEMPTS_PER_EXECUTION);

			const events = Array.from({ length: DELIVERIES }, (_, i) => ({
				id: `evt_${TAG}_a${String(i).padStart(3, '0')}`,
				flow: i % 2 === 0 ? flows.business : flows.default,
				amount: 100 + i,
			}));
			const statuses: number[] = [];
			const forgedStatuses: Record<string, number[]> = {};
			const forgedIds: string[] = [];
			const burstSeconds: number[] = [];
			for (let b = 0; b * BURST < events.length; b++) {
				const burst = events.slice(b * BURST, (b + 1) * BURST);
				const forged = FORGES.map((kind, k) => ({
					kind,
					id: `evt_${TAG}_forged_${b}_${k}`,
					flow: k % 2 === 0 ? flows.business : flows.default,
				}));
				forgedIds.push(...forged.map((f) => f.id));
				const burstStart = Date.now();
				const results = await Promise.all([
					...burst.map((e) => deliver(url(e.flow), eventBody(e.id, e.amount), SECRET)),
					...forged.map((f) => deliver(url(f.flow), eventBody(f.id, 1), SECRET, f.kind)),
				]);
				burstSeconds.push(secs(Date.now() - burstStart));
				statuses.push(...results.slice(0, burst.length));
				forged.forEach((f, k) => (forgedStatuses[f.kind] ??= []).push(results[burst.length + k]));
			}
			phaseA.deliveries = {
				sent: events.length,
				bursts: Math.ceil(events.length / BURST),
				burstSize: BURST,
				burstSeconds,
				answered: counts(statuses, String),
			};
			phaseA.forged = Object.fromEntries(
				Object.entries(forgedStatuses).map(([k, v]) => [k, counts(v, String)]),
			);
			phaseA.sendSeconds = secs(Date.now() - phaseStart);
			expect(statuses.filter((s) => s !== 200)).toEqual([]);
			expect(
				Object.values(forgedStatuses)
					.flat()
					.filter((s) => s !== 401),
			).toEqual([]);

			// Wait until n8n has finished DELIVERIES executions.
			const all = async () => [
				...(await listExecutions(cluster, flows.business.id)),
				...(await listExecutions(cluster, flows.default.id)),
			];
			await waitFor(async () => (await all()).filter(isFinished).length >= DELIVERIES, {
				timeoutMs: 4 * 60 * 1000,
				intervalMs: 2000,
			});
			await sleep(3000); // anything extra (a duplicate execution) would show up now
			const withData = [
				...(await listExecutions(cluster, flows.business.id, { includeData: true })).map((e) => ({
					e,
					flow: 'business',
				})),
				...(await listExecutions(cluster, flows.default.id, { includeData: true })).map((e) => ({
					e,
					flow: 'default',
				})),
			];
			const running = [
				...(await listExecutions(cluster, flows.business.id, { status: 'running' })),
				...(await listExecutions(cluster, flows.default.id, { status: 'running' })),
			];
			phaseA.executions = {
				total: withData.length,
				byStatus: counts(withData, (x) => x.e.status),
				byMode: counts(withData, (x) => String(x.e.mode)),
				stillRunning: running.length,
			};
			phaseA.secondsUntilAllFinished = secs(Date.now() - phaseStart);

			const seen = countBy(withData, (x) => executionFacts(x.e).eventId ?? '(none)');
			const flowOf = new Map(events.map((e) => [e.id, e.flow.tag]));
			expect(withData).toHaveLength(DELIVERIES);
			expect(
				withData.filter((x) => x.e.status !== 'success').map((x) => `${x.e.id}:${x.e.status}`),
			).toEqual([]);
			expect(
				events.filter((e) => seen.get(e.id) !== 1).map((e) => `${e.id}×${seen.get(e.id) ?? 0}`),
			).toEqual([]);
			expect(forgedIds.filter((id) => seen.has(id))).toEqual([]);
			expect(
				withData.filter((x) => flowOf.get(executionFacts(x.e).eventId ?? '') !== x.flow),
			).toEqual([]);
			expect(running).toEqual([]);

			// Which process did what: webhook() on the webhook processor (it enqueues), execute() on the workers.
			const processes = (phaseA.processes = processFacts(cluster));
			expect(processes.enqueuedByWebhookProcessor).toBe(DELIVERIES);
			expect(processes.enqueuedByMain).toBe(0);
			for (const w of cluster.workers) expect(workerJobs(w.log()).started.size).toBeGreaterThan(0);

			// The sandbox side of the same executions.
			const records = sandbox.records().filter((r) => r.endpoint === '/transfers');
			const perEvent = countBy(records, (r) => String(r.event_id));
			const stats = sandbox.stats();
			const sandboxFacts = (phaseA.sandbox = phaseASandboxFacts(
				records,
				stats,
				withData.map((x) => x.e),
			));
			expect(
				events
					.filter((e) => perEvent.get(e.id) !== 1)
					.map((e) => `${e.id}×${perEvent.get(e.id) ?? 0}`),
			).toEqual([]);
			expect(forgedIds.filter((id) => perEvent.has(id))).toEqual([]);
			expect(sandboxFacts.distinctIdempotencyKeys).toBe(records.length);
			expect(
				records.filter(
					(r) =>
						flowOf.get(String(r.event_id)) === 'business' &&
						r.idempotency_key !== `evt-${r.event_id}`,
				),
			).toEqual([]);
			expect(stats.faultsInjected).toBeGreaterThan(0);
			expect(stats.conflicts).toBe(0);
		}),
		6 * 60 * 1000,
	);

	test(
		`${RATE_BURST} executions, deliveries ${RATE_BURST_AT_ONCE} at once, against an API that lets ${RATE_LIMIT.perSecond} requests/s through: all succeeded, one record each`,
		keepOnThrow(async () => {
			sandbox.reset();
			sandbox.setRateLimit(RATE_LIMIT);
			const events = Array.from({ length: RATE_BURST }, (_, i) => ({
				id: `evt_${TAG}_r${String(i).padStart(3, '0')}`,
				amount: 7000 + i,
			}));
			const statuses = await inBatches(
				events,
				RATE_BURST_AT_ONCE,
				async (e) => await deliver(url(rateLimitFlow), eventBody(e.id, e.amount), SECRET),
			);
			expect(statuses.filter((s) => s !== 200)).toEqual([]);
			await waitFor(
				async () =>
					(await listExecutions(cluster, rateLimitFlow.id)).filter(isFinished).length >= RATE_BURST,
				{ timeoutMs: 3 * 60 * 1000, intervalMs: 2000 },
			);
			await sleep(3000); // anything extra (a duplicate execution) would show up now
			const executions = await listExecutions(cluster, rateLimitFlow.id);
			const stats = sandbox.stats();
			sandbox.setRateLimit(null);
			expect(executions).toHaveLength(RATE_BURST);
			expect(
				executions.filter((e) => e.status !== 'success').map((e) => `${e.id}:${e.status}`),
			).toEqual([]);
			const perEvent = countBy(
				sandbox.records().filter((r) => r.endpoint === '/transfers'),
				(r) => String(r.event_id),
			);
			expect(
				events
					.filter((e) => perEvent.get(e.id) !== 1)
					.map((e) => `${e.id}×${perEvent.get(e.id) ?? 0}`),
			).toEqual([]);
			process.stdout.write(
				`[queue] rate-limited burst: ${stats.requests} requests for ${RATE_BURST} executions, ${stats.rateLimited} answered 429\n`,
			);
		}),
		5 * 60 * 1000,
	);

	test(
		'SIGKILL one worker while it waits on POSTs the sandbox holds; Respond "When the Workflow Finishes": the sender delivers again, every event ends with exactly one record',
		keepOnThrow(async () => {
			const phaseStart = Date.now();
			const [victim, survivor] = cluster.workers;
			const k: WorkerKillReport = (report.workerKill = { redelivery: REDELIVERY });
			// Every POST is parked by the sandbox before it is processed, so each worker fills its
			// CONCURRENCY slots with executions that wait on their POST and takes no more jobs.
			sandbox.setFaults([{ method: 'POST', path: '/v1/transfers', action: { hold: true } }]);
			k.sandboxDuringHold =
				'every POST /v1/transfers parked before processing, until the test releases it';
			const logOffset = victim.log().length;
			const survivorLogOffset = survivor.log().length;
			const webhookLogOffset = cluster.webhook.log().length;
			const events = Array.from({ length: KILL_BURST }, (_, i) => ({
				id: `evt_${TAG}_k${String(i).padStart(3, '0')}`,
				flow: i % 2 === 0 ? killFlows.business : killFlows.default,
				amount: 5000 + i,
			}));
			const flowOfEvent = new Map(events.map((e) => [e.id, e.flow.tag]));
			const isTransferOfBurst = (r: CreatedRecord) =>
				r.endpoint === '/transfers' && flowOfEvent.has(String(r.event_id));
			const recordsFor = (id: string) =>
				sandbox.records().filter((r) => r.endpoint === '/transfers' && r.event_id === id).length;
			const eventOf = new Map<string, string>(); // execution id → event id (the trigger's item waits on the execution stack)
			const eventIdOf = async (executionId: string) => {
				if (!eventOf.has(executionId)) {
					const id = eventIdOfExecution(await getExecution(cluster, executionId, true));
					if (id) eventOf.set(executionId, id);
				}
				return eventOf.get(executionId);
			};

			// The sandbox's own webhook dispatcher sends the events and delivers each one again until it gets a
			// 2xx. The trigger answers only once the workflow has finished: 200 on success, 500 on failure.
			const sending: Promise<DeliveryResult[]> = Promise.all(
				events.map((e) =>
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
			// finished (its log), and the sandbox holds the POST of every one of them.
			const waiting = async (worker: ClusterProcess, offset: number) => {
				const { started, finished } = workerJobs(worker.log().slice(offset));
				const open = [...started.keys()].filter((id) => !finished.has(id));
				const held = heldByEvent(sandbox.held());
				const rows: HeldExecution[] = [];
				for (const executionId of open) {
					const eventId = await eventIdOf(executionId).catch(() => undefined);
					const h = eventId ? held.get(eventId) : undefined;
					if (!eventId || !h) return null;
					rows.push({
						executionId,
						eventId,
						heldId: h.id,
						flow: flowOfEvent.get(eventId) as Flow['tag'],
					});
				}
				return open.length === CONCURRENCY ? rows : null;
			};
			const aimStart = Date.now();
			const state = await waitFor(
				async () => {
					const [v, s] = [
						await waiting(victim, logOffset),
						await waiting(survivor, survivorLogOffset),
					];
					return v && s ? { victim: v, survivor: s } : null;
				},
				{ timeoutMs: HOLD_WAIT_MS, intervalMs: 500 },
			);
			const firstHeldAt = Math.min(...sandbox.held().map((h: HeldRequest) => Date.parse(h.heldAt)));
			k.secondsUntilBothWorkersWaited = secs(Date.now() - aimStart);
			expect(state).not.toBeNull();
			const { victim: onVictim, survivor: onSurvivor } = state as {
				victim: HeldExecution[];
				survivor: HeldExecution[];
			};
			expect(sandbox.held()).toHaveLength(WORKERS * CONCURRENCY); // one POST per waiting execution, no retry sent
			expect(sandbox.records().filter(isTransferOfBurst)).toEqual([]);

			// Half of the victim's POSTs (alternately, per workflow) reach the service before the kill; the
			// others never do. Both cases, whatever the speed of the machine.
			const toCommit = new Set<string>();
			for (const tag of ['business', 'default'] as const) {
				const ofFlow = onVictim
					.filter((h) => h.flow === tag)
					.sort((a, b) => a.eventId.localeCompare(b.eventId));
				ofFlow.forEach((h, i) => i % 2 === 0 && toCommit.add(h.executionId));
			}
			const committedIds = sandbox.commitHeld(
				onVictim.filter((h) => toCommit.has(h.executionId)).map((h) => h.heldId),
			);
			expect(committedIds).toHaveLength(toCommit.size);

			const killAt = Date.now();
			await victim.kill();
			// The kernel closes the dead worker's connections: wait until the sandbox has seen all of them go.
			const victimHeldIds = new Set(onVictim.map((h) => h.heldId));
			const gone = await waitFor(
				async () =>
					sandbox.held().filter((h: HeldRequest) => victimHeldIds.has(h.id) && h.clientGone)
						.length === CONCURRENCY,
				{
					timeoutMs: 60 * 1000,
					intervalMs: 200,
				},
			);
			expect(gone).toBe(true);
			expect(
				sandbox
					.held()
					.filter((h: HeldRequest) => h.clientGone)
					.map((h: HeldRequest) => h.id)
					.sort(),
			).toEqual([...victimHeldIds].sort());

			// From now on the service answers at once; the held answers are released.
			sandbox.setFaults(null);
			const released = sandbox.releaseHeld();
			const heldForMs = Date.now() - firstHeldAt;
			const outcomeOf = new Map(released.map((r: ReleaseOutcome) => [r.id, r.outcome]));
			k.hold = {
				secondsHeld: secs(heldForMs),
				nodeTimeoutSeconds: NODE_TIMEOUT_MS / 1000,
				released: counts(released, (r: ReleaseOutcome) => r.outcome),
			};
			// No node timeout (hence no node retry, no Retry On Fail) could fire while the answers were held.
			expect(heldForMs).toBeLessThan(NODE_TIMEOUT_MS);
			expect(onSurvivor.map((h) => outcomeOf.get(h.heldId))).toEqual(
				onSurvivor.map(() => 'answered'),
			);
			expect(onVictim.map((h) => outcomeOf.get(h.heldId))).toEqual(
				onVictim.map((h) => (toCommit.has(h.executionId) ? 'clientGone' : 'discarded')),
			);
			k.killedWorker = {
				name: victim.name,
				pid: victim.pid,
				signal: 'SIGKILL',
				secondsIntoPhase: secs(killAt - phaseStart),
			};

			// Sample the status of every execution of the burst every 4 s (when did what change).
			const history = new StatusHistory(killAt);
			const stopSampling = history.sample(cluster, () =>
				enqueuedExecutions(cluster.webhook.log().slice(webhookLogOffset)),
			);

			// Every event ends delivered: the sender got a 2xx for it, after as many attempts as it took.
			const results = await sending;
			k.secondsAfterKillUntilAllDelivered = secs(Date.now() - killAt);
			await stopSampling();
			expect(results.filter((r) => !r.ok)).toEqual([]);
			const attemptsOf = (eventId: string) =>
				sandbox.deliveries().filter((a: AttemptLog) => a.eventId === eventId);
			const heldInfo: VictimEvent[] = onVictim.map((h) => ({
				...h,
				committedBeforeKill: toCommit.has(h.executionId),
				attempts: attemptsOf(h.eventId),
			}));
			const others = events.filter((e) => !heldInfo.some((h) => h.eventId === e.id));
			k.deliveries = {
				events: events.length,
				attempts: counts(results, (r) => String(r.attempts)),
				// What the sender got for the victim's events, attempt by attempt (seconds after the kill).
				victimEvents: heldInfo.map((h) => ({
					flow: h.flow,
					committedBeforeKill: h.committedBeforeKill,
					attempts: h.attempts.map((a) => describeAttempt(a, killAt)).join(' → '),
				})),
				otherEventsAttempts: counts(others, (e) => String(attemptsOf(e.id).length)),
			};
			// By construction the victim's executions never finished, so the sender's first attempt for each of
			// them got no 2xx (n8n's 500 once it gave the job up, or the sender's own timeout) and it delivered again.
			for (const h of heldInfo) {
				expect(h.attempts.length).toBeGreaterThanOrEqual(2);
				expect(h.attempts[0].status === null || h.attempts[0].status >= 300).toBe(true);
				expect(h.attempts[h.attempts.length - 1].status).toBe(200);
			}

			// The outcome: exactly one record per event, with the automatic key as with the business key.
			const perFlow = (tag: Flow['tag']) =>
				flowOutcome(
					events.filter((e) => e.flow.tag === tag).map((e) => e.id),
					recordsFor,
				);
			const outcome = (k.sandbox = { business: perFlow('business'), default: perFlow('default') });
			const records = sandbox.records().filter(isTransferOfBurst);
			const totals = (k.sandboxTotals = {
				records: records.length,
				distinctIdempotencyKeys: new Set(records.map((r) => r.idempotency_key)).size,
				conflicts: sandbox.stats().conflicts,
			});
			for (const tag of ['business', 'default'] as const) {
				expect(outcome[tag].lost).toEqual([]);
				expect(outcome[tag].duplicated).toEqual([]);
				expect(outcome[tag].exactlyOne).toBe(KILL_BURST / 2);
			}
			expect(totals.distinctIdempotencyKeys).toBe(records.length);
			expect(totals.conflicts).toBe(0);

			// Recorded, not asserted: what n8n did with the executions the dead worker held, and when; an
			// operator's retry of them; the executions of the burst.
			k.byItself = await observeDeadWorkerHandling(cluster, heldInfo, {
				history,
				killAt,
				webhookLogOffset,
				survivor,
				settleMs: REDELIVERY_TIMEOUT_MS,
			});
			k.operatorRetry = await operatorRetry(cluster, sandbox, heldInfo, RETRY_ANSWER_MS);
			const burstRuns = await burstExecutions(cluster, webhookLogOffset);
			k.deliveries.otherEventsDeliveredAgain = otherEventsDeliveredAgain(
				others,
				attemptsOf,
				burstRuns,
				killAt,
			);
			k.executions = {
				enqueuedByWebhookProcessor: burstRuns.length,
				byStatus: counts(burstRuns, (e) => e.status),
				victimStartedBeforeKill: workerJobs(victim.log().slice(logOffset)).started.size,
				survivorStarted: workerJobs(survivor.log().slice(survivorLogOffset)).started.size,
			};
			k.seconds = secs(Date.now() - phaseStart);
		}),
		12 * 60 * 1000,
	);

	test('no process of the cluster tried to reach anything outside loopback', () => {
		const { loaded, attempts } = readGuardLog(path.join(runDir, 'netguard.jsonl'));
		report.loopbackOnly = {
			processesUnderGuard: loaded.length,
			attemptsOutsideLoopback: attempts.length,
		};
		// main (started twice if the worker-kill test restarted it), webhook processor, workers.
		expect(loaded.length).toBeGreaterThanOrEqual(2 + WORKERS);
		expect(attempts.map((a) => `${a.kind} ${a.target} (${a.argv})`)).toEqual([]);
	});
});
