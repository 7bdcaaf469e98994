'use strict';
/*
 * Watchdog for one queue-mode run (started by services.createTracker, detached):
 *
 *   node reaper.js <ownerPid> <registry.json> <deadlineEpochMs>
 *
 * Every 500 ms: registry gone → the owner cleaned up → exit. Owner dead (even SIGKILLed) or deadline
 * passed → SIGKILL every registered process group, remove the registered folders; at the deadline
 * also SIGTERM the owner (SIGKILL 20 s later), so a hung run stops by itself.
 */
const fs = require('node:fs');

const [ownerPid, registry, deadline] = [
	Number(process.argv[2]),
	process.argv[3],
	Number(process.argv[4]),
];

/** @param {number} pid */
function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return err.code === 'EPERM';
	}
}

/** @param {string} msg */
function say(msg) {
	process.stdout.write(`${new Date().toISOString()} reaper: ${msg}\n`);
}

/** @param {string} why */
function reap(why) {
	/** @type {import('./services').Registry} */
	let state = { groups: [], dirs: [] };
	try {
		state = JSON.parse(fs.readFileSync(registry, 'utf8'));
	} catch {
		/* unreadable: nothing to do */
	}
	say(
		`${why}: killing ${state.groups.map((g) => `${g.label}(${g.pgid})`).join(', ') || 'nothing'}`,
	);
	for (const g of state.groups) {
		try {
			process.kill(-g.pgid, 'SIGKILL');
		} catch {
			/* gone */
		}
	}
	for (const d of state.dirs) {
		try {
			fs.rmSync(d, { recursive: true, force: true });
		} catch {
			/* best effort */
		}
	}
	try {
		fs.rmSync(registry, { force: true });
	} catch {
		/* best effort */
	}
}

const timer = setInterval(() => {
	if (!fs.existsSync(registry)) {
		clearInterval(timer);
		return;
	}
	if (!alive(ownerPid)) {
		clearInterval(timer);
		reap(`owner ${ownerPid} is gone`);
		return;
	}
	if (Date.now() > deadline) {
		clearInterval(timer);
		reap('deadline passed');
		say(`stopping owner ${ownerPid}`);
		try {
			process.kill(ownerPid, 'SIGTERM');
		} catch {
			/* gone */
		}
		setTimeout(() => {
			if (alive(ownerPid)) {
				say(`owner ${ownerPid} still alive: SIGKILL`);
				try {
					process.kill(ownerPid, 'SIGKILL');
				} catch {
					/* gone */
				}
			}
		}, 20000);
	}
}, 500);
