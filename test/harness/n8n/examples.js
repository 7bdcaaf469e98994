'use strict';
/* The example workflows and credentials of examples/ in an n8n (`npm start`, e2e, queue, bench:n8n). */
const fs = require('node:fs');
const path = require('node:path');
const signing = require('../../../sandbox/signing');
const { describeDelivery } = require('../../../sandbox/webhooks');

/**
 * @import { Sandbox } from '../../../sandbox/server'
 * @import { SigningScheme } from '../../../sandbox/signing'
 * @import { N8nInstance } from './instance'
 * @typedef {{ type: string, webhookId?: string, parameters?: Record<string, unknown> }} WorkflowNode
 * @typedef {{ id: string, name: string, nodes: WorkflowNode[] }} Workflow an example workflow (examples/*.json)
 * @typedef {{ id: string, name: string, type: 'tenantApi' | 'tenantWebhookApi', data: Record<string, string> }}
 *   Credential an example credential (examples/credentials.json)
 */

const EXAMPLES = path.join(__dirname, '..', '..', '..', 'examples');
const SIGNING_SCHEME = 'hmac-sha256-hex';

/** @param {string} file */
function readExample(file) {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
}

/** @param {Sandbox} sandbox */
const tenantApiData = (sandbox) => ({
	environment: 'sandbox',
	baseUrl: sandbox.baseUrl,
	secretKey: sandbox.apiKey,
	tenantId: sandbox.tenantId,
});

/**
 * @param {Sandbox} sandbox
 * @param {string} secret
 * @returns {Credential[]}
 */
function credentialsFor(sandbox, secret) {
	/** @type {Credential[]} */
	const credentials = readExample('credentials.json');
	return credentials.map((cred) => {
		if (cred.type === 'tenantApi') return { ...cred, data: tenantApiData(sandbox) };
		return { ...cred, data: { ...cred.data, signingSecret: secret } };
	});
}

/**
 * @param {Workflow} workflow
 * @param {SigningScheme} scheme
 * @returns {Workflow}
 */
function triggerWorkflowFor(workflow, scheme) {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type.endsWith('.tenantApiTrigger')
				? { ...node, parameters: { ...node.parameters, ...signing.triggerParameters(scheme) } }
				: node,
		),
	};
}

/** @param {Sandbox} sandbox */
async function firstDelivery(sandbox) {
	return `first delivery ${describeDelivery(await sandbox.deliver())}`;
}

/**
 * Imports the credentials and every example workflow; publishes the trigger workflow, set to verify `scheme`.
 * @param {N8nInstance} n8n
 * @param {Sandbox} sandbox
 * @param {{ scheme?: SigningScheme, secret?: string }} [options]
 */
async function importExamples(
	n8n,
	sandbox,
	{ scheme = SIGNING_SCHEME, secret = signing.demoSecret(scheme) } = {},
) {
	const tmp = path.join(n8n.userFolder, 'import');
	fs.mkdirSync(tmp, { recursive: true });
	const credFile = path.join(tmp, 'credentials.json');
	fs.writeFileSync(credFile, JSON.stringify(credentialsFor(sandbox, secret), null, 2));
	await n8n.cli(['import:credentials', `--input=${credFile}`]);
	// One CLI run for all workflows (each n8n CLI command boots n8n: seconds apiece).
	const wfDir = path.join(tmp, 'workflows');
	fs.rmSync(wfDir, { recursive: true, force: true });
	fs.mkdirSync(wfDir);
	/** @type {Record<string, Workflow>} */
	const workflows = {};
	for (const file of fs
		.readdirSync(EXAMPLES)
		.filter((f) => f.endsWith('.json') && f !== 'credentials.json')
		.sort()) {
		const name = path.basename(file, '.json');
		workflows[name] =
			name === 'webhook-trigger'
				? triggerWorkflowFor(readExample(file), scheme)
				: readExample(file);
		fs.writeFileSync(path.join(wfDir, file), JSON.stringify(workflows[name], null, 2));
	}
	await n8n.cli(['import:workflow', '--separate', `--input=${wfDir}`]);
	const trigger = workflows['webhook-trigger'];
	await n8n.publish(trigger.id);
	const triggerNode = /** @type {WorkflowNode} */ (
		trigger.nodes.find((n) => n.type.endsWith('.tenantApiTrigger'))
	);
	return { workflows, webhookPath: `/webhook/${triggerNode.webhookId}/webhook`, secret };
}

/**
 * A credential created through n8n's public API; resolves its id and name. n8n 1.x adds "Allowed HTTP Request
 * Domains" to the types that authenticate requests and its public API then wants it: set to the editor's default
 * where the type's schema has it.
 * @param {{ api: import('./session').ApiCall }} n8n an instance or a queue-mode cluster
 * @param {{ name: string, type: string, data: Record<string, unknown> }} credential
 * @returns {Promise<{ id: string, name: string }>}
 */
async function createCredential(n8n, { name, type, data }) {
	/** @type {import('./session').HttpJson<{ properties?: Record<string, unknown> }>} */
	const schema = await n8n.api('GET', `/credentials/schema/${type}`);
	const domains = schema.json?.properties?.allowedHttpRequestDomains
		? { allowedHttpRequestDomains: 'all' }
		: {};
	/** @type {import('./session').HttpJson<{ id: string, name: string }>} */
	const res = await n8n.api('POST', '/credentials', { name, type, data: { ...domains, ...data } });
	if (res.status !== 200 || !res.json)
		throw new Error(`POST /api/v1/credentials (${type}) -> ${res.status}: ${res.text}`);
	return { id: res.json.id, name: res.json.name };
}

/**
 * credentialsFor through the public API, named `<name>: <label>`; by credential type.
 * @param {{ api: import('./session').ApiCall }} n8n
 * @param {Sandbox} sandbox
 * @param {string} secret
 * @param {string} label
 */
async function sandboxCredentials(n8n, sandbox, secret, label) {
	/** @type {Record<Credential['type'], { id: string, name: string }>} */
	const refs = { tenantApi: { id: '', name: '' }, tenantWebhookApi: { id: '', name: '' } };
	for (const { name, type, data } of credentialsFor(sandbox, secret))
		refs[type] = await createCredential(n8n, { name: `${name}: ${label}`, type, data });
	return refs;
}

module.exports = {
	SIGNING_SCHEME,
	createCredential,
	firstDelivery,
	importExamples,
	readExample,
	sandboxCredentials,
	tenantApiData,
};
