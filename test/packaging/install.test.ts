/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The packed tarball installed the way the README says (`cd ~/.n8n/nodes && npm install n8n-nodes-tenant-api`),
 * offline: the tarball stands for the registry's copy, npm gets an empty cache and --offline, so it can install
 * nothing but the tarball; and required by name from code (index.js, the package's main).
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, removeUnlessKept, tarball } from '../harness/packedPackage';

// npm, builds and lint in child processes: minutes on a loaded machine.
jest.setTimeout(5 * 60 * 1000);

const PACKAGE = 'n8n-nodes-tenant-api';

/** `npm install <tarball>` in `folder` (created if missing), offline, with an empty cache of its own. */
function npmInstallOffline(folder: string, tarball: string): SpawnSyncReturns<string> {
	fs.mkdirSync(folder, { recursive: true });
	const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-npm-cache-'));
	const args = ['install', tarball, '--offline', `--cache=${cache}`, '--no-audit', '--no-fund'];
	try {
		return spawnSync('npm', args, { cwd: folder, encoding: 'utf8' });
	} finally {
		fs.rmSync(cache, { recursive: true, force: true });
	}
}

function expectInstalled(run: SpawnSyncReturns<string>): void {
	if (run.status !== 0)
		throw new Error(`npm install exited with ${run.status}:\n${run.stdout}\n${run.stderr}`);
}

/** The tarball again, with its package.json changed by `edit` (a control for what a field does). */
function repack(
	source: string,
	dir: string,
	edit: (manifest: Record<string, unknown>) => void,
): string {
	const unpacked = path.join(dir, 'unpacked');
	fs.mkdirSync(unpacked, { recursive: true });
	spawnSync('tar', ['-xzf', source, '-C', unpacked], { encoding: 'utf8' });
	const manifestPath = path.join(unpacked, 'package', 'package.json');
	const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
	edit(manifest);
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	const out = path.join(dir, 'variant.tgz');
	const res = spawnSync('tar', ['-czf', out, '-C', unpacked, 'package'], { encoding: 'utf8' });
	if (res.status !== 0) throw new Error(`tar -czf failed: ${res.stderr}`);
	return out;
}

const PROBE_BODY = '{"event":"transfers.created","data":{"amount":1}}';

/**
 * What code sees after `require('n8n-nodes-tenant-api')` (run by a plain `node` in `cwd`): the exports,
 * the classes of the package's n8n entries found among them, and a delivery checked with the trigger's defaults
 * (settingsFromParameters): received whole, forged, and received with a Content-Type its Body Format does not read.
 */
const PROBE = `
const crypto = require('crypto');
const main = require(${JSON.stringify(PACKAGE)});
const manifest = require(${JSON.stringify(`${PACKAGE}/package.json`)});
const result = { exports: Object.keys(main).sort(), verifications: main.VERIFICATION_NAMES };
const defaults = (_name, fallback) => fallback;
const secrets = ['whsec_probe'];
const settings = main.settingsFromParameters('hmacSha256', defaults, { accepted: secrets, all: secrets });
const body = Buffer.from(${JSON.stringify(PROBE_BODY)});
const signature = crypto.createHmac('sha256', 'whsec_probe').update(body).digest('hex');
const received = (rawBody, contentType) => main.receiveDelivery(settings, { rawBody, headers: { 'content-type': contentType, 'x-signature': signature }, query: {}, nowSeconds: 0 });
result.received = received(body, 'application/json');
const refused = (decision) => ({ action: decision.action, reason: decision.reason, answer: main.refusalAnswer(decision.reason) });
result.forged = refused(received(Buffer.from(body.toString().replace('1', '2')), 'application/json'));
result.receivedAsForm = refused(received(body, 'application/x-www-form-urlencoded'));
try {
	const exported = new Set(Object.values(main));
	result.entries = {};
	for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
		const classes = Object.values(require(${JSON.stringify(PACKAGE)} + '/' + entry));
		result.entries[entry] = classes.map((c) => (exported.has(c) ? new c() : undefined)).map((o) => o && (o.description ? o.description.name : o.name));
	}
} catch (error) {
	result.classError = error.message.split('\\n')[0];
}
process.stdout.write(JSON.stringify(result));
`;

type Refused = { action: string; reason: string; answer: { status: number; message: string } };

interface ProbeResult {
	exports: string[];
	verifications: string[];
	/** receiveDelivery of the signed body: the item the workflow starts with. */
	received: { action: string };
	forged: Refused;
	receivedAsForm: Refused;
	entries?: Record<string, Array<string | undefined>>;
	classError?: string;
}

function probe(cwd: string): ProbeResult {
	const res = spawnSync(process.execPath, ['-e', PROBE], { cwd, encoding: 'utf8' });
	if (res.status !== 0)
		throw new Error(`node -e <probe> exited with ${res.status}:\n${res.stderr}`);
	return JSON.parse(res.stdout);
}

describe('the packed tarball, installed as the README says', () => {
	let work: string;
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

	beforeAll(() => {
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-install-'));
	});
	afterAll(() => removeUnlessKept(work));

	test('cd ~/.n8n/nodes && npm install: only this package lands (no dependencies, no install scripts; n8n-workflow is an optional peer)', () => {
		expect(manifest.dependencies ?? {}).toEqual({});
		expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
			expect(manifest.scripts?.[script]).toBeUndefined();
		const nodesFolder = path.join(work, 'home', '.n8n', 'nodes');
		expectInstalled(npmInstallOffline(nodesFolder, tarball()));
		const modules = fs.readdirSync(path.join(nodesFolder, 'node_modules'));
		expect(modules.filter((name) => !name.startsWith('.'))).toEqual([PACKAGE]);
		const lock = JSON.parse(fs.readFileSync(path.join(nodesFolder, 'package-lock.json'), 'utf8'));
		expect(Object.keys(lock.packages).filter((key) => key !== '')).toEqual([
			`node_modules/${PACKAGE}`,
		]);
		const installed = path.join(nodesFolder, 'node_modules', PACKAGE);
		for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			expect(fs.existsSync(path.join(installed, entry))).toBe(true);
		}
	});

	test('control: without peerDependenciesMeta the same offline install wants n8n-workflow', () => {
		const dir = path.join(work, 'control');
		const variant = repack(tarball(), dir, (m) => delete m.peerDependenciesMeta);
		const run = npmInstallOffline(path.join(dir, 'nodes'), variant);
		expect(run.status).not.toBe(0);
		expect(run.stderr).toMatch(/n8n-workflow/);
	});

	test("require('n8n-nodes-tenant-api') with n8n-workflow beside it: classes of every n8n entry and the webhook check", () => {
		const app = path.join(work, 'app');
		expectInstalled(npmInstallOffline(app, tarball()));
		// n8n provides n8n-workflow to the packages it loads; here the project's copy stands in for it.
		fs.symlinkSync(
			path.join(ROOT, 'node_modules', 'n8n-workflow'),
			path.join(app, 'node_modules', 'n8n-workflow'),
			'dir',
		);
		const result = probe(app);
		expect(result.classError).toBeUndefined();
		expect(result.exports).toEqual([
			'TenantApi',
			'TenantApiCredentials',
			'TenantApiTrigger',
			'TenantWebhookApiCredentials',
			'VERIFICATIONS',
			'VERIFICATION_NAMES',
			'authenticate',
			'receiveDelivery',
			'refusalAnswer',
			'settingsFromParameters',
		]);
		expect(result.verifications).toEqual([
			'hmacSha256',
			'hmacSha512',
			'timestampedSignatures',
			'standardWebhooks',
			'customHmac',
			'secretHeader',
			'none',
		]);
		// Every class behind an n8n entry is exported by index.js (undefined marks one that is not), named after its file.
		const entries = [...manifest.n8n.nodes, ...manifest.n8n.credentials] as string[];
		const nameOf = (entry: string) =>
			path.basename(entry).replace(/^(.)([^.]*)\..*$/, (_, a, b) => a.toLowerCase() + b);
		expect(result.entries).toEqual(
			Object.fromEntries(entries.map((entry) => [entry, [nameOf(entry)]])),
		);
		expect(result.forged).toEqual({
			action: 'refuse',
			reason: 'signature_mismatch',
			answer: { status: 401, message: 'Invalid signature' },
		});
		expect(result.received).toEqual({
			action: 'start',
			item: {
				event: 'transfers.created',
				data: { amount: 1 },
				webhookDelivery: {
					id: createHash('sha256').update(PROBE_BODY).digest('hex'),
					idSource: 'body:sha256',
					timestamp: null,
					verification: 'hmacSha256',
					secret: 'current',
					bodyType: 'json',
				},
			},
		});
		expect(result.receivedAsForm).toEqual({
			action: 'refuse',
			reason: 'unsupported_media_type',
			answer: { status: 415, message: expect.stringMatching(/^Unsupported content type/) },
		});
	});

	test('without n8n-workflow the webhook check still works; the n8n classes need it', () => {
		const app = path.join(work, 'check-only');
		expectInstalled(npmInstallOffline(app, tarball()));
		const result = probe(app);
		expect([result.received.action, result.forged.reason]).toEqual(['start', 'signature_mismatch']);
		expect(result.classError).toMatch(/Cannot find module 'n8n-workflow'/);
	});
});
