/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/* Shared helpers for the e2e suite (plain requires: the scripts are CommonJS; their .d.ts files type them). */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IDataObject, IRun, IRunExecutionData, IWorkflowBase } from 'n8n-workflow';

export const ROOT = path.resolve(__dirname, '..', '..');
export const VERSION = process.env.N8N_E2E_VERSION || '2.40.7';
export const WEBHOOK_SECRET = 'whsec_e2e_' + crypto.randomBytes(6).toString('hex');

/* eslint-disable @typescript-eslint/no-require-imports */
export const instanceLib: typeof import('../../scripts/n8n/instance') = require('../../scripts/n8n/instance');
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

export function tarball(): string {
	const file = process.env.E2E_TARBALL;
	if (!file || !fs.existsSync(file)) throw new Error('E2E_TARBALL is not set: run through `npm run e2e`');
	return file;
}

export function tempUserFolder(tag: string): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), `tenant-api-e2e-${tag}-`));
}

export function removeUnlessKept(dir: string): void {
	if (process.env.E2E_KEEP === '1') {
		// eslint-disable-next-line no-console
		console.log(`E2E_KEEP: left ${dir}`);
		return;
	}
	fs.rmSync(dir, { recursive: true, force: true });
}

function portFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

/** A port p with p, p + 1 and p + 2 free (task-runner brokers of `n8n start` and of CLI runs). */
export async function freePorts(): Promise<number> {
	for (let i = 0; i < 50; i++) {
		const p = 20000 + Math.floor(Math.random() * 20000);
		if ((await portFree(p)) && (await portFree(p + 1)) && (await portFree(p + 2))) return p;
	}
	throw new Error('no three free ports in a row');
}

/** Copy the instance's logs to test-artifacts/e2e/<version>/ (kept for CI and for a look after a failure). */
export function saveLogs(userFolder: string): string {
	const dest = path.join(ROOT, 'test-artifacts', 'e2e', VERSION);
	fs.mkdirSync(dest, { recursive: true });
	for (const f of ['n8n.log', 'cli.log']) {
		const src = path.join(userFolder, f);
		if (fs.existsSync(src)) fs.copyFileSync(src, path.join(dest, f));
	}
	return dest;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Production webhook path of the Tenant API Trigger in a workflow. */
export function triggerWebhookPath(workflow: IWorkflowBase): string {
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-tenant-api.tenantApiTrigger');
	return `/webhook/${trigger?.webhookId}/webhook`;
}

export function hmacHex(secret: string, body: Buffer | string): string {
	return crypto.createHmac('sha256', secret).update(body).digest('hex');
}

/** Output items of a node in an IRun (as printed by `n8n execute --rawOutput`). */
export function nodeOutput(run: IRun, nodeName: string): IDataObject[] {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!runs) throw new Error(`no run data for "${nodeName}": ${JSON.stringify(run?.data?.resultData?.error ?? {})}`);
	return (runs[runs.length - 1].data?.main[0] ?? []).map((item) => item.json);
}
