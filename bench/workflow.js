'use strict';
/**
 * Node types for the benchmark: the harness's (this package) plus n8n's HTTP Request node, and the
 * nodes the benchmarks run. In-process workflows run through the harness's runNodeWorkflow (n8n-core's
 * WorkflowExecute), like the engine tests; bench/real-n8n.js imports them into a real n8n.
 */
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { NodeHelpers } = require('n8n-workflow');

/** INodeTypes over the harness's types plus extra ones, e.g. { 'n8n-nodes-base.httpRequest': node }. */
function nodeTypesWith(harness, extra) {
	return {
		getByName: (type) => extra[type] ?? harness.nodeTypes.getByName(type),
		getByNameAndVersion(type, version) {
			return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
		},
		getKnownTypes: () => ({}),
	};
}

const BODY_EXPRESSION = '={{ JSON.stringify({ ref: $json.ref, amount: $json.amount }) }}';

/** The Tenant API node with `parameters`, and `credential` ({ id, name }). */
const tenantApiNode = (credential, parameters) => ({
	name: 'Tenant API',
	type: 'n8n-nodes-tenant-api.tenantApi',
	typeVersion: 1,
	parameters,
	credentials: { tenantApi: credential },
});

/** Request → POST to /transfers with `body` and `options`. */
const postNode = (credential, options = {}, body = BODY_EXPRESSION) =>
	tenantApiNode(credential, {
		resource: 'request',
		operation: 'post',
		endpoint: '/transfers',
		body,
		options,
	});

/** Account → Get Many, Return All. */
const returnAllNode = (pageSize, credential) =>
	tenantApiNode(credential, {
		resource: 'account',
		operation: 'getAll',
		returnAll: true,
		options: { pageSize },
	});

/**
 * n8n's HTTP Request node as a user builds it by hand for this API: a Header Auth credential for
 * Api-Key, the tenant and an Idempotency-Key expression as headers, the same JSON body expression.
 */
function httpRequestNode(baseUrl, tenantId, credential) {
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.5,
		parameters: {
			method: 'POST',
			url: `${baseUrl}/transfers`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'x-tenant-id', value: tenantId },
					{ name: 'Idempotency-Key', value: '={{ $execution.id }}-{{ $itemIndex }}' },
				],
			},
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: BODY_EXPRESSION,
			options: {},
		},
		credentials: { httpHeaderAuth: credential },
	};
}

/**
 * The same POST for a plain undici client: the request of one input item, with a new Idempotency-Key.
 * @param {{ apiKey: string, tenantId: string }} sandbox
 * @param {{ ref: string, amount: number }} input
 */
function rawPost(sandbox, input) {
	return {
		method: 'POST',
		path: '/v1/transfers',
		headers: {
			'api-key': sandbox.apiKey,
			'x-tenant-id': sandbox.tenantId,
			'content-type': 'application/json',
			accept: 'application/json',
			'idempotency-key': randomUUID(),
		},
		body: JSON.stringify({ ref: input.ref, amount: input.amount }),
	};
}

/** Runs `task(i)` for i < count with at most `limit` in flight. */
async function pool(count, limit, task) {
	let next = 0;
	const worker = async () => {
		while (next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** Imports `workflows` (each with an `id`) into the n8n of `n8n` (stopped or running) through its CLI. */
async function importWorkflows(n8n, folder, workflows) {
	const dir = path.join(n8n.userFolder, 'bench-import', folder);
	fs.mkdirSync(dir, { recursive: true });
	for (const workflow of workflows)
		fs.writeFileSync(path.join(dir, `${workflow.id}.json`), JSON.stringify(workflow));
	await n8n.cli(['import:workflow', '--separate', `--input=${dir}`]);
}

module.exports = {
	importWorkflows,
	BODY_EXPRESSION,
	httpRequestNode,
	nodeTypesWith,
	pool,
	postNode,
	rawPost,
	returnAllNode,
};
