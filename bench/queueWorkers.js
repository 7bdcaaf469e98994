'use strict';
/**
 * Queue mode against one API key on a simulated clock (test/harness/rateLimit/workers.ts), with the built package's
 * governor and run limiter (dist/), beside two controls; the set-up and figures: docs/benchmarks.md "Queue mode on a
 * simulated clock".
 */
require('../test/harness/register-ts');

const path = require('node:path');

const { Simulation } = require('../test/harness/rateLimit/simulation.ts');
const { runQueue } = require('../test/harness/rateLimit/workers.ts');
const { table } = require('./report');

const RATES = [
	{ perSecond: 10, burst: 10 },
	{ perSecond: 50, burst: 10 },
	{ perSecond: 200, burst: 50 },
];
const WORKERS = [1, 2, 4, 8, 16, 32];
const CLIENTS = [
	{ client: 'governor', label: 'Tenant API node' },
	{ client: 'ideal', label: 'one copy of the API bucket shared by all workers' },
	{ client: 'retryAfterOnly', label: 'honouring Retry-After only' },
];
const EXECUTION = { itemsPerExecution: 20, concurrency: 5 };
const LATENCY_MS = 40;

async function queueWorkersBench(seconds = 300) {
	const dist = path.join(__dirname, '..', 'dist', 'nodes', 'TenantApi', 'transport', 'rateLimit');
	const code = {
		RateGovernor: require(path.join(dist, 'governor.js')).RateGovernor,
		RunLimiter: require(path.join(dist, 'runLimiter.js')).RunLimiter,
	};
	const startedAt = Date.now();
	const rows = [];
	for (const rate of RATES) {
		const executions = Math.ceil((rate.perSecond * seconds) / EXECUTION.itemsPerExecution);
		for (const { client, label } of CLIENTS) {
			for (const workers of WORKERS) {
				const simulation = new Simulation({ ...rate, latencyMs: LATENCY_MS }, 1, 0, code);
				const run = await runQueue(simulation, { workers, executions, client, ...EXECUTION });
				if (run.accepted + run.failedItems !== run.queuedItems)
					throw new Error(
						`${label}, ${workers} workers against ${rate.perSecond}/s: ${run.accepted} accepted and ${run.failedItems} failed of ${run.queuedItems} items`,
					);
				const itemsPerWorker = run.workers.map((worker) => worker.items);
				rows.push({
					perSecond: rate.perSecond,
					burst: rate.burst,
					client,
					label,
					workers,
					items: run.items,
					vsFloor: run.elapsedMs / run.floorMs,
					requestsPerItem: run.requests / run.items,
					refusedPerWorkerSecond: run.refused / workers / (run.elapsedMs / 1000),
					longestGapS: Math.max(...run.workers.map((worker) => worker.longestGapMs)) / 1000,
					itemsPerWorker: [Math.min(...itemsPerWorker), Math.max(...itemsPerWorker)],
					failedItems: run.failedItems,
				});
			}
		}
	}
	return { seconds, latencyMs: LATENCY_MS, ...EXECUTION, wallMs: Date.now() - startedAt, rows };
}

function printQueueWorkers(report) {
	const fmt = (n, digits) => n.toFixed(digits);
	console.log(
		`\nQueue mode on a simulated clock: N workers on one key, executions of ${report.itemsPerExecution} items at Concurrency ${report.concurrency}, ${report.latencyMs} ms per answer, 429 + Retry-After: 1; ${report.seconds} s of the API's rate in items (${fmt(report.wallMs / 1000, 1)} s of wall time). Longest starvation: the longest time a worker waited for an accepted answer.`,
	);
	for (const rate of RATES) {
		const of = (client, workers) =>
			report.rows.find(
				(r) => r.perSecond === rate.perSecond && r.client === client && r.workers === workers,
			);
		const columns = (r) => [fmt(r.vsFloor, 3), fmt(r.requestsPerItem, 3), fmt(r.longestGapS, 1)];
		table(
			`${rate.perSecond} requests/s, burst ${rate.burst}: workers | × floor | requests/item | 429s per worker per s | longest starvation s | items per worker | shared bucket: × floor | requests/item | longest starvation s | Retry-After only: × floor | requests/item | longest starvation s`,
			WORKERS.map((workers) => {
				const [node, ideal, retryOnly] = CLIENTS.map(({ client }) => of(client, workers));
				const failed = node.failedItems ? ` (${node.failedItems} items failed)` : '';
				return [
					workers,
					fmt(node.vsFloor, 3),
					`${fmt(node.requestsPerItem, 3)}${failed}`,
					fmt(node.refusedPerWorkerSecond, 3),
					fmt(node.longestGapS, 1),
					node.itemsPerWorker.join('–'),
					...columns(ideal),
					...columns(retryOnly),
				];
			}),
		);
	}
}

module.exports = { printQueueWorkers, queueWorkersBench };
