'use strict';
/**
 * Bulk POST against a rate-limited API: the sandbox answers 40 ms after each request and lets 50
 * requests/s per key through, in bursts of 10; beyond that 429 + Retry-After: 1. The floor is N / rate.
 * Each scenario runs once per round against a sandbox of its own (a new origin, so the node's rate
 * governor starts from nothing, as in a freshly started n8n).
 *
 * - Tenant API node with default options (Concurrency 5) and with Concurrency 16, without and with
 *   rate-limit headers; each node scenario then runs again in the same process (`again`): the governor
 *   remembers the limit;
 * - n8n's HTTP Request node as bench/workflow.js configures it, with Retry On Fail off and on (n8n's
 *   defaults: 3 tries, 1 s apart);
 * - undici at the node's concurrencies, honouring Retry-After (same key on every retry), for reference.
 */
const { setTimeout: sleep } = require('node:timers/promises');

const { TEST_CREDENTIAL_ID, runNodeWorkflow } = require('../test/harness/engine.ts');
const { Pool } = require('undici');
const { httpRequestNode, pool, postNode, rawPost } = require('./workflow');

const RATE_LIMIT = { perSecond: 50, burst: 10 };
const LATENCY = { fixedMs: 40, jitterMs: 0 };

/** What happened to the N items: outputs that are successes, records, duplicates, requests and 429s. */
async function outcome(sandbox, inputs, items, error) {
	const { records, distinctRefs } = await sandbox.call('recordCount');
	const stats = await sandbox.call('stats');
	const succeeded = items.filter((item) => item.json && item.json.error === undefined).length;
	return {
		succeeded,
		failed: inputs.length - succeeded,
		records,
		duplicates: records - distinctRefs,
		requests: stats.requests,
		rateLimited: stats.rateLimited,
		error: error?.message,
	};
}

/** Runs Items → `node` in the engine and tells what happened to the items. */
async function runNode(ctx, sandbox, node) {
	const { harness, nodeTypes, inputs } = ctx;
	const { items, error } = await runNodeWorkflow(harness, node, {
		nodeTypes,
		inputItems: inputs,
		workflowId: 'wf-bench-rl',
	});
	return await outcome(sandbox, inputs, items, error);
}

function tenantApiScenario(ctx, concurrency, headers) {
	return {
		name: `rl-node-c${concurrency}${headers ? '-headers' : ''}`,
		label: `Tenant API node, ${concurrency === 5 ? 'default options (Concurrency 5)' : `Concurrency ${concurrency}`}${headers ? ', rate-limit headers on' : ''}`,
		kind: 'node',
		headers,
		again: true,
		run: async (sandbox) => {
			const options = concurrency === 5 ? {} : { concurrency };
			const node = postNode({ id: TEST_CREDENTIAL_ID, name: 'Tenant API' }, options);
			return await runNode(ctx, sandbox, node);
		},
	};
}

function httpRequestScenario(ctx, retryOnFail) {
	return {
		name: `rl-http-request${retryOnFail ? '-retry' : ''}`,
		label: `HTTP Request node (v4.5, all items at once), Retry On Fail ${retryOnFail ? 'on (3 tries, 1 s apart)' : 'off'}`,
		kind: 'httpRequest',
		headers: false,
		run: async (sandbox) => {
			const node = {
				...httpRequestNode(sandbox.baseUrl, sandbox.tenantId, {
					id: 'cred-header-auth',
					name: 'Header Auth',
				}),
				...(retryOnFail ? { retryOnFail: true } : {}),
			};
			return await runNode(ctx, sandbox, node);
		},
	};
}

/** undici honouring Retry-After: a refused request waits as long as the API says, then goes again with the same key. */
function rawScenario(ctx, concurrency) {
	const { inputs } = ctx;
	return {
		name: `rl-raw-c${concurrency}`,
		label: `undici Pool, concurrency ${concurrency}, honouring Retry-After`,
		kind: 'raw',
		headers: false,
		run: async (sandbox) => {
			const client = new Pool(new URL(sandbox.baseUrl).origin, { connections: concurrency });
			const items = new Array(inputs.length);
			await pool(inputs.length, concurrency, async (i) => {
				const request = rawPost(sandbox, inputs[i]);
				for (;;) {
					const { statusCode, headers: answerHeaders, body } = await client.request(request);
					const json = await body.json();
					if (statusCode !== 429) {
						items[i] = { json: statusCode === 201 ? json : { error: statusCode } };
						return;
					}
					await sleep(Number(answerHeaders['retry-after'] ?? 1) * 1000);
				}
			});
			await client.close();
			return await outcome(sandbox, inputs, items);
		},
	};
}

function rateLimitedScenarios(ctx) {
	return [
		tenantApiScenario(ctx, 5, false),
		tenantApiScenario(ctx, 16, false),
		tenantApiScenario(ctx, 5, true),
		tenantApiScenario(ctx, 16, true),
		...(ctx.httpRequest ? [httpRequestScenario(ctx, false), httpRequestScenario(ctx, true)] : []),
		rawScenario(ctx, 5),
		rawScenario(ctx, 16),
	];
}

module.exports = { RATE_LIMIT, LATENCY, rateLimitedScenarios };
