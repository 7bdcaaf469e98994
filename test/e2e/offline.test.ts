/**
 * Loopback only: offlineEnv() (test/harness/n8n/env.js) is complete for the n8n version under test. The
 * project's n8n runs under netguard.js through NODE_OPTIONS (every Node process it starts loads it too;
 * test/unit/netguard.test.ts proves the guard itself). Here: the CLI commands of `npm start`, a workflow
 * run in the CLI, the editor's start-up calls, and no attempt recorded since `n8n start`. The
 * globalTeardown checks the same after `n8n stop`, over everything every file of the run made n8n do.
 */
import type { Sandbox } from '../../sandbox/server';
import { guardLogOf } from '../harness/sharedN8n';
import { VERSION, WEBHOOK_SECRET, nodeOutput, projectN8n, startSandbox, startLib } from './helpers';

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const guardLib: typeof import('../harness/n8n/netguard-log') = require('../harness/n8n/netguard-log');
const { readGuardLog } = guardLib;

const describeAttempts = (attempts: ReturnType<typeof readGuardLog>['attempts']) =>
	attempts.map(
		(a) => `${a.kind} ${a.target} (${a.argv})\n    ${a.stack.slice(0, 12).join('\n    ')}`,
	);

describe(`n8n ${VERSION} with offlineEnv() stays on loopback`, () => {
	let sandbox: Sandbox;
	const n8n = projectN8n();

	beforeAll(async () => {
		sandbox = await startSandbox();
	});

	afterAll(() => sandbox?.close());

	test("npm start's set-up commands, a workflow run in the CLI, the editor start-up calls: no attempt outside loopback", async () => {
		// The CLI commands `npm start` imports and publishes the examples with, beside the running n8n.
		const { workflows } = await startLib.importExamples(n8n, sandbox, {
			scheme: 'hmac-sha256-hex',
			secret: WEBHOOK_SECRET,
		});
		const listed = await n8n.execute(workflows['list-accounts'].id);
		expect(listed.code).toBe(0);
		expect(nodeOutput(listed.data, 'List accounts')).toHaveLength(50);

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

		const { loaded, attempts } = readGuardLog(guardLogOf(n8n.userFolder));
		// The guard ran in the server and in the CLI commands (so this test can fail).
		const argvs = loaded.map((l) => l.argv);
		for (const command of ['start', 'import:credentials', 'import:workflow', 'execute'])
			expect({ command, underGuard: argvs.some((a) => a.endsWith(` ${command}`)) }).toEqual({
				command,
				underGuard: true,
			});
		expect(describeAttempts(attempts)).toEqual([]);
	});
});
