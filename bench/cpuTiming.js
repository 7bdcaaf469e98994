'use strict';
/**
 * CPU time per call of functions measured side by side: each is warmed first (the JIT compiles it), then all run in
 * rounds, one loop of about the same CPU time each, in an order that rotates round by round, so that what else runs on
 * the machine weighs on all of them alike. CPU time of the process (process.cpuUsage), the steadier figure when
 * other jobs share the cores.
 */

/** @typedef {() => unknown} Call */

/** CPU µs of the process since `started` (a process.cpuUsage() value). @param {NodeJS.CpuUsage} started */
function cpuSince(started) {
	const used = process.cpuUsage(started);
	return used.user + used.system;
}

/** CPU µs per call over `calls` calls of `fn`. @param {Call} fn @param {number} calls */
function perCall(fn, calls) {
	const started = process.cpuUsage();
	for (let i = 0; i < calls; i++) fn();
	return cpuSince(started) / calls;
}

/** Runs `fn` at least `calls` times and for at least `us` of CPU. @param {Call} fn @param {{ calls: number, us: number }} warm */
function warmUp(fn, { calls, us }) {
	const started = process.cpuUsage();
	for (let done = 0; done < calls || cpuSince(started) < us; done++) fn();
}

/**
 * How many calls of `fn` take about `loopUs` of CPU, at least 3 (3 without trying when `loopUs` is 0: calls too slow
 * to try).
 * @param {Call} fn
 * @param {number} loopUs
 */
function callsFor(fn, loopUs) {
	if (loopUs <= 0) return 3;
	return Math.max(3, Math.ceil(loopUs / Math.max(0.05, perCall(fn, 5))));
}

/** @param {number[]} values */
function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * CPU µs per call of each function in each round: `rounds` rounds, each function one loop of about `loopUs` per round,
 * the order rotated every round. `warm`: the warm-up each function gets first (none when omitted).
 * @template {string} K
 * @param {Record<K, Call>} fns
 * @param {{ rounds: number, loopUs: number, warm?: { calls: number, us: number } }} options
 * @returns {Record<K, number[]>}
 */
function sideBySide(fns, { rounds, loopUs, warm }) {
	const names = /** @type {K[]} */ (Object.keys(fns));
	if (warm) for (const name of names) warmUp(fns[name], warm);
	const calls = names.map((name) => callsFor(fns[name], loopUs));
	const rows = names.map(() => /** @type {number[]} */ ([]));
	for (let round = 0; round < rounds; round++) {
		for (let k = 0; k < names.length; k++) {
			const i = (k + round) % names.length;
			rows[i].push(perCall(fns[names[i]], calls[i]));
		}
	}
	return /** @type {Record<K, number[]>} */ (
		Object.fromEntries(names.map((name, i) => [name, rows[i]]))
	);
}

/** The median over the rounds of `a[round] / b[round]`. @param {number[]} a @param {number[]} b */
function pairedRatio(a, b) {
	return median(a.map((value, round) => value / b[round]));
}

module.exports = { median, pairedRatio, sideBySide };
