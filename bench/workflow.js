'use strict';
/**
 * Runs "Items → one node" through n8n-core's WorkflowExecute, like test/harness/engine.ts does for the
 * Tenant API node, but for any node type (the benchmark also runs n8n's HTTP Request node).
 */
const { randomUUID } = require('node:crypto');

const { ExecutionLifecycleHooks, WorkflowExecute } = require('n8n-core');
const { NodeConnectionTypes, NodeHelpers, Workflow } = require('n8n-workflow');

const { ITEMS_TYPE } = require('../test/harness/engine.ts');

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

/**
 * @param {object} harness from createHarness()
 * @param {object} nodeTypes INodeTypes
 * @param {object} node INode without position/id (name, type, typeVersion, parameters, credentials)
 * @param {object[]} inputItems json of the items fed into the node
 * @returns {Promise<{ items: object[], error?: Error, nodeMs: number }>}
 */
async function runNodeWorkflow(harness, nodeTypes, node, inputItems) {
	const executionId = randomUUID();
	const workflowId = 'wf-bench';
	const nodes = [
		{ id: 'items-node', name: 'Items', type: ITEMS_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify(inputItems) } },
		{ id: 'node-under-test', position: [200, 0], ...node },
	];
	const connections = { Items: { main: [[{ node: node.name, type: NodeConnectionTypes.Main, index: 0 }]] } };
	const workflow = new Workflow({ id: workflowId, nodes, connections, active: false, nodeTypes });
	const additionalData = harness.additionalData(executionId, workflowId);
	additionalData.hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: workflowId,
		name: 'bench',
		nodes,
		connections,
		active: false,
		activeVersionId: null,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
	});
	const run = await new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode: workflow.getNode('Items') });
	const task = run.data.resultData.runData[node.name]?.[0];
	return {
		items: task?.data?.main?.[0] ?? [],
		error: task?.error ?? run.data.resultData.error,
		nodeMs: task?.executionTime ?? NaN,
	};
}

module.exports = { nodeTypesWith, runNodeWorkflow };
