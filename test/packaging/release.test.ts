/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * What gets published and how: the tarball holds the built nodes and nothing else, n8n's community package
 * scan (its offline part) passes, the build gives what `n8n-node build` gives, and no publish can pack a
 * stale or missing dist/ (scripts/release.mjs, scripts/prepublish-guard.mjs,
 * publishConfig.provenance). npm talks to a fake registry on loopback; nothing is uploaded anywhere.
 */
import { execFile, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, removeUnlessKept, tarball } from '../harness/packedPackage';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { expectedPackageFiles, missingFiles } = require('../../scripts/package-contents') as {
	expectedPackageFiles: (root: string) => string[];
	missingFiles: (root: string, present: string[]) => string[];
};

const execFileAsync = promisify(execFile);

// npm, builds and lint in child processes: minutes on a loaded machine.
jest.setTimeout(5 * 60 * 1000);

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const VERSION: string = manifest.version;

/** What a build and a publish need; docs/ too, to show what `n8n-node build` would copy from it. */
const PROJECT_FILES = (
	'package.json package-lock.json .npmrc tsconfig.json gulpfile.js eslint.config.mjs .prettierrc.js .prettierignore ' +
	'index.js README.md LICENSE CHANGELOG.md nodes credentials scripts docs'
).split(' ');

/** A copy of the project (node_modules linked) where builds and publishes can run without touching it. */
function projectCopy(dest: string): string {
	for (const entry of PROJECT_FILES)
		fs.cpSync(path.join(ROOT, entry), path.join(dest, entry), { recursive: true });
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dest, 'node_modules'), 'dir');
	return dest;
}

/** Path relative to `dir` → sha256 of every file under `dir`. */
function hashTree(dir: string): Map<string, string> {
	if (!fs.existsSync(dir)) return new Map();
	const files = fs
		.readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((file) => fs.statSync(path.join(dir, file)).isFile());
	return new Map(
		files.map((file) => [
			file.split(path.sep).join('/'),
			crypto
				.createHash('sha256')
				.update(fs.readFileSync(path.join(dir, file)))
				.digest('hex'),
		]),
	);
}

/** What a developer's machine lacks: CI, an OIDC token, npm settings a run could inherit. */
const NOT_LOCAL =
	/^(NODE_ENV|CI|GITHUB_ACTIONS|GITLAB_CI|CIRCLECI|ACTIONS_ID_TOKEN_REQUEST_\w+|NPM_ID_TOKEN|GITHUB_REF_\w+|npm_config_(ignore_scripts|dry_run|registry|provenance))$/i;

function localEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	// NODE_ENV=test (set by jest) puts eslint-plugin-n8n-nodes-base into a test mode of its own.
	const env = Object.entries(process.env).filter(([key]) => !NOT_LOCAL.test(key));
	return { ...Object.fromEntries(env), ...extra };
}

/** GitHub Actions on a pushed tag, without the id-token permission (so nothing could be signed or sent). */
function ciEnv(tag: string, registry: string): NodeJS.ProcessEnv {
	return localEnv({
		GITHUB_ACTIONS: 'true',
		CI: 'true',
		GITHUB_REF_NAME: tag,
		GITHUB_REF_TYPE: 'tag',
		npm_config_registry: registry,
	});
}

/** A child process, asynchronously: the fake registry lives in this process and must keep answering. */
async function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
	const running = execFileAsync(cmd, args, { cwd, env, maxBuffer: 64 << 20 });
	running.child.stdin?.end(); // nothing to read: no prompt waits
	const done = await running.catch((err: { code?: number; stdout: string; stderr: string }) => err);
	const status = 'code' in done ? (done.code ?? null) : 0;
	return { status, output: done.stdout + done.stderr };
}

/** A registry on loopback that knows no package and records every request (a publish is a PUT). */
async function fakeRegistry() {
	const requests: string[] = [];
	const server = http.createServer((req, res) => {
		requests.push(`${req.method} ${req.url}`);
		req.resume();
		req.on('end', () => {
			res.writeHead(req.method === 'PUT' ? 201 : 404, { 'content-type': 'application/json' });
			res.end(req.method === 'PUT' ? '{"ok":true}' : '{"error":"Not found"}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	return {
		url,
		requests,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

function datedChangelog(copy: string, dated: boolean): void {
	const file = path.join(copy, 'CHANGELOG.md');
	const text = fs
		.readFileSync(file, 'utf8')
		.replace(/^## \[[^\]]+\] - .*$/m, `## [${VERSION}] - ${dated ? '2026-05-01' : 'Unreleased'}`);
	fs.writeFileSync(file, text);
}

/** dist/ as an old build could have left it: a node that no longer exists, an outdated credential. */
function staleDist(copy: string): void {
	fs.rmSync(path.join(copy, 'dist'), { recursive: true, force: true });
	fs.mkdirSync(path.join(copy, 'dist', 'nodes', 'Stale'), { recursive: true });
	fs.mkdirSync(path.join(copy, 'dist', 'credentials'), { recursive: true });
	fs.writeFileSync(
		path.join(copy, 'dist', 'nodes', 'Stale', 'Stale.node.js'),
		'module.exports = {}; // stale\n',
	);
	fs.writeFileSync(
		path.join(copy, 'dist', 'credentials', 'TenantApi.credentials.js'),
		'module.exports = {}; // stale\n',
	);
}

describe('what is published, and how', () => {
	let work: string;
	let copy: string;
	let registry: Awaited<ReturnType<typeof fakeRegistry>>;

	beforeAll(async () => {
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-release-'));
		copy = projectCopy(path.join(work, 'project'));
		registry = await fakeRegistry();
	});
	afterAll(async () => {
		await registry?.close();
		if (work) removeUnlessKept(work);
	});

	test('the tarball holds the built nodes (a compiled file for every source, icons, codex, main) and only dist/**, index.js, README.md, LICENSE and package.json', () => {
		const listing = spawnSync('tar', ['-tzf', tarball()], { encoding: 'utf8' })
			.stdout.split('\n')
			.filter(Boolean)
			.map((line) => line.replace(/^package\//, ''));
		expect(expectedPackageFiles(ROOT)).toEqual(
			expect.arrayContaining([manifest.main, ...manifest.n8n.nodes, ...manifest.n8n.credentials]),
		);
		expect(missingFiles(ROOT, listing)).toEqual([]);
		const topLevel = ['index.js', 'README.md', 'LICENSE', 'package.json'];
		expect(listing.filter((file) => !file.startsWith('dist/') && !topLevel.includes(file))).toEqual(
			[],
		);
		expect(listing).toEqual(expect.arrayContaining(topLevel));
		// No tests and no TypeScript sources (declarations are fine).
		expect(
			listing.filter((file) => /\.test\.|\.ts$/.test(file) && !file.endsWith('.d.ts')),
		).toEqual([]);
	});

	test('@n8n/scan-community-package analyzePackage passes on the source and the tarball', () => {
		const scan = spawnSync(
			process.execPath,
			[path.join(ROOT, 'scripts/scan-package.mjs'), '--json', '--tarball', tarball()],
			{
				cwd: ROOT,
				encoding: 'utf8',
				env: { ...process.env, NODE_ENV: '' },
			},
		);
		const result = JSON.parse(scan.stdout.trim().split('\n').pop() as string);
		const report = [result.source.details, result.tarball.details].filter(Boolean).join('\n');
		if (!result.passed)
			throw new Error(
				`scan failed:\n${result.source.message ?? ''} ${result.tarball.message ?? ''}\n${report}`,
			);
		expect(result.source.passed).toBe(true);
		expect(result.tarball.passed).toBe(true);
	});

	test('npm run build gives what n8n-node build gives, except the screenshots it would copy from docs/', async () => {
		const viaCli = await run(
			path.join(copy, 'node_modules', '.bin', 'n8n-node'),
			['build'],
			copy,
			localEnv(),
		);
		expect(viaCli.output).toMatch(/Build successful/);
		const theirs = hashTree(path.join(copy, 'dist'));
		const ours = await run('npm', ['run', 'build'], copy, localEnv());
		expect(ours.status).toBe(0);
		const mine = hashTree(path.join(copy, 'dist'));

		expect(mine.size).toBeGreaterThan(0);
		const differing = [...mine]
			.filter(([file, hash]) => theirs.get(file) !== hash)
			.map(([file]) => file);
		expect(differing).toEqual([]);
		// n8n-node build copies every png/svg of the tree; the package ships only those of nodes/ and credentials/.
		const onlyTheirs = [...theirs.keys()].filter((file) => !mine.has(file));
		expect(onlyTheirs.filter((file) => !/^docs\/.*\.(png|svg)$/.test(file))).toEqual([]);
		expect(onlyTheirs.length).toBeGreaterThan(0); // docs/screenshots exist: the difference is real
	});

	test('a plain npm publish outside GitHub Actions is refused before anything is uploaded (publishConfig.provenance)', async () => {
		const userconfig = path.join(work, 'npmrc');
		const host = registry.url.replace(/^http:/, '');
		fs.writeFileSync(
			userconfig,
			`registry=${registry.url}\n${host}:_authToken=test-token-not-a-secret\n`,
		);
		registry.requests.length = 0;
		const res = await run('npm', ['publish', `--userconfig=${userconfig}`], ROOT, localEnv());
		expect(res.status).not.toBe(0);
		expect(res.output).toMatch(/provenance generation not supported/i);
		expect(registry.requests.some((r) => r.startsWith('GET '))).toBe(true); // npm did get as far as the registry
		expect(registry.requests.filter((r) => r.startsWith('PUT '))).toEqual([]);
	});

	test.each([
		[
			'a tag that does not name the version',
			'v99.0.0',
			true,
			`the tag "v99.0.0" does not name the version in package.json (v${VERSION})`,
		],
		[
			'a version whose CHANGELOG section is not dated',
			`v${VERSION}`,
			false,
			`CHANGELOG.md: date the section of ${VERSION}`,
		],
	])('npm run release refuses %s, before building anything', async (_, tag, dated, message) => {
		datedChangelog(copy, dated);
		staleDist(copy);
		const res = await run(
			'node',
			['scripts/release.mjs', '--dry-run'],
			copy,
			ciEnv(tag, registry.url),
		);
		expect([res.status, res.output]).toEqual([1, expect.stringContaining(message)]);
		expect(fs.existsSync(path.join(copy, 'dist', 'nodes', 'Stale', 'Stale.node.js'))).toBe(true);
	});

	test('in GitHub Actions, npm run release packs a dist/ rebuilt by the guard, never the stale one', async () => {
		datedChangelog(copy, true);
		staleDist(copy);
		registry.requests.length = 0;
		const res = await run(
			'node',
			['scripts/release.mjs', '--dry-run'],
			copy,
			ciEnv(`v${VERSION}`, registry.url),
		);
		if (res.status !== 0)
			throw new Error(`release --dry-run exited with ${res.status}:\n${res.output.slice(-4000)}`);
		expect(res.output).toContain('[prepublish] dist/ is fresh and complete');
		// npm's dry-run lists the tarball: the rebuilt files, not the stale node.
		expect(res.output).toMatch(/npm notice .*dist\/credentials\/TenantApi\.credentials\.js/);
		expect(res.output).not.toMatch(/Stale\.node\.js/);
		expect(
			fs.readFileSync(path.join(copy, 'dist', 'credentials', 'TenantApi.credentials.js'), 'utf8'),
		).not.toContain('stale');
		const built = [...hashTree(path.join(copy, 'dist')).keys()].map((file) => `dist/${file}`);
		expect(missingFiles(copy, [...built, manifest.main])).toEqual([]);
		expect(registry.requests.filter((r) => r.startsWith('PUT '))).toEqual([]);
	});
});
