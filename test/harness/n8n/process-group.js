'use strict';
/*
 * Processes in a process group of their own (n8n starts task runners; one signal to the group reaches
 * them all). Every group still running when this process exits is SIGKILLed: a crashed test leaves no n8n.
 */
const fs = require('node:fs');
const { spawn } = require('node:child_process');

/**
 * @typedef {{ code: number|null, signal: NodeJS.Signals|null }} ExitInfo
 * @typedef {import('node:child_process').ChildProcess & { exited: Promise<ExitInfo>, exitInfo: ExitInfo|null }} GroupChild
 *   a process group's leader, with its exit as a promise and (once it happened) as a value
 * @typedef {{ addGroup(pgid: number, label: string): void, removeGroup(pgid: number): void }} GroupRegistry told
 *   about every group started and stopped (e.g. a watchdog's registry)
 */

/** @type {Set<number>} leaders (= group ids) of the groups started here and not stopped yet */
const liveGroups = new Set();
process.on('exit', () => {
	for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
});

/**
 * False when the group is gone.
 * @param {number} pgid
 * @param {NodeJS.Signals} signal
 */
function signalGroup(pgid, signal) {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}

/**
 * `cmd` as the leader of a new process group. Output appended to `logFile`, or with `pipe` on child.stdout
 * / child.stderr (`stdoutFd`: stdout to that open file). `registry`: a watchdog that outlives this process.
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ logFile?: string, pipe?: boolean, stdoutFd?: number, env?: NodeJS.ProcessEnv, cwd?: string, label?: string, registry?: GroupRegistry }} [options]
 */
function spawnGroup(
	cmd,
	args,
	{ logFile, pipe = false, stdoutFd, env, cwd, label = cmd, registry } = {},
) {
	let out;
	if (!pipe) {
		out = fs.openSync(/** @type {string} */ (logFile), 'a');
		fs.writeSync(out, `\n===== ${label}: ${cmd} ${args.join(' ')}  ${new Date().toISOString()}\n`);
	}
	/** @type {import('node:child_process').StdioOptions} */
	const stdio = pipe ? ['ignore', stdoutFd ?? 'pipe', 'pipe'] : ['ignore', out, out];
	const child = /** @type {GroupChild} */ (spawn(cmd, args, { cwd, env, stdio, detached: true }));
	if (out !== undefined) fs.closeSync(out);
	child.exitInfo = null;
	child.exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => {
			const exitInfo = { code, signal };
			child.exitInfo = exitInfo;
			resolve(exitInfo);
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
 * @param {GroupChild|null|undefined} child
 * @param {{ signal?: NodeJS.Signals, timeoutMs?: number, registry?: GroupRegistry }} [options]
 */
async function stopGroup(child, { signal = 'SIGTERM', timeoutMs = 15000, registry } = {}) {
	if (!child || !child.pid) return;
	const pid = child.pid;
	if (child.exitInfo === null) {
		signalGroup(pid, signal);
		const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), timeoutMs);
		await child.exited;
		clearTimeout(timer);
	}
	signalGroup(pid, 'SIGKILL');
	liveGroups.delete(pid);
	registry?.removeGroup(pid);
}

/**
 * SIGKILL the leader alone (as a crash would), wait for it, then the rest of its group.
 * @param {GroupChild} child
 * @param {{ registry?: GroupRegistry }} [options]
 */
async function killLeader(child, { registry } = {}) {
	process.kill(/** @type {number} */ (child.pid), 'SIGKILL');
	await child.exited;
	await stopGroup(child, { signal: 'SIGKILL', registry });
}

/** @param {string} file */
function tail(file, lines = 60) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return `(no log at ${file})`;
	}
}

/** @param {number} ms @returns {Promise<void>} */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { spawnGroup, stopGroup, killLeader, signalGroup, tail, sleep };
