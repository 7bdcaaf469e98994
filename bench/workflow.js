'use strict';
/**
 * Node types for the benchmark: the harness's (this package) plus n8n's HTTP Request node, and the
 * nodes the benchmarks run. In-process workflows run through the harness's runNodeWorkflow (n8n-core's
 * WorkflowExecute), like the engine tests; bench/real-n8n.js imports them into a real n8n.
 */
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

/** The Tenant API node (of node type `type`) listing every account: Account → Get Many, Return All. */
function returnAllNode(type, pageSize, credential) {
	return {
		name: 'Tenant API',
		type,
		typeVersion: 1,
		parameters: {
			resource: 'account',
			operation: 'getAll',
			returnAll: true,
			options: { pageSize },
		},
		credentials: { tenantApi: credential },
	};
}

module.exports = { BODY_EXPRESSION, httpRequestNode, nodeTypesWith, returnAllNode };
