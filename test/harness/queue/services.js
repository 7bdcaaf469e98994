'use strict';
/*
 * Loopback Redis and PostgreSQL for the queue-mode cluster, on free ports, data in temporary folders; and
 * the tracker that makes sure every process started here goes away again (reaper.js). PostgreSQL refuses
 * to run as root: as root its binaries run as Debian's `postgres` user (runuser).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');
const { HOST, freePort } = require('../n8n/ports');
const { spawnGroup, stopGroup, signalGroup, tail } = require('../n8n/process-group');
const { poll } = require('../n8n/session');

/**
 * @typedef {{ groups: { pgid: number, label: string }[], dirs: string[] }} Registry what processes.json holds (reaper.js reads it)
 * @typedef {ReturnType<typeof createTracker>} Tracker
 */

/** @param {string} msg */
const log = (msg) => process.stderr.write(`[queue] ${msg}\n`);
/** @param {string} cmd */
const which = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const isRoot = () => process.getuid?.() === 0;

/** bin/ of the newest PostgreSQL installed from Debian, or null. */
function pgBinDir() {
	const base = '/usr/lib/postgresql';
	const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => +b - +a) : [];
	const v = versions.find((d) => fs.existsSync(path.join(base, d, 'bin', 'initdb')));
	return v ? path.join(base, v, 'bin') : null;
}

/** apt-get install redis-server / postgresql when missing (as root, as CI on a fresh Debian); else an error naming them. */
function ensurePackages() {
	const missing = [which('redis-server') ? '' : 'redis-server', pgBinDir() ? '' : 'postgresql'];
	const names = missing.filter(Boolean);
	if (names.length === 0) return;
	if (!isRoot())
		throw new Error(`missing ${names.join(', ')}: sudo apt-get install -y ${names.join(' ')}`);
	log(`apt-get install ${names.join(' ')} (missing)`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [
		['update', '-qq'],
		['install', '-y', '-qq', '--no-install-recommends', ...names],
	]) {
		const res = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env });
		if (res.status !== 0)
			throw new Error(`apt-get ${args.join(' ')} failed (${res.status ?? res.signal})`);
	}
}

/**
 * Keeps the process groups and temp folders of this run in <runDir>/processes.json and starts reaper.js,
 * which kills and removes them if this process dies (even by SIGKILL) or the deadline passes. close()
 * does so itself and removes the registry, which lets the reaper exit.
 * @param {string} runDir
 */
function createTracker(runDir, { deadlineMs = 15 * 60 * 1000 } = {}) {
	fs.mkdirSync(runDir, { recursive: true });
	const file = path.join(runDir, 'processes.json');
	/** @type {Registry} */
	const state = { groups: [], dirs: [] };
	const save = () => fs.writeFileSync(file, JSON.stringify(state));
	save();
	const out = fs.openSync(path.join(runDir, 'reaper.log'), 'a');
	const reaperArgs = [String(process.pid), file, String(Date.now() + deadlineMs)];
	spawn(process.execPath, [path.join(__dirname, 'reaper.js'), ...reaperArgs], {
		detached: true,
		stdio: ['ignore', out, out],
	}).unref();
	fs.closeSync(out);
	const killAll = () => state.groups.forEach((g) => signalGroup(g.pgid, 'SIGKILL'));
	const onSignal = (/** @type {NodeJS.Signals} */ sig) => {
		log(`${sig}: stopping every process of this run`);
		killAll();
		process.exit(130);
	};
	process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
	return {
		/** @param {number} pgid @param {string} label */
		addGroup(pgid, label) {
			state.groups.push({ pgid, label });
			save();
		},
		/** @param {number} pgid */
		removeGroup(pgid) {
			state.groups = state.groups.filter((g) => g.pgid !== pgid);
			save();
		},
		/** @param {string} dir */
		addDir(dir) {
			state.dirs.push(dir);
			save();
		},
		close() {
			killAll();
			for (const d of state.dirs) fs.rmSync(d, { recursive: true, force: true });
			fs.rmSync(file, { force: true });
			process.removeListener('SIGINT', onSignal).removeListener('SIGTERM', onSignal);
		},
	};
}

/**
 * A server in a process group of its own (`cmd` in `cwd`, logging to <dir>/<label>.log), polled with the
 * command `probe` until it answers.
 * @param {string} label
 * @param {string[]} cmd
 * @param {string[]} probe
 * @param {{ dir: string, cwd: string, tracker?: Tracker, timeoutMs: number }} options
 */
async function startServer(label, [cmd, ...args], probe, { dir, cwd, tracker, timeoutMs }) {
	const logFile = path.join(dir, `${label}.log`);
	const child = spawnGroup(cmd, args, { logFile, env: process.env, cwd, registry: tracker, label });
	const answers = async () => {
		if (child.exitInfo) throw new Error(`${label} exited (${JSON.stringify(child.exitInfo)})`);
		return spawnSync(probe[0], probe.slice(1), { timeout: 5000, cwd }).status === 0;
	};
	await poll(answers, `${label} not ready`, { timeoutMs, intervalMs: 250 }).catch((err) => {
		throw new Error(`${err.message}\n${tail(logFile)}`);
	});
	log(`${label} ready (pid ${child.pid})`);
	return child;
}

/** @param {{ dir: string, tracker?: Tracker, timeoutMs?: number }} options */
async function startRedis({ dir, tracker, timeoutMs = 20000 }) {
	const port = await freePort();
	const data = path.join(dir, 'redis');
	fs.mkdirSync(data, { recursive: true });
	tracker?.addDir(data);
	const conf = path.join(data, 'redis.conf');
	fs.writeFileSync(conf, `port ${port}\nbind ${HOST}\nsave ""\nappendonly no\ndir ${data}\n`);
	const probe = ['sh', '-c', `redis-cli -h ${HOST} -p ${port} PING | grep -q PONG`];
	const options = { dir, cwd: data, tracker, timeoutMs };
	const child = await startServer('redis', ['redis-server', conf], probe, options);
	return { host: HOST, port, stop: () => stopGroup(child, { registry: tracker }) };
}

/** @param {{ dir: string, tracker?: Tracker, timeoutMs?: number }} options */
async function startPostgres({ dir, tracker, timeoutMs = 60000 }) {
	const bin = /** @type {string} */ (pgBinDir());
	const as = (/** @type {string} */ name, /** @type {string} */ args) => [
		...(isRoot() ? ['runuser', '-u', 'postgres', '--'] : []),
		path.join(bin, name),
		...args.split(' '),
	];
	const [port, user, database] = [await freePort(), 'n8n', 'postgres'];
	const password = crypto.randomBytes(9).toString('hex');
	// Under the OS temp folder, not runDir: as root, the `postgres` user must be able to enter it.
	const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-queue-pg-'));
	tracker?.addDir(base);
	const data = path.join(base, 'data');
	fs.writeFileSync(path.join(base, 'pw'), password);
	if (isRoot()) spawnSync('chown', ['-R', 'postgres:postgres', base]);
	const [initdb, ...initArgs] = as(
		'initdb',
		`-D ${data} -U ${user} --pwfile=${base}/pw -A scram-sha-256 --auth-local=trust -E UTF8 --locale=C --no-sync`,
	);
	const init = spawnSync(initdb, initArgs, { encoding: 'utf8', cwd: base });
	if (init.status !== 0) throw new Error(`initdb failed (${init.status}):\n${init.stderr}`);
	// A throw-away database: durability off (docs/queue-mode.md).
	fs.appendFileSync(
		path.join(data, 'postgresql.conf'),
		`port = ${port}\nlisten_addresses = '${HOST}'\nunix_socket_directories = '${base}'\n` +
			'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 200\n',
	);
	const probe = as('pg_isready', `-q -h ${HOST} -p ${port}`);
	const options = { dir, cwd: base, tracker, timeoutMs };
	const child = await startServer('postgres', as('postgres', `-D ${data}`), probe, options);
	// SIGINT = PostgreSQL's "fast shutdown": ends sessions and exits cleanly.
	const stop = () => stopGroup(child, { signal: 'SIGINT', registry: tracker });
	return { host: HOST, port, user, password, database, stop };
}

module.exports = { log, ensurePackages, createTracker, startRedis, startPostgres };
