'use strict';
/**
 * Bulk POST against a rate-limited API (RATE_LIMIT, LATENCY; the floor is N / rate): the Tenant API node, n8n's HTTP
 * Request node with Retry On Fail off and on, and undici honouring Retry-After. docs/benchmarks.md "Rate limits".
 */
const { setTimeout: sleep } = require('node:timers/promises');
const { Pool } = require('undici');

const { TEST_CREDENTIAL_ID, runNodeWorkflow } = require('../test/harness/engine.ts');
const { httpRequestNode, pool, postNode, rawPost } = require('./workflow');

const RATE_LIMIT = { perSecond: 50, burst: 10 };
const LATENCY = { fixedMs: 40, jitterMs: 0 };

/** What happened to the items (report.js againstFloor): those with a success output, and the sandbox's counters. */
async function outcome(sandbox, items, error) {
	const { records, distinctRefs: refs } = await sandbox.call('recordCount');
	const { requests, rateLimited } = await sandbox.call('stats');
	const succeeded = items.filter((item) => item.json && item.json.error === undefined).length;
	return { succeeded, records, refs, requests, rateLimited, error: error?.message };
}

function rateLimitedScenarios({ harness, nodeTypes, inputs, httpRequest, headerAuth }) {
	const runNode = (node) => async (sandbox) => {
		const { items, error } = await runNodeWorkflow(harness, node(sandbox), {
			nodeTypes,
			inputItems: inputs,
			workflowId: 'wf-bench-rl',
		});
		return await outcome(sandbox, items, error);
	};
	const nodes = [false, true].flatMap((headers) =>
		[5, 16].map((concurrency) => ({
			name: `rl-node-c${concurrency}${headers ? '-headers' : ''}`,
			label: `Tenant API node, ${concurrency === 5 ? 'default options (Concurrency 5)' : `Concurrency ${concurrency}`}${headers ? ', rate-limit headers on' : ''}`,
			headers,
			again: true,
			run: runNode(() =>
				postNode(
					{ id: TEST_CREDENTIAL_ID, name: 'Tenant API' },
					concurrency === 5 ? {} : { concurrency },
				),
			),
		})),
	);
	const http = [false, true].map((retryOnFail) => ({
		name: `rl-http-request${retryOnFail ? '-retry' : ''}`,
		label: `HTTP Request node (v4.5, all items at once), Retry On Fail ${retryOnFail ? 'on (3 tries, 1 s apart)' : 'off'}`,
		run: runNode((sandbox) => ({
			...httpRequestNode(sandbox.baseUrl, sandbox.tenantId, headerAuth),
			...(retryOnFail ? { retryOnFail: true } : {}),
		})),
	}));
	const raw = [5, 16].map((concurrency) => ({
		name: `rl-raw-c${concurrency}`,
		label: `undici Pool, concurrency ${concurrency}, honouring Retry-After`,
		run: async (sandbox) => {
			const client = new Pool(new URL(sandbox.baseUrl).origin, { connections: concurrency });
			const items = new Array(inputs.length);
			await pool(inputs.length, concurrency, async (i) => {
				const request = rawPost(sandbox, inputs[i]);
				for (;;) {
					const { statusCode, headers, body } = await client.request(request);
					const json = await body.json();
					if (statusCode !== 429)
						return void (items[i] = { json: statusCode === 201 ? json : { error: statusCode } });
					await sleep(Number(headers['retry-after'] ?? 1) * 1000);
				}
			});
			await client.close();
			return await outcome(sandbox, items);
		},
	}));
	return [...nodes, ...(httpRequest ? http : []), ...raw];
}

module.exports = { RATE_LIMIT, LATENCY, rateLimitedScenarios };
