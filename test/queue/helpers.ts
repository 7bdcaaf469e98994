/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/* Helpers for the queue-mode suite: workflows, signed deliveries, the public API, worker logs. */
import * as crypto from 'node:crypto';
import type { IDataObject, IRunExecutionData } from 'n8n-workflow';
import type { QueueCluster } from '../harness/queue/cluster';

/* eslint-disable @typescript-eslint/no-require-imports */
export const clusterLib: typeof import('../harness/queue/cluster') = require('../harness/queue/cluster');
export const sandboxLib: typeof import('../../sandbox/server') = require('../../sandbox/server');
export const examplesLib: typeof import('../harness/n8n/examples') = require('../harness/n8n/examples');
export const sessionLib: typeof import('../harness/n8n/session') = require('../harness/n8n/session');
const signing: typeof import('../../sandbox/signing') = require('../../sandbox/signing');
/* eslint-enable @typescript-eslint/no-require-imports */

/** An execution as n8n's public API returns it (`data` only with `includeData=true`). */
export interface ApiExecution {
	id: string;
	status: string;
	mode?: string;
	data?: IRunExecutionData;
}

/** A page of GET /api/v1/executions. */
interface ExecutionPage {
	data: ApiExecution[];
	nextCursor?: string | null;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const TRIGGER_TYPE = 'n8n-nodes-tenant-api.tenantApiTrigger';
export const ACTION_TYPE = 'n8n-nodes-tenant-api.tenantApi';
export const TRIGGER_NAME = 'Tenant API Trigger';
export const POST_NAME = 'Create transfer';

export interface Flow {
	tag: 'business' | 'default';
	id: string;
	webhookId: string;
	path: string;
}

/**
 * The POST node's Timeout: longer than the queue suite ever lets the sandbox hold an answer (the
 * worker-kill test), so no attempt times out while its answer is held.
 */
export const NODE_TIMEOUT_MS = 10 * 60 * 1000;

/** The POST node's own attempts per try (Max Attempts) and n8n's Retry On Fail tries. */
export const TRANSFER_RETRIES = { maxAttempts: 2, maxTries: 5 };

/** The trigger's Respond option: answer on receipt, or only once the workflow succeeded (500 otherwise). */
export type Respond = 'onReceipt' | 'whenFinished';

/**
 * Trigger → Tenant API POST /transfers, Retry On Fail on (5 tries). The node itself tries each request
 * twice (Max Attempts 2, 50 ms base delay), so injected faults often exhaust it and Retry On Fail
 * re-runs the node. `businessKey`: Idempotency-Key = "evt-" + event id; otherwise the automatic key
 * (scoped to the delivery: workflow, `webhookDelivery.id` (with the trigger's defaults, the SHA-256 of the body, so
 * the same bytes delivered again get the same keys), node, run index, item index).
 */
export function transferWorkflow(
	name: string,
	credential: { id: string; name: string },
	businessKey: boolean,
	webhookCredential: { id: string; name: string },
	respond: Respond = 'onReceipt',
) {
	const webhookId = crypto.randomUUID();
	const options: Record<string, unknown> = {
		includeMetadata: true,
		maxAttempts: TRANSFER_RETRIES.maxAttempts,
		retryBaseDelay: 50,
		timeout: NODE_TIMEOUT_MS,
	};
	if (businessKey) options.idempotencyKey = '={{ "evt-" + $json.id }}';
	return {
		webhookId,
		body: {
			name,
			nodes: [
				{
					id: crypto.randomUUID(),
					name: TRIGGER_NAME,
					type: TRIGGER_TYPE,
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: { respond },
					credentials: { tenantWebhookApi: webhookCredential },
				},
				{
					id: crypto.randomUUID(),
					name: POST_NAME,
					type: ACTION_TYPE,
					typeVersion: 1,
					position: [240, 0],
					retryOnFail: true,
					maxTries: TRANSFER_RETRIES.maxTries,
					waitBetweenTries: 100,
					parameters: {
						resource: 'request',
						operation: 'post',
						endpoint: '/transfers',
						body: '={{ JSON.stringify({ event_id: $json.id, amount: $json.data.object.amount }) }}',
						options,
					},
					credentials: { tenantApi: credential },
				},
			],
			connections: { [TRIGGER_NAME]: { main: [[{ node: POST_NAME, type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
	};
}

export function eventBody(id: string, amount: number): Buffer {
	return Buffer.from(
		JSON.stringify({
			id,
			event: 'transfer.created',
			created_at: Math.floor(Date.now() / 1000),
			data: { object: { id: `tr_${id}`, amount, currency: 'EUR' } },
		}),
	);
}

export type ForgeKind = 'wrong-secret' | 'tampered-body' | 'unsigned';

/** POST one delivery to the webhook processor; resolves the HTTP status. */
export async function deliver(
	url: string,
	body: Buffer,
	secret: string,
	forge?: ForgeKind,
): Promise<number> {
	let headers: Record<string, string> = { 'content-type': 'application/json' };
	let sent = body;
	if (forge === 'wrong-secret')
		headers = {
			...headers,
			...signing.sign({ secret: `${secret}-not`, scheme: 'hmac-sha256-hex', body }),
		};
	else if (forge === 'tampered-body') {
		headers = { ...headers, ...signing.sign({ secret, scheme: 'hmac-sha256-hex', body }) };
		sent = Buffer.from(body.toString('utf8').replace(/"amount":(\d+)/, '"amount":9$1'));
	} else if (forge !== 'unsigned')
		headers = { ...headers, ...signing.sign({ secret, scheme: 'hmac-sha256-hex', body }) };
	// No retry on a connection error: n8n may have seen the request, and a resend would be a second delivery.
	const res = await fetch(url, { method: 'POST', headers, body: new Uint8Array(sent) });
	await res.arrayBuffer();
	return res.status;
}

/** Every execution of a workflow through the public API (finished ones; `status` to ask for others). */
export async function listExecutions(
	cluster: QueueCluster,
	workflowId: string,
	{ includeData = false, status }: { includeData?: boolean; status?: string } = {},
): Promise<ApiExecution[]> {
	const out: ApiExecution[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 100; page++) {
		const q = new URLSearchParams({ workflowId, limit: '250', includeData: String(includeData) });
		if (status) q.set('status', status);
		if (cursor) q.set('cursor', cursor);
		const res = await cluster.api<ExecutionPage>('GET', `/executions?${q}`);
		if (res.status !== 200 || !res.json)
			throw new Error(`GET /api/v1/executions -> ${res.status}: ${res.text.slice(0, 300)}`);
		out.push(...res.json.data);
		cursor = res.json.nextCursor ?? undefined;
		if (!cursor) break;
	}
	return out;
}

export async function getExecution(
	cluster: QueueCluster,
	id: string,
	includeData = false,
): Promise<ApiExecution> {
	const res = await cluster.api<ApiExecution>(
		'GET',
		`/executions/${id}?includeData=${includeData}`,
	);
	if (res.status !== 200 || !res.json)
		throw new Error(`GET /api/v1/executions/${id} -> ${res.status}: ${res.text.slice(0, 300)}`);
	return res.json;
}

/** Event id the trigger emitted, and the POST node's metadata output, of one execution (with data). */
export function executionFacts(execution: ApiExecution): {
	eventId: string | undefined;
	post: IDataObject | undefined;
} {
	const runData = execution.data?.resultData?.runData ?? {};
	const trig = runData[TRIGGER_NAME]?.[0]?.data?.main?.[0]?.[0]?.json;
	const posts = runData[POST_NAME];
	const out = posts?.[posts.length - 1]?.data?.main?.[0]?.[0]?.json;
	return { eventId: trig?.id as string | undefined, post: out };
}

/** The event id an execution was started for: the trigger's output, or (not run yet) its item waiting on the stack. */
export function eventIdOfExecution(execution: ApiExecution): string | undefined {
	const waiting =
		execution.data?.executionData?.nodeExecutionStack?.[0]?.data?.main?.[0]?.[0]?.json;
	return executionFacts(execution).eventId ?? (waiting?.id as string | undefined);
}

/** Worker log lines → executions started and finished (n8n's JobProcessor logs both at info). */
export function workerJobs(logText: string) {
	const started = new Map<string, string>();
	const finished = new Set<string>();
	for (const m of logText.matchAll(/Worker started execution (\d+) \(job (\d+)\)/g))
		started.set(m[1], m[2]);
	for (const m of logText.matchAll(/Worker finished execution (\d+) \(job (\d+)\)/g))
		finished.add(m[1]);
	return { started, finished };
}

export function countBy<T>(items: T[], key: (t: T) => string): Map<string, number> {
	const m = new Map<string, number>();
	for (const it of items) m.set(key(it), (m.get(key(it)) ?? 0) + 1);
	return m;
}

/** Poll `check` until it returns a truthy value or the time is up (then returns the last value). */
export async function waitFor<T>(
	check: () => Promise<T>,
	{ timeoutMs, intervalMs = 1000 }: { timeoutMs: number; intervalMs?: number },
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: T;
	for (;;) {
		last = await check();
		if (last || Date.now() > deadline) return last;
		await sleep(intervalMs);
	}
}

export async function inBatches<T, R>(
	items: T[],
	size: number,
	fn: (t: T) => Promise<R>,
): Promise<R[]> {
	const out: R[] = [];
	for (let i = 0; i < items.length; i += size)
		out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
	return out;
}
