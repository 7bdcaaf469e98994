'use strict';
/**
 * What the benchmarks print: Markdown tables, the machine and its load, and runs against a rate-limited API
 * (bench/rateLimited.js in-process, bench/executions.js in a real n8n), each checked against the sandbox's counters.
 */
const os = require('node:os');

/** A Markdown table, `head` its titles separated by ' | ': the first column left-aligned, the others right. */
const table = (head, rows) =>
	console.log(
		[head.split(' | '), head.split(' | ').map((_, i) => (i === 0 ? '---' : '---:')), ...rows]
			.map((r) => `| ${r.join(' | ')} |`)
			.join('\n'),
	);

/** The load average over 1, 5 and 15 minutes. */
const loadAverage = () =>
	os
		.loadavg()
		.map((l) => l.toFixed(2))
		.join(' ');

const cpus = os.cpus();
const MACHINE = `${cpus.length} × ${cpus[0]?.model}, ${Math.round(os.totalmem() / 1073741824)} GB, Node ${process.version}, ${os.type()} ${os.release()}`;

/**
 * `work()` against a rate-limited API whose floor for it is `floorMs`: its wall time, × floor and the 1-minute load
 * before and after, with what it resolves: `{ succeeded }` (the items with a success output) and the sandbox's
 * `{ records, refs, requests, rateLimited }` (`refs`: distinct items among the records).
 */
async function againstFloor(count, floorMs, work) {
	const load = os.loadavg()[0];
	const started = Date.now();
	const { succeeded, records, refs, requests, rateLimited, error } = await work();
	const ms = Date.now() - started;
	return {
		ms,
		vsFloor: ms / floorMs,
		failed: count - succeeded,
		records,
		lost: count - refs,
		duplicates: records - refs,
		requests,
		requestsPerItem: requests / count,
		rateLimited,
		error,
		load: [load, os.loadavg()[0]],
	};
}

/** One run's line while the benchmark goes. */
const logRun = (round, name, r) =>
	process.stderr.write(
		`  round ${round + 1} ${name.padEnd(40)} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.vsFloor.toFixed(3)}× floor  failed ${r.failed}  duplicates ${r.duplicates}  ${r.rateLimited} 429s\n`,
	);

/** The runs of againstFloor(), one row each. */
const printRuns = (title, runs) =>
	table(
		`${title} | time s | × floor | failed | records | lost | duplicates | requests/item | 429s | load avg (start → end)`,
		runs.map((r) => [
			r.label,
			(r.ms / 1000).toFixed(1),
			r.vsFloor.toFixed(3),
			r.error ? `${r.failed} (node error: ${r.error.slice(0, 80)})` : r.failed,
			r.records,
			r.lost,
			r.duplicates,
			r.requestsPerItem.toFixed(3),
			r.rateLimited,
			`${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)}`,
		]),
	);

module.exports = { MACHINE, againstFloor, loadAverage, logRun, printRuns, table };
