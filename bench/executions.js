'use strict';
/**
 * Many short executions against a rate-limited API, as real n8n work arrives (bench/real-n8n.js, also on a queue-mode
 * cluster): one per webhook call, each posting one item. docs/benchmarks.md "Many executions in a real n8n".
 */
const crypto = require('node:crypto');

const { chain, imported, node } = require('../test/harness/n8n/workflows');
const { againstFloor } = require('./report');
const { httpRequestNode, pool, postNode } = require('./workflow');

const RATE = { perSecond: 10, burst: 10 };
const BODY_FROM_WEBHOOK =
	'={{ JSON.stringify({ ref: $json.body.ref, amount: $json.body.amount }) }}';

/** Webhook → `next`, answering the call with the last node's first item once the execution has finished. */
function webhookWorkflow(name, label, id, title, next) {
	const webhookId = crypto.randomUUID();
	const parameters = { httpMethod: 'POST', path: webhookId, responseMode: 'lastNode', options: {} };
	const webhook = node('Webhook', 'n8n-nodes-base.webhook', parameters, {
		typeVersion: 2,
		webhookId,
	});
	return {
		name,
		label,
		path: `/webhook/${webhookId}`,
		workflow: chain(title, [webhook, next], imported(id)),
	};
}

/** The two workflows, for a sandbox and the credentials' { id, name }. */
function executionWorkflows(sandbox, { tenantApi, headerAuth }) {
	const http = httpRequestNode(sandbox.baseUrl, sandbox.tenantId, headerAuth);
	http.parameters.jsonBody = BODY_FROM_WEBHOOK;
	return [
		webhookWorkflow(
			'exec-tenant-api',
			'Tenant API node (default options)',
			'benchExecTenantApi',
			'bench: webhook → Tenant API',
			postNode(tenantApi, {}, BODY_FROM_WEBHOOK),
		),
		webhookWorkflow(
			'exec-http-request',
			'HTTP Request node, Retry On Fail on (3 tries, 1 s apart)',
			'benchExecHttpRequest',
			'bench: webhook → HTTP Request',
			{ ...http, retryOnFail: true },
		),
	];
}

/** `count` calls to `url`, `atOnce` at a time, each with its own ref, against the in-process sandbox rate-limited; what the API saw. */
async function runExecutions(sandbox, url, { count, atOnce, tag }) {
	sandbox.reset();
	sandbox.setRateLimit(RATE);
	sandbox.setLatency({ fixedMs: 40 });
	const answers = {};
	const run = await againstFloor(count, (count / RATE.perSecond) * 1000, async () => {
		await pool(count, atOnce, async (i) => {
			const body = JSON.stringify({ ref: `${tag}-${i}`, amount: i + 1 });
			const headers = { 'content-type': 'application/json' };
			const status = await fetch(url, { method: 'POST', headers, body })
				.then((res) => res.arrayBuffer().then(() => res.status))
				.catch((error) => `error: ${error.message}`);
			answers[status] = (answers[status] ?? 0) + 1;
		});
		const records = sandbox.records();
		const refs = new Set(records.map((record) => record.ref)).size;
		const { requests, rateLimited } = sandbox.stats();
		return { succeeded: answers[200] ?? 0, records: records.length, refs, requests, rateLimited };
	});
	sandbox.setRateLimit(null);
	sandbox.setLatency(null);
	return { ...run, answers };
}

module.exports = { RATE, executionWorkflows, runExecutions };
