/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The packed tarball installed the way the README says (offline: only the tarball), and required by
 * name from code (index.js, the package's main).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, removeUnlessKept, tarball } from './helpers';
import { installedPackages, npmInstallOffline, type NpmRun } from './manualInstall';

const PACKAGE = 'n8n-nodes-tenant-api';

function expectInstalled(run: NpmRun): void {
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

/**
 * What code sees after `require('n8n-nodes-tenant-api')` (run by a plain `node` in `cwd`): the exports,
 * the classes of the package's n8n entries found among them, and two webhook verifications.
 */
const PROBE = `
const crypto = require('crypto');
const main = require(${JSON.stringify(PACKAGE)});
const manifest = require(${JSON.stringify(`${PACKAGE}/package.json`)});
const result = { exports: Object.keys(main).sort() };
const config = { mode: 'hmac', scheme: main.PRESETS.hmacSha256, secrets: ['whsec_probe'] };
const body = Buffer.from('{"id":"evt_1","event":"transfers.created"}');
const signature = crypto.createHmac('sha256', 'whsec_probe').update(body).digest('hex');
result.signed = main.verifyDelivery(config, { rawBody: body, headers: { 'X-Signature': signature }, nowSeconds: 0 });
result.forged = main.verifyDelivery(config, { rawBody: Buffer.from(body.toString().replace('1', '2')), headers: { 'x-signature': signature }, nowSeconds: 0 });
const reading = main.readDelivery(config, { rawBody: body, headers: { 'content-type': 'application/json', 'x-signature': signature }, nowSeconds: 0 });
result.read = reading.ok ? reading.units[0].object : reading;
result.readAsForm = main.readDelivery(config, { rawBody: body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-signature': signature }, nowSeconds: 0 });
result.readAsForm.status = main.refusalAnswer(result.readAsForm.reason).status;
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

interface ProbeResult {
	exports: string[];
	signed: { ok: boolean; reason: string };
	forged: { ok: boolean; reason: string };
	/** readDelivery of the signed body: the JSON read once, or the refusal. */
	read: unknown;
	readAsForm: { ok: boolean; status: number; reason: string };
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
		expect(installedPackages(nodesFolder)).toEqual([PACKAGE]);
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

	test("require('n8n-nodes-tenant-api') with n8n-workflow beside it: classes of every n8n entry and the verifier", () => {
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
		expect(result.exports).toEqual(
			expect.arrayContaining([
				'PRESETS',
				'PRESET_NAMES',
				'TenantApi',
				'TenantApiCredentials',
				'TenantApiTrigger',
				'TenantWebhookApiCredentials',
				'readDelivery',
				'refusalAnswer',
				'verifyDelivery',
			]),
		);
		// Every class behind an n8n entry is exported by index.js (undefined marks one that is not).
		const entries = result.entries ?? {};
		expect(Object.keys(entries).sort()).toEqual(
			[...manifest.n8n.nodes, ...manifest.n8n.credentials].sort(),
		);
		for (const [entry, names] of Object.entries(entries))
			expect({ entry, names }).toEqual({ entry, names: expect.not.arrayContaining([undefined]) });
		expect(entries['dist/nodes/TenantApi/TenantApi.node.js']).toEqual(['tenantApi']);
		expect(entries['dist/nodes/TenantApiTrigger/TenantApiTrigger.node.js']).toEqual([
			'tenantApiTrigger',
		]);
		expect(entries['dist/credentials/TenantApi.credentials.js']).toEqual(['tenantApi']);
		expect(result.signed).toEqual({
			ok: true,
			reason: 'ok',
			bodyFormat: 'json',
			secretIndex: 0,
			seen: { secretsTried: [0] },
		});
		expect(result.forged).toEqual({
			ok: false,
			reason: 'signature_mismatch',
			seen: { secretsTried: [0] },
		});
		expect(result.read).toEqual({ id: 'evt_1', event: 'transfers.created' });
		expect(result.readAsForm).toMatchObject({
			ok: false,
			status: 415,
			reason: 'unsupported_media_type',
		});
	});

	test('without n8n-workflow the webhook verifier still works; the n8n classes need it', () => {
		const app = path.join(work, 'verifier-only');
		expectInstalled(npmInstallOffline(app, tarball()));
		const result = probe(app);
		expect(result.signed.ok).toBe(true);
		expect(result.forged.reason).toBe('signature_mismatch');
		expect(result.classError).toMatch(/Cannot find module 'n8n-workflow'/);
	});
});
