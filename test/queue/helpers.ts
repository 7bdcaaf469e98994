/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/* Helpers for the queue-mode suite: workflows, signed deliveries, executions through the public API, worker logs. */
import { randomUUID } from 'node:crypto';
import type { ApiExecution } from '../harness/n8n/session';

export type { ApiExecution };

/* eslint-disable @typescript-eslint/no-require-imports */
export const clusterLib: typeof import('../harness/queue/cluster') = require('../harness/queue/cluster');
export const sandboxLib: typeof import('../../sandbox/server') = require('../../sandbox/server');
export const examplesLib: typeof import('../harness/n8n/examples') = require('../harness/n8n/examples');
export const sessionLib: typeof import('../harness/n8n/session') = require('../harness/n8n/session');
const {
	chain,
	node,
}: typeof import('../harness/n8n/workflows') = require('../harness/n8n/workflows');
const { sign }: typeof import('../../sandbox/signing') = require('../../sandbox/signing');
/* eslint-enable @typescript-eslint/no-require-imports */

export interface Flow {
	tag: 'business' | 'default';
	id: string;
	path: string;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const TRIGGER_NAME = 'Tenant API Trigger';
export const POST_NAME = 'Create transfer';
/** The POST node's Timeout: longer than the suite ever lets the sandbox hold an answer (the worker kill). */
export const NODE_TIMEOUT_MS = 10 * 60 * 1000;
/** The POST node's own attempts per try (Max Attempts) and n8n's Retry On Fail tries. */
export const TRANSFER_RETRIES = { maxAttempts: 2, maxTries: 5 };

/**
 * Trigger (Respond `respond`) → Tenant API POST /transfers with Retry On Fail. `businessKey`:
 * Idempotency-Key = "evt-" + event id; otherwise the automatic key (scoped to the delivery).
 */
export function transferWorkflow(
	name: string,
	credentials: { tenantApi: object; tenantWebhookApi: object },
	businessKey: boolean,
	respond: 'onReceipt' | 'whenFinished',
) {
	const webhookId = randomUUID();
	const options = {
		includeMetadata: true,
		maxAttempts: TRANSFER_RETRIES.maxAttempts,
		retryBaseDelay: 50,
		timeout: NODE_TIMEOUT_MS,
		...(businessKey ? { idempotencyKey: '={{ "evt-" + $json.id }}' } : {}),
	};
	const workflow = chain(name, [
		node(
			TRIGGER_NAME,
			'n8n-nodes-tenant-api.tenantApiTrigger',
			{ respond },
			{ webhookId, credentials: { tenantWebhookApi: credentials.tenantWebhookApi } },
		),
		node(
			POST_NAME,
			'n8n-nodes-tenant-api.tenantApi',
			{
				resource: 'request',
				operation: 'post',
				endpoint: '/transfers',
				body: '={{ JSON.stringify({ event_id: $json.id, amount: $json.data.object.amount }) }}',
				options,
			},
			{
				retryOnFail: true,
				maxTries: TRANSFER_RETRIES.maxTries,
				waitBetweenTries: 100,
				credentials: { tenantApi: credentials.tenantApi },
			},
		),
	]);
	return { workflow, path: `/webhook/${webhookId}/webhook` };
}

export const eventBody = (id: string, amount: number): Buffer =>
	Buffer.from(
		JSON.stringify({
			id,
			event: 'transfer.created',
			created_at: Math.floor(Date.now() / 1000),
			data: { object: { id: `tr_${id}`, amount, currency: 'EUR' } },
		}),
	);

export type ForgeKind = 'wrong-secret' | 'tampered-body' | 'unsigned';

/** POST one delivery (signed, or forged as `forge` says) to the webhook processor; resolves the HTTP status. */
export async function deliver(url: string, body: Buffer, secret: string, forge?: ForgeKind) {
	const signWith = forge === 'wrong-secret' ? `${secret}-not` : secret;
	const signature =
		forge === 'unsigned' ? {} : sign({ secret: signWith, scheme: 'hmac-sha256-hex', body });
	const sent =
		forge === 'tampered-body' ? body.toString().replace(/"amount":(\d+)/, '"amount":9$1') : body;
	// No retry on a connection error: n8n may have seen the request, and a resend would be a second delivery.
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...signature },
		body: new Uint8Array(Buffer.from(sent)),
	});
	await res.arrayBuffer();
	return res.status;
}

export const isFinished = (e: ApiExecution) => !['new', 'running', 'waiting'].includes(e.status);

/** The first output item of a node's last run in an execution (with data). */
export const outputOf = (e: ApiExecution, node: string) =>
	e.data?.resultData?.runData?.[node]?.at(-1)?.data?.main?.[0]?.[0]?.json;

/** The event id an execution was started for: the trigger's output, or (not run yet) its item waiting on the stack. */
export const eventIdOf = (e: ApiExecution): string | undefined =>
	(
		outputOf(e, TRIGGER_NAME) ??
		e.data?.executionData?.nodeExecutionStack?.[0]?.data?.main?.[0]?.[0]?.json
	)?.id as string | undefined;

/** Worker log lines → executions started and finished (n8n's JobProcessor logs both at info). */
export function workerJobs(logText: string) {
	const ids = (verb: string) =>
		[...logText.matchAll(new RegExp(`Worker ${verb} execution (\\d+) `, 'g'))].map((m) => m[1]);
	return { started: new Set(ids('started')), finished: new Set(ids('finished')) };
}

/** Execution ids the webhook processor enqueued in `logText`. */
export const enqueued = (logText: string) =>
	[...logText.matchAll(/Enqueued execution (\d+)/g)].map((m) => m[1]);

export function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
	const m: Record<string, number> = {};
	for (const it of items) m[key(it)] = (m[key(it)] ?? 0) + 1;
	return m;
}
