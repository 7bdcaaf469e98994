/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Loopback only: every n8n the project starts gets offlineEnv() (scripts/n8n/env.js). This proves
 * that environment complete for the n8n version under test. n8n runs under scripts/n8n/netguard.js, a
 * Node preload (through NODE_OPTIONS, so every Node process n8n starts loads it too) that refuses and
 * records every DNS query and TCP/UDP connection outside loopback. Then: the CLI commands that set an
 * instance up, `n8n start`, a workflow run in the CLI and one started by a signed delivery, the editor's
 * start-up calls, `n8n stop` — and not one attempt recorded.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { N8nInstance } from '../../scripts/n8n/instance';
import {
	type ApiExecution,
	type SuiteSetUp,
	VERSION,
	WEBHOOK_SECRET,
	hmacHex,
	nodeOutput,
	readExample,
	removeUnlessKept,
	setUpSuite,
	sleep,
	tempUserFolder,
	triggerWebhookPath,
} from './helpers';

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const { guardEnv, readGuardLog } = require('../../scripts/n8n/netguard-log');

const LIST = readExample('list-accounts');
const TRIGGER = readExample('webhook-trigger');
const WEBHOOK_PATH = triggerWebhookPath(TRIGGER);
/** Where the loopback guard of the suite's n8n records what it loaded and refused. */
const guardLogIn = (userFolder: string) => path.join(userFolder, 'netguard.jsonl');

type Attempt = { pid: number; argv: string; kind: string; target: string; stack: string[] };
const describeAttempts = (attempts: Attempt[]) =>
	attempts.map(
		(a) => `${a.kind} ${a.target} (${a.argv})\n    ${a.stack.slice(0, 12).join('\n    ')}`,
	);

test('the guard refuses and records what leaves loopback, and lets loopback through', () => {
	const dir = tempUserFolder('netguard');
	const log = path.join(dir, 'guard.jsonl');
	// 127.0.0.2 and "localhost" are flagged as outside for this check: nothing leaves the machine.
	const script = `
		const http = require('node:http'), dns = require('node:dns');
		const server = http.createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', async () => {
			const port = server.address().port;
			const out = { loopback: await (await fetch('http://127.0.0.1:' + port)).text() };
			out.flaggedFetch = await fetch('http://127.0.0.2:' + port).then(() => 'connected', (e) => e.cause && e.cause.code);
			out.flaggedLookup = await dns.promises.lookup('localhost').then(() => 'resolved', (e) => e.code);
			server.close();
			console.log(JSON.stringify(out));
		});`;
	const res = spawnSync(process.execPath, ['-e', script], {
		env: { ...process.env, ...guardEnv(log), TENANT_API_NETGUARD_FLAG: '127.0.0.2,localhost' },
		encoding: 'utf8',
		timeout: 30000,
	});
	expect(res.stderr).toBe('');
	expect(JSON.parse(res.stdout)).toEqual({
		loopback: 'ok',
		flaggedFetch: 'ECONNREFUSED',
		flaggedLookup: 'ENOTFOUND',
	});
	const { loaded, attempts } = readGuardLog(log);
	expect(loaded).toHaveLength(1);
	expect(attempts.map((a: Attempt) => `${a.kind} ${a.target.replace(/:\d+$/, ':port')}`)).toEqual([
		'tcp.connect 127.0.0.2:port',
		'dns.lookup localhost',
	]);
	removeUnlessKept(dir);
});

describe(`n8n ${VERSION} with offlineEnv() stays on loopback`, () => {
	let suite: SuiteSetUp | undefined;
	let n8n: N8nInstance;
	let guardLog: string;

	beforeAll(async () => {
		suite = await setUpSuite({
			name: 'offline',
			env: (userFolder) => guardEnv(guardLogIn(userFolder)),
			examples: true,
		});
		n8n = suite.n8n;
		guardLog = guardLogIn(suite.userFolder);
	});

	afterAll(() => suite?.tearDown());

	test('set-up, start, two workflow runs, the editor start-up calls and stop: no attempt outside loopback', async () => {
		const listed = await n8n.execute(LIST.id);
		expect(listed.code).toBe(0);
		expect(nodeOutput(listed.data, 'List accounts')).toHaveLength(50);

		await n8n.start();
		await n8n.waitForWebhook(WEBHOOK_PATH);
		const body = Buffer.from(
			JSON.stringify({
				id: `evt_offline_${Date.now()}`,
				type: 'transfer.created',
				data: { amount: 1 },
			}),
		);
		const delivered = await fetch(n8n.url + WEBHOOK_PATH, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-signature': hmacHex(WEBHOOK_SECRET, body) },
			body,
		});
		expect(delivered.status).toBe(200);
		let runs: ApiExecution[] = [];
		for (let i = 0; i < 60 && !runs.some((e) => e.status === 'success'); i++) {
			await sleep(500);
			runs =
				(await n8n.api<{ data: ApiExecution[] }>('GET', `/executions?workflowId=${TRIGGER.id}`))
					.json?.data ?? [];
		}
		expect(runs.map((e) => e.status)).toEqual(['success']);

		// What the editor asks the server for when it opens (some of these proxy n8n's servers when enabled).
		for (const route of [
			'/rest/settings',
			'/types/nodes.json',
			'/types/credentials.json',
			'/rest/community-node-types',
			'/rest/community-packages',
		]) {
			await n8n.request('GET', route, { cookie: n8n.cookie });
		}
		await n8n.stop();

		const { loaded, attempts } = readGuardLog(guardLog);
		// The guard ran in the server and in the CLI commands (so this test can fail).
		const argvs = loaded.map((l: { argv: string }) => l.argv);
		expect(argvs.filter((a: string) => / start$/.test(a)).length).toBeGreaterThanOrEqual(1);
		expect(argvs.filter((a: string) => / execute$/.test(a)).length).toBeGreaterThanOrEqual(1);
		expect(argvs.filter((a: string) => / import:workflow$/.test(a)).length).toBeGreaterThanOrEqual(
			1,
		);
		expect(describeAttempts(attempts)).toEqual([]);
	});
});
