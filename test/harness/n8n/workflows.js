'use strict';
/*
 * Workflows in n8n's export format, as its public API and `n8n import:workflow` take them: the suites' and the
 * benchmarks' own, built from a list of nodes.
 */
const crypto = require('node:crypto');

/**
 * @typedef {{ id: string, name: string, type: string, typeVersion: number, position: [number, number],
 *   parameters: Record<string, unknown> } & Record<string, unknown>} WorkflowNode
 * @typedef {{ name: string, type: string, id?: string } & Record<string, unknown>} NodeSpec a node; chain() lays it out
 * @typedef {Record<string, Record<string, Array<Array<{ node: string, type: string, index: number }>>>>} Connections
 * @typedef {{ name: string, nodes: NodeSpec[], connections: Connections, settings: { executionOrder: 'v1' } }
 *   & Record<string, unknown>} Workflow
 */

/**
 * A node: `extra` sets anything else (typeVersion, credentials, webhookId, retryOnFail…).
 * @param {string} name
 * @param {string} type
 * @param {Record<string, unknown>} [parameters]
 * @param {Record<string, unknown>} [extra]
 * @returns {WorkflowNode}
 */
function node(name, type, parameters = {}, extra = {}) {
	return {
		id: crypto.randomUUID(),
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		...extra,
	};
}

/**
 * A workflow whose nodes run one after the other (main output 0 to the next node), laid out left to right;
 * `extra` adds to it (an `id` for `n8n import:workflow`, more connections…).
 * @param {string} name
 * @param {NodeSpec[]} nodes
 * @param {Record<string, unknown> & { connections?: Connections }} [extra]
 * @returns {Workflow}
 */
function chain(name, nodes, { connections = {}, ...extra } = {}) {
	/** @type {Connections} */
	const main = {};
	for (let i = 0; i + 1 < nodes.length; i++)
		main[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return {
		name,
		nodes: nodes.map((n, i) => ({ id: crypto.randomUUID(), ...n, position: [i * 220, 0] })),
		connections: { ...main, ...connections },
		settings: { executionOrder: 'v1' },
		...extra,
	};
}

/** For `n8n import:workflow`: the id `n8n execute --id` runs, inactive, no pinned data. @param {string} id */
const imported = (id) => ({ id, active: false, pinData: {} });

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';

module.exports = { MANUAL_TRIGGER, chain, imported, node };
