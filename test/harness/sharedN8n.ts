/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * One n8n for all the files of a real-n8n project (e2e-2x, e2e-1x, browser), started in its globalSetup and
 * stopped in its globalTeardown; a file reaches it through sharedN8n() and brings its own sandbox, credentials
 * and workflows. It and every CLI command beside it run under netguard.js: the teardown fails the run if any
 * of them tried to reach anything outside loopback.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { N8nInstance } from './n8n/instance';
import { ROOT, removeUnlessKept, tarball } from './packedPackage';

/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS modules of test/harness/n8n/ */
const instanceLib: typeof import('./n8n/instance') = require('./n8n/instance');
const portsLib: typeof import('./n8n/ports') = require('./n8n/ports');
const guardLib: typeof import('./n8n/netguard-log') = require('./n8n/netguard-log');
/* eslint-enable @typescript-eslint/no-require-imports */

/** What a test file needs to talk to the running n8n (in the environment variable of its version). */
interface Descriptor {
	userFolder: string;
	port: number;
	env: Record<string, string>;
	apiKey: string;
	cookie: string;
}

const variableOf = (version: string) => `TENANT_API_N8N_${version.replace(/\W/g, '_')}`;

/** Where the loopback guard of the instance records what it loaded and refused. */
export const guardLogOf = (userFolder: string) => path.join(userFolder, 'netguard.jsonl');

/** The running n8n `version`, as a client: its API, its CLI (beside the server), its log. Never start or stop it. */
export function sharedN8n(version: string): N8nInstance {
	const raw = process.env[variableOf(version)];
	if (!raw)
		throw new Error(
			`no n8n ${version} is running for this file: jest.config.js starts it in the globalSetup of a real-n8n project (node scripts/test.js e2e-2x …)`,
		);
	const { userFolder, port, env, apiKey, cookie }: Descriptor = JSON.parse(raw);
	const n8n = instanceLib.createInstance({ version, userFolder, port, env });
	return Object.assign(n8n, { apiKey, cookie });
}

/** The n8n of each project of this Jest process, by version. */
const running: Map<string, { n8n: N8nInstance; project: string }> = ((
	globalThis as { tenantApiN8n?: Map<string, { n8n: N8nInstance; project: string }> }
).tenantApiN8n ??= new Map());

const say = (message: string) => process.stderr.write(`[n8n] ${message}\n`);

/** Starts n8n `version` with the packed package for the files of Jest project `project`. */
export async function acquire(version: string, project: string): Promise<void> {
	const other = running.get(version);
	if (other) {
		// e2e-2x and browser cannot share one: the browser's editor must see only what its own file created.
		await release(version, other.project);
		throw new Error(
			`Jest projects ${other.project} and ${project} both want an n8n ${version} of their own: run them one after the other (node scripts/test.js ${other.project} ${project})`,
		);
	}
	const t0 = Date.now();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `tenant-api-e2e-${version}-`));
	const n8n = instanceLib.createInstance({
		version,
		userFolder,
		port: await portsLib.freePort({ run: 3 }),
		env: guardLib.guardEnv(guardLogOf(userFolder)),
	});
	await n8n.installPackage(tarball());
	await n8n.start();
	running.set(version, { n8n, project });
	const descriptor: Descriptor = {
		userFolder,
		port: n8n.port,
		env: n8n.opts.env ?? {},
		apiKey: n8n.apiKey as string,
		cookie: n8n.cookie as string,
	};
	process.env[variableOf(version)] = JSON.stringify(descriptor);
	say(
		`${version} ready in ${Math.round((Date.now() - t0) / 1000)} s at ${n8n.url} (${userFolder})`,
	);
}

/**
 * Stops the n8n of Jest project `project`, copies its logs to test-artifacts/<project>/ and removes its folder
 * (unless E2E_KEEP=1). Throws when the guard recorded an attempt to leave loopback.
 */
export async function release(version: string, project: string): Promise<void> {
	const n8n = running.get(version)?.n8n;
	if (!n8n) return;
	running.delete(version);
	delete process.env[variableOf(version)];
	await n8n.stop();
	const logs = path.join(ROOT, 'test-artifacts', project);
	fs.mkdirSync(logs, { recursive: true });
	for (const file of ['n8n.log', 'cli.log', 'netguard.jsonl']) {
		const from = path.join(n8n.userFolder, file);
		if (fs.existsSync(from)) fs.copyFileSync(from, path.join(logs, file));
	}
	const { attempts } = guardLib.readGuardLog(guardLogOf(n8n.userFolder));
	removeUnlessKept(n8n.userFolder);
	say(`${version} stopped; logs in ${logs}`);
	if (attempts.length > 0)
		throw new Error(
			`n8n ${version} or a CLI command beside it tried to leave loopback:\n${attempts.map((a) => `${a.kind} ${a.target} (${a.argv})`).join('\n')}`,
		);
}
