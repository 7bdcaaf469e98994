'use strict';
/**
 * CPU time per call of functions measured side by side: each warmed first, then all in rounds of one loop of about the
 * same CPU time each, the order rotating round by round, so that what else runs on the machine weighs on all alike.
 */

function cpuSince(started) {
	const used = process.cpuUsage(started);
	return used.user + used.system;
}

/** CPU µs per call over `calls` calls of `fn`. */
function perCall(fn, calls) {
	const started = process.cpuUsage();
	for (let i = 0; i < calls; i++) fn();
	return cpuSince(started) / calls;
}

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * CPU µs per call of each function in each round, after a garbage collection (with --expose-gc). `warm`: at least
 * `calls` calls and `us` of CPU first. `loopUs` 0: 3 calls a round, for calls too slow to try.
 */
function sideBySide(fns, { rounds, loopUs, warm }) {
	global.gc?.();
	const names = Object.keys(fns);
	for (const name of names) {
		const started = process.cpuUsage();
		for (let done = 0; done < warm.calls || cpuSince(started) < warm.us; done++) fns[name]();
	}
	const calls = names.map((name) =>
		loopUs <= 0 ? 3 : Math.max(3, Math.ceil(loopUs / Math.max(0.05, perCall(fns[name], 5)))),
	);
	const rows = names.map(() => []);
	for (let round = 0; round < rounds; round++)
		for (let k = 0; k < names.length; k++) {
			const i = (k + round) % names.length;
			rows[i].push(perCall(fns[names[i]], calls[i]));
		}
	return Object.fromEntries(names.map((name, i) => [name, rows[i]]));
}

/** The median over the rounds of `a[round] / b[round]`. */
const pairedRatio = (a, b) => median(a.map((value, round) => value / b[round]));

module.exports = { median, pairedRatio, sideBySide };
