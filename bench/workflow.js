'use strict';
/**
 * The nodes the benchmarks run, in-process through the harness's runNodeWorkflow (as the engine tests do) or imported
 * into a real n8n by bench/real-n8n.js; and node types with n8n's HTTP Request node added.
 */
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { NodeHelpers } = require('n8n-workflow');

/** The body every POST of the benchmarks sends (test/harness/engine.ts REF_AMOUNT_BODY; bench/real-n8n.js loads no TypeScript). */
const BODY_EXPRESSION = '={{ JSON.stringify({ ref: $json.ref, amount: $json.amount }) }}';

/** INodeTypes over the harness's types plus extra ones, e.g. { 'n8n-nodes-base.httpRequest': node }. */
const nodeTypesWith = (harness, extra) => ({
	getByName: (type) => extra[type] ?? harness.nodeTypes.getByName(type),
	getByNameAndVersion(type, version) {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	},
	getKnownTypes: () => ({}),
});

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

/** n8n's HTTP Request node as a user sets it up for this API: Header Auth, the tenant and an Idempotency-Key header. */
const httpRequestNode = (baseUrl, tenantId, credential) => ({
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
});

/** The same POST for a plain undici client, with a new Idempotency-Key. */
const rawPost = (sandbox, input) => ({
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
});

/** Runs `task(i)` for i < count with at most `limit` in flight. */
async function pool(count, limit, task) {
	let next = 0;
	const worker = async () => {
		while (next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** `n8n execute` of workflow `id`: its run data; throws with the exit code and the first error of the run or `nodes`. */
async function execute(n8n, id, nodes, options) {
	const { code, data } = await n8n.execute(id, options);
	const { runData, error } = data.data.resultData;
	const failed =
		error?.message ?? nodes.map((name) => runData[name]?.[0]?.error?.message).find(Boolean);
	if (code !== 0 || failed) throw new Error(`${id}: exit ${code}, error ${failed}`);
	return runData;
}

/** Imports `workflows` (each with an `id`) into `n8n` through its CLI. */
async function importWorkflows(n8n, folder, workflows) {
	const dir = path.join(n8n.userFolder, 'bench-import', folder);
	fs.mkdirSync(dir, { recursive: true });
	for (const workflow of workflows)
		fs.writeFileSync(path.join(dir, `${workflow.id}.json`), JSON.stringify(workflow));
	await n8n.cli(['import:workflow', '--separate', `--input=${dir}`]);
}

module.exports = {
	BODY_EXPRESSION,
	execute,
	httpRequestNode,
	importWorkflows,
	nodeTypesWith,
	pool,
	postNode,
	rawPost,
	returnAllNode,
};
