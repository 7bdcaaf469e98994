'use strict';
/*
 * Loopback Redis and PostgreSQL for the queue-mode suite, plus the bookkeeping that makes sure every
 * process started here goes away again (see reaper.js).
 *
 *   const svc = require('./test/harness/queue/services');
 *   svc.ensurePackages();                       // apt-get install redis-server / postgresql when missing (root only)
 *   const tracker = svc.createTracker(runDir, { deadlineMs });
 *   const redis = await svc.startRedis({ dir, tracker });        // { host, port, stop() }
 *   const pg = await svc.startPostgres({ dir, tracker });        // { host, port, user, password, database, stop() }
 *
 * PostgreSQL refuses to run as root, so as root every PostgreSQL binary runs as the `postgres` user
 * (created by Debian's package) through `runuser`; otherwise as the current user. Both servers listen on
 * 127.0.0.1 only, on random free ports, with their data in a temporary folder removed on stop.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { HOST, freePort } = require('../n8n/ports');
const { spawnGroup, stopGroup, tail, sleep } = require('../n8n/process-group');

/**
 * @typedef {{ groups: { pgid: number, label: string }[], dirs: string[] }} Registry what processes.json holds (reaper.js reads it)
 * @typedef {ReturnType<typeof createTracker>} Tracker
 */

/** @param {string} msg */
function log(msg) {
	process.stderr.write(`[queue] ${msg}\n`);
}

/** @param {string} cmd */
function which(cmd) {
	const res = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : null;
}

/** Folder with initdb/postgres/createdb/pg_isready of the newest PostgreSQL installed from Debian. */
function pgBinDir() {
	const base = '/usr/lib/postgresql';
	if (!fs.existsSync(base)) return null;
	const versions = fs
		.readdirSync(base)
		.filter(
			(v) =>
				fs.existsSync(path.join(base, v, 'bin', 'postgres')) &&
				fs.existsSync(path.join(base, v, 'bin', 'initdb')),
		)
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(base, versions[0], 'bin') : null;
}

function isRoot() {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * Install redis-server and postgresql with apt-get when they are missing (CI runs as root on a fresh
 * Debian machine). Not root and missing: a clear error naming the command to run.
 */
function ensurePackages({ timeoutMs = 15 * 60 * 1000 } = {}) {
	const missing = [];
	if (!which('redis-server')) missing.push('redis-server');
	if (!pgBinDir()) missing.push('postgresql');
	if (missing.length === 0) return { installed: [] };
	if (!isRoot()) {
		throw new Error(
			`missing ${missing.join(', ')}: install them first (sudo apt-get install -y ${missing.join(' ')})`,
		);
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const t0 = Date.now();
	log(`apt-get install ${missing.join(' ')} (missing)`);
	const run = (/** @type {string[]} */ args) => {
		const res = spawnSync('apt-get', args, {
			stdio: ['ignore', 'inherit', 'inherit'],
			env,
			timeout: timeoutMs,
		});
		if (res.status !== 0)
			throw new Error(
				`apt-get ${args.join(' ')} failed (${res.status ?? res.signal ?? res.error})`,
			);
	};
	run(['update', '-qq']);
	run(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
	if (!which('redis-server') || !pgBinDir())
		throw new Error(`apt-get installed ${missing.join(', ')} but the binaries are still missing`);
	log(`installed ${missing.join(', ')} in ${Math.round((Date.now() - t0) / 1000)} s`);
	return { installed: missing };
}

/**
 * Keeps the process groups and temp folders of this run in <runDir>/processes.json and starts
 * reaper.js beside it: if this process dies (even by SIGKILL) or the deadline passes, the reaper kills
 * every registered process group and removes the registered folders. close() kills what is left,
 * removes the registry and so lets the reaper exit.
 * @param {string} runDir
 */
function createTracker(runDir, { deadlineMs = 15 * 60 * 1000 } = {}) {
	fs.mkdirSync(runDir, { recursive: true });
	const file = path.join(runDir, 'processes.json');
	/** @type {Registry} */
	const state = { groups: [], dirs: [] };
	const save = () => fs.writeFileSync(file, JSON.stringify(state, null, 2));
	save();
	const reaperLog = fs.openSync(path.join(runDir, 'reaper.log'), 'a');
	const reaper = spawn(
		process.execPath,
		[path.join(__dirname, 'reaper.js'), String(process.pid), file, String(Date.now() + deadlineMs)],
		{ detached: true, stdio: ['ignore', reaperLog, reaperLog] },
	);
	fs.closeSync(reaperLog);
	reaper.unref();

	const onSignal = (/** @type {NodeJS.Signals} */ sig) => {
		log(`${sig}: stopping every process of this run`);
		killAllSync();
		process.exit(130);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);

	function killAllSync() {
		for (const g of state.groups) {
			try {
				process.kill(-g.pgid, 'SIGKILL');
			} catch {
				/* gone */
			}
		}
	}

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
		/** Kill whatever is still registered, remove the registered folders, let the reaper go. */
		close() {
			killAllSync();
			for (const d of state.dirs) fs.rmSync(d, { recursive: true, force: true });
			state.groups = [];
			state.dirs = [];
			fs.rmSync(file, { force: true });
			process.removeListener('SIGINT', onSignal);
			process.removeListener('SIGTERM', onSignal);
		},
	};
}

/**
 * Redis's answer to PING (redis-cli, of Debian's redis-tools, which redis-server depends on).
 * @param {number} port
 */
function ping(port) {
	const res = spawnSync('redis-cli', ['-h', HOST, '-p', String(port), 'PING'], {
		encoding: 'utf8',
		timeout: 2000,
	});
	return res.stdout.trim();
}

/** @param {{ dir: string, tracker?: Tracker, timeoutMs?: number }} options */
async function startRedis({ dir, tracker, timeoutMs = 20000 }) {
	const port = await freePort();
	const dataDir = path.join(dir, 'redis');
	fs.mkdirSync(dataDir, { recursive: true });
	tracker?.addDir(dataDir);
	const logFile = path.join(dir, 'redis.log');
	const child = spawnGroup(
		which('redis-server') || 'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			HOST,
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dataDir,
			'--protected-mode',
			'yes',
		],
		{ logFile, env: process.env, cwd: dataDir, registry: tracker, label: 'redis' },
	);
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitInfo)
			throw new Error(`redis-server exited (${JSON.stringify(child.exitInfo)})\n${tail(logFile)}`);
		if (ping(port) === 'PONG') break;
		if (Date.now() > deadline)
			throw new Error(`redis-server not answering on ${port}\n${tail(logFile)}`);
		await sleep(200);
	}
	log(`redis on ${HOST}:${port} (pid ${child.pid})`);
	return {
		host: HOST,
		port,
		pid: child.pid,
		logFile,
		stop: () => stopGroup(child, { registry: tracker }),
	};
}

function pgUserIds() {
	const res = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
	const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
	if (res.status !== 0 || gid.status !== 0) {
		throw new Error(
			"running as root but there is no `postgres` user (Debian's postgresql package creates it)",
		);
	}
	return { uid: Number(res.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * [cmd, args] that runs a PostgreSQL binary as `postgres` when we are root.
 * @param {string} bin
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
function asPg(bin, args) {
	return isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

/**
 * @param {string} dir
 * @param {{ uid: number, gid: number }} ids
 */
function chownTree(dir, { uid, gid }) {
	fs.chownSync(dir, uid, gid);
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) chownTree(p, { uid, gid });
		else fs.chownSync(p, uid, gid);
	}
}

/** @param {{ dir: string, tracker?: Tracker, timeoutMs?: number, database?: string, user?: string }} options */
async function startPostgres({ dir, tracker, timeoutMs = 60000, database = 'n8n', user = 'n8n' }) {
	const bin = pgBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
	const port = await freePort();
	const password = `pg-${Math.random().toString(36).slice(2, 12)}`;
	// Its own folder under the OS temp dir: as root, the `postgres` user must be able to enter it.
	const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-queue-pg-'));
	tracker?.addDir(base);
	const data = path.join(base, 'data');
	const sock = path.join(base, 'sock');
	fs.mkdirSync(sock);
	const pwfile = path.join(base, 'pwfile');
	fs.writeFileSync(pwfile, password + '\n', { mode: 0o600 });
	if (isRoot()) {
		fs.chmodSync(base, 0o700);
		chownTree(base, pgUserIds());
	}
	const logFile = path.join(dir, 'postgres.log');
	const t0 = Date.now();
	const [initCmd, initArgs] = asPg(path.join(bin, 'initdb'), [
		'-D',
		data,
		'--username',
		user,
		'--pwfile',
		pwfile,
		'--auth-local',
		'trust',
		'--auth-host',
		'scram-sha-256',
		'--encoding',
		'UTF8',
		'--locale',
		'C',
		'--no-sync',
	]);
	const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', timeout: timeoutMs, cwd: base });
	fs.appendFileSync(logFile, `===== initdb\n${init.stdout}\n${init.stderr}\n`);
	if (init.status !== 0)
		throw new Error(`initdb failed (${init.status ?? init.signal}):\n${init.stderr.slice(-2000)}`);
	fs.rmSync(pwfile, { force: true });

	const [cmd, args] = asPg(path.join(bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-k',
		sock,
		'-c',
		`listen_addresses=${HOST}`,
		// A throw-away database: durability off for speed (documented in docs/queue-mode.md).
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	const child = spawnGroup(cmd, args, {
		logFile,
		env: process.env,
		cwd: base,
		registry: tracker,
		label: 'postgres',
	});
	const deadline = Date.now() + timeoutMs;
	const [cdbCmd, cdbArgs] = asPg(path.join(bin, 'createdb'), [
		'-h',
		sock,
		'-p',
		String(port),
		'-U',
		user,
		database,
	]);
	for (;;) {
		if (child.exitInfo)
			throw new Error(`postgres exited (${JSON.stringify(child.exitInfo)})\n${tail(logFile)}`);
		const res = spawnSync(cdbCmd, cdbArgs, { encoding: 'utf8', timeout: 10000, cwd: base });
		if (res.status === 0) break;
		if (/already exists/.test(res.stderr)) break;
		if (Date.now() > deadline)
			throw new Error(`postgres not ready on ${port}: ${res.stderr}\n${tail(logFile)}`);
		await sleep(300);
	}
	log(`postgres on ${HOST}:${port} (pid ${child.pid}, ${Math.round((Date.now() - t0) / 1000)} s)`);
	return {
		host: HOST,
		port,
		user,
		password,
		database,
		pid: child.pid,
		logFile,
		// SIGINT = "fast shutdown": ends sessions and exits cleanly.
		stop: async () => {
			await stopGroup(child, { signal: 'SIGINT', registry: tracker });
			fs.rmSync(base, { recursive: true, force: true });
		},
	};
}

module.exports = { log, ensurePackages, createTracker, startRedis, startPostgres };
