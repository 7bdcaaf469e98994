'use strict';
/**
 * Many short executions against a rate-limited API, as real n8n work arrives: one execution per webhook
 * call, each posting one item. A Webhook node (Respond: when the last node finishes) → the Tenant API
 * node (POST /transfers, default options), or → n8n's HTTP Request node with Retry On Fail (n8n's
 * defaults: 3 tries, 1 s apart) for comparison. `count` calls, `atOnce` at a time; the sandbox lets
 * RATE.perSecond requests per second through (bursts of RATE.burst), so the floor is count / rate.
 * Used by bench/real-n8n.js, on a regular instance and (--queue) on a queue-mode cluster.
 */
const crypto = require('node:crypto');
const os = require('node:os');

const { chain, imported, node } = require('../test/harness/n8n/workflows');
const { httpRequestNode, pool, postNode } = require('./workflow');

const RATE = { perSecond: 10, burst: 10 };
const LATENCY = { fixedMs: 40, jitterMs: 0 };
const BODY_FROM_WEBHOOK =
	'={{ JSON.stringify({ ref: $json.body.ref, amount: $json.body.amount }) }}';

/** Webhook → `next`, answering the call with the last node's first item once the execution has finished. */
function webhookWorkflow(id, name, next) {
	const webhookId = crypto.randomUUID();
	const parameters = { httpMethod: 'POST', path: webhookId, responseMode: 'lastNode', options: {} };
	const webhook = node('Webhook', 'n8n-nodes-base.webhook', parameters, {
		typeVersion: 2,
		webhookId,
	});
	return { path: `/webhook/${webhookId}`, workflow: chain(name, [webhook, next], imported(id)) };
}

/** The two workflows of the scenario, for a sandbox and the credentials' ids and names. */
function executionWorkflows(sandbox, { tenantApi, headerAuth }) {
	const tenant = postNode(tenantApi, {}, BODY_FROM_WEBHOOK);
	const base = httpRequestNode(sandbox.baseUrl, sandbox.tenantId, headerAuth);
	const http = {
		...base,
		retryOnFail: true,
		parameters: { ...base.parameters, jsonBody: BODY_FROM_WEBHOOK },
	};
	return [
		{
			name: 'exec-tenant-api',
			label: 'Tenant API node (default options)',
			...webhookWorkflow('benchExecTenantApi', 'bench: webhook → Tenant API', tenant),
		},
		{
			name: 'exec-http-request',
			label: 'HTTP Request node, Retry On Fail on (3 tries, 1 s apart)',
			...webhookWorkflow('benchExecHttpRequest', 'bench: webhook → HTTP Request', http),
		},
	];
}

/** Calls `url` `count` times, `atOnce` at a time, each with its own ref; resolves the answers' statuses and the time. */
async function fire(url, count, atOnce, tag) {
	const statuses = new Array(count);
	const started = Date.now();
	await pool(count, atOnce, async (i) => {
		try {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ ref: `${tag}-${i}`, amount: i + 1 }),
			});
			await res.arrayBuffer();
			statuses[i] = res.status;
		} catch (error) {
			statuses[i] = `error: ${error.message}`;
		}
	});
	return { ms: Date.now() - started, statuses };
}

/**
 * One scenario: the sandbox reset with the rate limit on, `count` calls to `url`, then what the API saw.
 * `sandbox` is the in-process sandbox (sandbox/server.js).
 */
async function runExecutions(sandbox, url, { count, atOnce, tag }) {
	sandbox.reset();
	sandbox.setRateLimit(RATE);
	sandbox.setLatency(LATENCY);
	const loadBefore = os.loadavg()[0];
	const { ms, statuses } = await fire(url, count, atOnce, tag);
	const records = sandbox.records();
	const refs = new Set(records.map((record) => record.ref));
	const stats = sandbox.stats();
	sandbox.setRateLimit(null);
	sandbox.setLatency(null);
	const succeeded = statuses.filter((status) => status === 200).length;
	const floorMs = (count / RATE.perSecond) * 1000;
	return {
		ms,
		floorMs,
		vsFloor: ms / floorMs,
		failed: count - succeeded,
		answers: Object.fromEntries(
			[...new Set(statuses)].map((status) => [status, statuses.filter((s) => s === status).length]),
		),
		records: records.length,
		lost: count - refs.size,
		duplicates: records.length - refs.size,
		requests: stats.requests,
		requestsPerItem: stats.requests / count,
		rateLimited: stats.rateLimited,
		load: [loadBefore, os.loadavg()[0]],
	};
}

function printExecutions(title, results) {
	console.log(`\n${title}`);
	console.log(
		'| Scenario | time s | × floor | failed | records | lost | duplicates | requests/item | 429s | load avg (start → end) |',
	);
	console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
	for (const r of results) {
		console.log(
			`| ${r.label} | ${(r.ms / 1000).toFixed(1)} | ${r.vsFloor.toFixed(3)} | ${r.failed} | ${r.records} | ${r.lost} | ${r.duplicates} | ${r.requestsPerItem.toFixed(3)} | ${r.rateLimited} | ${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)} |`,
		);
	}
}

module.exports = { RATE, executionWorkflows, runExecutions, printExecutions };
