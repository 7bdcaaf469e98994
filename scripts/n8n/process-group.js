'use strict';
/*
 * Processes started in a process group of their own (n8n starts task runners; one signal to the group
 * reaches them all), and stopped as a group. Every group still running when this process exits is
 * SIGKILLed, so a crashed test leaves no n8n behind.
 *
 *   const child = spawnGroup(cmd, args, { logFile, env, cwd, label });   // child.exited, child.exitInfo
 *   await stopGroup(child);                                              // SIGTERM, wait, SIGKILL the rest
 */
const fs = require('node:fs');
const { spawn } = require('node:child_process');

/** Leaders (= group ids) of the groups started here and not stopped yet. */
const liveGroups = new Set();
process.on('exit', () => {
	for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
});

/** Send `signal` to every process of the group `pgid`; false when the group is gone. */
function signalGroup(pgid, signal) {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}

/**
 * Spawn `cmd` as the leader of a new process group. Output: appended to `logFile` (with a header line),
 * or, with `pipe: true`, readable on child.stdout / child.stderr. The child gets `exited` (a promise of
 * { code, signal }) and `exitInfo` (null while it runs). `registry` (optional: { addGroup, removeGroup })
 * is told about the group, for a watchdog that outlives this process (scripts/queue/services.js).
 */
function spawnGroup(cmd, args, { logFile, pipe = false, env, cwd, label = cmd, registry } = {}) {
	let out;
	if (!pipe) {
		out = fs.openSync(logFile, 'a');
		fs.writeSync(out, `\n===== ${label}: ${cmd} ${args.join(' ')}  ${new Date().toISOString()}\n`);
	}
	const stdio = pipe ? ['ignore', 'pipe', 'pipe'] : ['ignore', out, out];
	const child = spawn(cmd, args, { cwd, env, stdio, detached: true });
	if (out !== undefined) fs.closeSync(out);
	child.exitInfo = null;
	child.exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => {
			child.exitInfo = { code, signal };
			resolve(child.exitInfo);
		}),
	);
	if (child.pid) {
		liveGroups.add(child.pid);
		registry?.addGroup(child.pid, label);
	}
	return child;
}

/**
 * Send `signal` to the child's group, wait for the leader to exit (SIGKILL after `timeoutMs`), then
 * SIGKILL whatever is left of the group (a task runner gets no second chance).
 */
async function stopGroup(child, { signal = 'SIGTERM', timeoutMs = 15000, registry } = {}) {
	if (!child || !child.pid) return;
	if (child.exitInfo === null) {
		signalGroup(child.pid, signal);
		const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), timeoutMs);
		await child.exited;
		clearTimeout(timer);
	}
	signalGroup(child.pid, 'SIGKILL');
	liveGroups.delete(child.pid);
	registry?.removeGroup(child.pid);
}

/** SIGKILL the leader alone (as a crash would), wait for it, then the rest of its group. */
async function killLeader(child, { registry } = {}) {
	process.kill(child.pid, 'SIGKILL');
	await child.exited;
	await stopGroup(child, { signal: 'SIGKILL', registry });
}

/** The last `lines` lines of a log file (for error messages). */
function tail(file, lines = 60) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return `(no log at ${file})`;
	}
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { spawnGroup, stopGroup, killLeader, signalGroup, tail, sleep };
