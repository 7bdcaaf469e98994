/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code: runs in Node next to n8n, not in n8n Cloud */
/* Shared helpers for the e2e suite (plain requires: the scripts are CommonJS, typed by their JSDoc). */
import { N8N_VERSION, tarball } from '../harness/realN8n';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IDataObject, IRun, IRunExecutionData, IWorkflowBase } from 'n8n-workflow';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { type SigningScheme, sign } from '../../sandbox/signing';
import type { N8nInstance } from '../../scripts/n8n/instance';

export const ROOT = path.resolve(__dirname, '..', '..');
export { tarball };
/** The n8n version of this project (e2e-2x or e2e-1x in jest.config.js). */
export const VERSION = N8N_VERSION;
export const WEBHOOK_SECRET = 'whsec_e2e_' + crypto.randomBytes(6).toString('hex');

/* eslint-disable @typescript-eslint/no-require-imports */
export const instanceLib: typeof import('../../scripts/n8n/instance') = require('../../scripts/n8n/instance');
const portsLib: typeof import('../../scripts/n8n/ports') = require('../../scripts/n8n/ports');
export const sessionLib: typeof import('../../scripts/n8n/session') = require('../../scripts/n8n/session');
export const startLib = require('../../scripts/start');
export const sandboxLib: typeof import('../../sandbox/server') = require('../../sandbox/server');
/* eslint-enable @typescript-eslint/no-require-imports */

/** An execution as n8n's public API lists it (with `includeData=true`). */
export interface ApiExecution {
	id: string;
	finished: boolean;
	status: string;
	data: IRunExecutionData;
}

/** A workflow file from examples/ (n8n's export format). */
export function readExample(name: string): IWorkflowBase {
	return JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${name}.json`), 'utf8'));
}

export function tempUserFolder(tag: string): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), `tenant-api-e2e-${tag}-`));
}

/** Removes `dir`, unless `keep` (default: E2E_KEEP=1) says to leave it for a look. */
export function removeUnlessKept(dir: string, keep = process.env.E2E_KEEP === '1'): void {
	if (keep) {
		// eslint-disable-next-line no-console
		console.log(`kept ${dir}`);
		return;
	}
	fs.rmSync(dir, { recursive: true, force: true });
}

/** A port p with p, p + 1 and p + 2 free (task-runner brokers of `n8n start` and of CLI runs). */
export function freePorts(): Promise<number> {
	return portsLib.freePort({ run: 3 });
}

/**
 * Copy the instance's logs to test-artifacts/e2e/<version>/ as <prefix>n8n.log and <prefix>cli.log (kept for
 * CI and for a look after a failure).
 */
export function saveLogs(userFolder: string, prefix = ''): string {
	const dest = path.join(ROOT, 'test-artifacts', 'e2e', VERSION);
	fs.mkdirSync(dest, { recursive: true });
	for (const f of ['n8n.log', 'cli.log']) {
		const src = path.join(userFolder, f);
		if (fs.existsSync(src)) fs.copyFileSync(src, path.join(dest, prefix + f));
	}
	return dest;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A workflow as n8n's public API takes it, with a Tenant API Trigger among its nodes. */
export type WorkflowBody = {
	name: string;
	nodes: Array<{ type: string; webhookId?: string }>;
} & Record<string, unknown>;

/** Production webhook path of the Tenant API Trigger in a workflow. */
export function triggerWebhookPath(workflow: Pick<WorkflowBody, 'nodes'>): string {
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-tenant-api.tenantApiTrigger');
	return `/webhook/${trigger?.webhookId}/webhook`;
}

/** The `x-signature` the sandbox sends in its default scheme (hex HMAC-SHA256 of the body). */
export function hmacHex(secret: string, body: Buffer | string): string {
	return sign({ secret, body })['x-signature'];
}

/** Output items of a node in an IRun (as printed by `n8n execute --rawOutput`). */
export function nodeOutput(run: IRun, nodeName: string): IDataObject[] {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!runs)
		throw new Error(
			`no run data for "${nodeName}": ${JSON.stringify(run?.data?.resultData?.error ?? {})}`,
		);
	return (runs[runs.length - 1].data?.main[0] ?? []).map((item) => item.json);
}

function oneNodeTrigger({
	name,
	webhookId,
	parameters,
	credential,
}: {
	name: string;
	webhookId: string;
	parameters: IDataObject;
	credential: { id?: string; name?: string };
}): WorkflowBody {
	const node = {
		id: crypto.randomUUID(),
		name: 'Tenant API Trigger',
		type: 'n8n-nodes-tenant-api.tenantApiTrigger',
		typeVersion: 1,
		position: [0, 0],
		webhookId,
	};
	const nodes = [{ ...node, parameters, credentials: { tenantWebhookApi: credential } }];
	return { name, nodes, connections: {}, settings: { executionOrder: 'v1' } };
}

/**
 * A workflow with a Tenant API Trigger created and activated through n8n's public API: the whole workflow given, or a
 * one-node one from the trigger's `name`, `webhookId`, `parameters` and `credential`. Resolves with its id and the
 * trigger's production webhook path once n8n serves it.
 */
export async function publishTrigger(
	n8n: N8nInstance,
	trigger: WorkflowBody | Parameters<typeof oneNodeTrigger>[0],
): Promise<{ workflowId: string; path: string }> {
	const workflow = 'nodes' in trigger ? trigger : oneNodeTrigger(trigger);
	const workflowId = await sessionLib.createActiveWorkflow(n8n, workflow);
	const path = triggerWebhookPath(workflow);
	await n8n.waitForWebhook(path);
	return { workflowId, path };
}

/** The first successful execution of a workflow, with its data (public API), waiting up to 30 s for it. */
export async function successfulExecution(
	n8n: N8nInstance,
	workflowId: string,
): Promise<ApiExecution> {
	for (let i = 0; i < 60; i++) {
		const run = (await executionsOf(n8n, workflowId)).find((e) => e.status === 'success');
		if (run) return run;
		await sleep(500);
	}
	throw new Error(`no successful execution of workflow ${workflowId}`);
}

/** A workflow's executions as n8n's public API lists them, with their data. */
export async function executionsOf(n8n: N8nInstance, workflowId: string): Promise<ApiExecution[]> {
	return (
		(
			await n8n.api<{ data: ApiExecution[] }>(
				'GET',
				`/executions?workflowId=${workflowId}&includeData=true`,
			)
		).json?.data ?? []
	);
}

const settled = (execution: ApiExecution) =>
	execution.finished || execution.status === 'success' || execution.status === 'error';

/** The workflow's executions once every one listed has ended and `done` says those waited for are there (up to 30 s). */
export async function executionsUntil(
	n8n: N8nInstance,
	workflowId: string,
	done: (ended: ApiExecution[]) => boolean,
): Promise<ApiExecution[]> {
	for (let i = 0; i < 60; i++) {
		const list = await executionsOf(n8n, workflowId);
		if (list.every(settled) && done(list)) return list;
		await sleep(500);
	}
	throw new Error(`workflow ${workflowId}: the executions waited for did not end`);
}

/** A suite's sandbox and n8n (VERSION, its own temp user folder, the packed package installed). */
export interface SuiteSetUp {
	sandbox: Sandbox;
	n8n: N8nInstance;
	userFolder: string;
	/** n8n stopped, the sandbox closed, the logs saved, the user folder removed unless `keep` (default: E2E_KEEP=1). */
	tearDown(options?: { keep?: boolean }): Promise<void>;
}

export interface SuiteOptions {
	/** The suite's name ('' for the main suite): user folder tenant-api-e2e-<name>-<version>-…, logs <name>-n8n.log. */
	name: string;
	/** A production webhook path of this n8n: the sandbox delivers its events there, signed with WEBHOOK_SECRET. */
	webhookPath?: string;
	/** n8n settings of the suite (on top of offlineEnv()), given the user folder. */
	env?: (userFolder: string) => Record<string, string>;
	/** How the package gets into n8n; default: the tarball installed the way n8n's community installer does. */
	install?: (n8n: N8nInstance) => unknown;
	/** Import the examples as `npm start` does: credentials (webhook secret WEBHOOK_SECRET), workflows, the trigger published. */
	examples?: boolean;
	/** Sandbox settings of the suite, e.g. seeded collections `{ transfers: 130 }`. */
	sandbox?: Pick<SandboxOptions, 'transfers' | 'payouts'>;
}

/** The signing scheme of the examples' trigger and of the sandbox's deliveries to it. */
const EXAMPLES_SCHEME: SigningScheme = 'hmac-sha256-hex';

/** The sandbox; with `webhookPath`, its webhook sender delivers to that path of the n8n on `n8nPort`. */
function startSandboxFor(
	n8nPort: number,
	webhookPath?: string,
	settings: SuiteOptions['sandbox'] = {},
): Promise<Sandbox> {
	const webhook = webhookPath
		? {
				url: `http://127.0.0.1:${n8nPort}${webhookPath}`,
				secrets: [WEBHOOK_SECRET],
				scheme: EXAMPLES_SCHEME,
			}
		: undefined;
	return sandboxLib.startSandbox({ port: 0, ...settings, ...(webhook ? { webhook } : {}) });
}

function installAsCommunityPackage(n8n: N8nInstance): Promise<string> {
	return n8n.installPackage(tarball());
}

/** Runs every step, even after one fails; then throws the first failure. */
async function releaseAll(steps: Array<() => unknown>): Promise<void> {
	const failures: unknown[] = [];
	for (const step of steps) {
		try {
			await step();
		} catch (err) {
			failures.push(err);
		}
	}
	if (failures.length > 0) throw failures[0];
}

/** What setUpSuite has made so far (no sandbox when starting it failed). */
interface Made {
	name: string;
	n8n: N8nInstance;
	userFolder: string;
	sandbox?: Sandbox;
}

function tearDown({ name, n8n, userFolder, sandbox }: Made, keep?: boolean): Promise<void> {
	return releaseAll([
		() => n8n.stop(),
		() => sandbox?.close(),
		() => {
			const logs = saveLogs(userFolder, name ? `${name}-` : '');
			// eslint-disable-next-line no-console
			console.log(`n8n ${VERSION} logs: ${logs}`);
		},
		() => removeUnlessKept(userFolder, keep),
	]);
}

/**
 * Start the sandbox, make an n8n in a temp user folder, install the package (and import the examples when
 * asked). n8n itself is not started. If a step fails, what was made is released before the error is thrown.
 */
export async function setUpSuite({
	name,
	webhookPath,
	env,
	install = installAsCommunityPackage,
	examples = false,
	sandbox: sandboxSettings,
}: SuiteOptions): Promise<SuiteSetUp> {
	const port = await freePorts();
	const userFolder = tempUserFolder([name, VERSION].filter(Boolean).join('-'));
	const n8n = instanceLib.createInstance({
		version: VERSION,
		userFolder,
		port,
		env: env?.(userFolder),
	});
	const made: Made = { name, n8n, userFolder };
	try {
		const sandbox = await startSandboxFor(port, webhookPath, sandboxSettings);
		made.sandbox = sandbox;
		await install(n8n);
		if (examples)
			await startLib.importExamples(n8n, sandbox, {
				scheme: EXAMPLES_SCHEME,
				secret: WEBHOOK_SECRET,
			});
		return { sandbox, n8n, userFolder, tearDown: (options) => tearDown(made, options?.keep) };
	} catch (err) {
		await tearDown(made).catch(() => undefined);
		throw err;
	}
}
