/*
 * Helpers for the e2e and browser suites. Every file runs against its project's one n8n (sharedN8n.ts)
 * with a sandbox of its own, and creates its own credentials and workflows through n8n's public API.
 */
import * as crypto from 'node:crypto';
import type { IDataObject, IRun, IRunExecutionData, IWorkflowBase } from 'n8n-workflow';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { sign } from '../../sandbox/signing';
import type { N8nInstance } from '../harness/n8n/instance';
import type { ApiExecution as SessionExecution } from '../harness/n8n/session';
import { ROOT } from '../harness/packedPackage';
import { N8N_VERSION } from '../harness/realN8n';
import { sharedN8n } from '../harness/sharedN8n';

export { ROOT };
export const VERSION = N8N_VERSION;
export const WEBHOOK_SECRET = 'whsec_e2e_' + crypto.randomBytes(6).toString('hex');
export const TRIGGER_TYPE = 'n8n-nodes-tenant-api.tenantApiTrigger';

/* eslint-disable @typescript-eslint/no-require-imports */
export const sessionLib: typeof import('../harness/n8n/session') = require('../harness/n8n/session');
export const startLib: typeof import('../harness/n8n/examples') = require('../harness/n8n/examples');
const sandboxLib: typeof import('../../sandbox/server') = require('../../sandbox/server');
export const workflows: typeof import('../harness/n8n/workflows') = require('../harness/n8n/workflows');
/* eslint-enable @typescript-eslint/no-require-imports */

export type ApiExecution = SessionExecution & { data: IRunExecutionData };

export const { poll } = sessionLib;

/** A workflow as n8n's public API takes it, with a Tenant API Trigger among its nodes. */
export type WorkflowBody = {
	name: string;
	nodes: Array<{ type: string; webhookId?: string }>;
} & Record<string, unknown>;

/** The `x-signature` of the sandbox's default scheme. */
export function hmacHex(secret: string, body: Buffer | string): string {
	return sign({ secret, body })['x-signature'];
}

export function nodeOutput(run: Pick<IRun, 'data'>, nodeName: string): IDataObject[] {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!runs)
		throw new Error(
			`no run data for "${nodeName}": ${JSON.stringify(run?.data?.resultData?.error ?? {})}`,
		);
	return (runs[runs.length - 1].data?.main[0] ?? []).map((item) => item.json);
}

/** Created and activated; resolves once n8n serves the trigger's production webhook path. */
export async function publishTrigger(
	n8n: N8nInstance,
	workflow: WorkflowBody,
): Promise<{ workflowId: string; path: string }> {
	const workflowId = await sessionLib.createActiveWorkflow(n8n, workflow);
	const path = `/webhook/${workflow.nodes.find((n) => n.type === TRIGGER_TYPE)?.webhookId}/webhook`;
	await n8n.waitForWebhook(path);
	return { workflowId, path };
}

/** Ended, with its data (n8n 1.x can list an ended execution before its data). */
export const settled = (execution: ApiExecution) =>
	!!execution.data &&
	(execution.finished || execution.status === 'success' || execution.status === 'error');

export const executionsOf = async (n8n: N8nInstance, workflowId: string) =>
	(await sessionLib.listExecutions(n8n, workflowId, { includeData: 'true' })) as ApiExecution[];

/** The workflow's executions once every one listed has ended and `done` says those waited for are there (up to 30 s). */
export const executionsUntil = (
	n8n: N8nInstance,
	workflowId: string,
	done: (ended: ApiExecution[]) => boolean,
) =>
	poll(async () => {
		const list = await executionsOf(n8n, workflowId);
		return list.every(settled) && done(list) && list;
	}, `workflow ${workflowId}: the executions waited for did not end`);

export interface CredentialRef {
	id: string;
	name: string;
}

/** The example credentials for `sandbox`, the webhook one with WEBHOOK_SECRET; by credential type. */
export const sandboxCredentials = (n8n: N8nInstance, sandbox: Sandbox, label: string) =>
	startLib.sandboxCredentials(n8n, sandbox, WEBHOOK_SECRET, label);

/**
 * An example of examples/ as the public API takes it: its credentials replaced by those of `credentials` (by
 * type), a trigger's webhookId by a new one.
 */
export function exampleWorkflow(
	name: string,
	credentials: Partial<Record<string, CredentialRef>>,
): WorkflowBody {
	const example: IWorkflowBase = startLib.readExample(`${name}.json`);
	const webhookId = crypto.randomUUID();
	const nodes = example.nodes.map((node) => ({
		...node,
		...(node.webhookId ? { webhookId } : {}),
		...(node.credentials
			? {
					credentials: Object.fromEntries(
						Object.keys(node.credentials).map((type) => [type, credentials[type]]),
					),
				}
			: {}),
	}));
	return {
		name: `${example.name} (${VERSION}, ${webhookId.slice(0, 8)})`,
		nodes,
		connections: example.connections,
		settings: example.settings,
	};
}

/**
 * What the editor sends for "Execute workflow" from the trigger named `trigger` (the owner's login cookie):
 * 2.x reads the workflow from the database, 1.x takes it in the body. `{ executionId }` once a run started,
 * `{ waitingForWebhook: true }` when the trigger listens at its Test URL.
 */
export async function startManualRun(
	n8n: N8nInstance,
	workflowId: string,
	trigger: string,
): Promise<{
	status: number;
	json?: { data?: { executionId?: string; waitingForWebhook?: boolean } };
}> {
	const cookie = n8n.cookie;
	const saved = VERSION.startsWith('1.')
		? {
				workflowData: (
					await n8n.request<{ data: IDataObject }>('GET', `/rest/workflows/${workflowId}`, {
						cookie,
					})
				).json?.data,
			}
		: {};
	return await n8n.request('POST', `/rest/workflows/${workflowId}/run`, {
		cookie,
		headers: { 'push-ref': `e2e-${crypto.randomUUID()}` },
		body: { ...saved, triggerToStartFrom: { name: trigger } },
	});
}

const ENDED = ['success', 'error', 'crashed', 'canceled'];

/** A workflow run from its Manual Trigger `trigger`, as the editor starts it, to its end: the execution and its data. */
export async function runManually(
	n8n: N8nInstance,
	workflowId: string,
	trigger: string,
): Promise<ApiExecution> {
	const started = await startManualRun(n8n, workflowId, trigger);
	const executionId = started.json?.data?.executionId;
	if (started.status !== 200 || !executionId)
		throw new Error(
			`manual run of ${workflowId} -> ${started.status}: ${JSON.stringify(started.json)}`,
		);
	// Until it is saved, n8n answers 404 for a new execution; 1.x can list an ended one before its data.
	const ended = async () => {
		const execution = await sessionLib.getExecution(n8n, executionId, true).catch(() => undefined);
		return execution?.data && ENDED.includes(execution.status) && (execution as ApiExecution);
	};
	return await poll(ended, `manual run ${executionId} of workflow ${workflowId} did not end`, {
		timeoutMs: 120000,
		intervalMs: 200,
	});
}

export const projectN8n = () => sharedN8n(VERSION);

/** A sandbox of the file's own (`settings`: e.g. seeded collections `{ payouts: 12 }`). */
export const startSandbox = (settings: Pick<SandboxOptions, 'transfers' | 'payouts'> = {}) =>
	sandboxLib.startSandbox({ port: 0, ...settings });
