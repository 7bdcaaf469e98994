'use strict';
/*
 * Watchdog for one queue-mode run, started detached by services.createTracker:
 *
 *   node reaper.js <ownerPid> <registry.json> <deadlineEpochMs>
 *
 * Every 500 ms: registry gone → the owner cleaned up → exit. Owner dead (even SIGKILLed) or deadline
 * passed → SIGKILL every registered process group, remove the registered folders; at the deadline
 * also SIGTERM the owner (SIGKILL 20 s later), so a hung run stops by itself.
 */
const fs = require('node:fs');
const { signalGroup } = require('../n8n/process-group');

const [owner, registry, deadline] = [+process.argv[2], process.argv[3], +process.argv[4]];
const alive = () => fs.existsSync(`/proc/${owner}`);
const say = (/** @type {string} */ msg) =>
	process.stdout.write(`${new Date().toISOString()} reaper: ${msg}\n`);

/** @param {string} why */
function reap(why) {
	/** @type {import('./services').Registry} */
	const state = fs.existsSync(registry)
		? JSON.parse(fs.readFileSync(registry, 'utf8'))
		: { groups: [], dirs: [] };
	say(
		`${why}: killing ${state.groups.map((g) => `${g.label}(${g.pgid})`).join(', ') || 'nothing'}`,
	);
	for (const g of state.groups) signalGroup(g.pgid, 'SIGKILL');
	for (const d of [...state.dirs, registry]) fs.rmSync(d, { recursive: true, force: true });
}

const timer = setInterval(() => {
	if (!fs.existsSync(registry)) return clearInterval(timer);
	if (!alive()) {
		clearInterval(timer);
		return reap(`owner ${owner} is gone`);
	}
	if (Date.now() < deadline) return;
	clearInterval(timer);
	reap('deadline passed');
	say(`stopping owner ${owner}`);
	// signalGroup(-pid, …) signals the process `pid` alone (group ids are negated pids).
	signalGroup(-owner, 'SIGTERM');
	setTimeout(() => alive() && signalGroup(-owner, 'SIGKILL'), 20000);
}, 500);
