'use strict';
/**
 * n8n's own floor for one POST: the least a node can do to send the Tenant API node's request inside the engine, so
 * that all the Tenant API node costs above it is its own (docs/benchmarks.md: "Floor node" and "CPU per request").
 */
const { randomUUID } = require('node:crypto');
const { describeNode } = require('../test/harness/engine.ts');
const { BODY_EXPRESSION, pool } = require('./workflow');

const FLOOR_TYPE = 'bench.floor';
const FLOOR_CREDENTIAL = 'benchFloorApi';

const floorCredentialType = {
	name: FLOOR_CREDENTIAL,
	displayName: 'Bench Floor API',
	properties: ['secretKey', 'tenantId'].map((name) => ({
		displayName: name,
		name,
		type: 'string',
		default: '',
	})),
	async authenticate({ secretKey, tenantId }, requestOptions) {
		const headers = { ...requestOptions.headers, 'Api-Key': secretKey, 'x-tenant-id': tenantId };
		return { ...requestOptions, headers };
	},
};

class FloorNode {
	description = describeNode('Floor', 'One POST per item through httpRequestWithAuthentication', {
		credentials: [{ name: FLOOR_CREDENTIAL, required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '{}' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
		],
	});

	async execute() {
		const count = this.getInputData().length;
		const url = this.getNodeParameter('url', 0);
		const { id, name } = this.getNode().credentials[FLOOR_CREDENTIAL];
		const data = await this.getCredentials(FLOOR_CREDENTIAL);
		const output = new Array(count);
		await pool(count, this.getNodeParameter('concurrency', 0), async (itemIndex) => {
			const answer = await this.helpers.httpRequestWithAuthentication.call(
				this,
				FLOOR_CREDENTIAL,
				{
					method: 'POST',
					url,
					body: this.getNodeParameter('body', itemIndex),
					headers: {
						Accept: 'application/json',
						'Content-Type': 'application/json',
						'Idempotency-Key': randomUUID(),
					},
					json: false,
				},
				{ credentialsDecrypted: { id, name, type: FLOOR_CREDENTIAL, data: { ...data } } },
			);
			const json = typeof answer === 'string' ? JSON.parse(answer) : answer;
			output[itemIndex] = { json, pairedItem: { item: itemIndex } };
		});
		return [output];
	}
}

/** Registers the floor's credential with the harness (id `cred-floor`) and returns the node to add to the node types. */
function setUpFloor(harness, sandbox) {
	harness.credentialsHelper.extraTypes[FLOOR_CREDENTIAL] = floorCredentialType;
	harness.credentials['cred-floor'] = { secretKey: sandbox.apiKey, tenantId: sandbox.tenantId };
	return new FloorNode();
}

/** The floor node in a workflow, sending what the Tenant API node sends. */
const floorNodeDefinition = (baseUrl, concurrency) => ({
	name: 'Floor',
	type: FLOOR_TYPE,
	typeVersion: 1,
	parameters: { url: `${baseUrl}/transfers`, body: BODY_EXPRESSION, concurrency },
	credentials: { [FLOOR_CREDENTIAL]: { id: 'cred-floor', name: 'Floor' } },
});

module.exports = { FLOOR_TYPE, setUpFloor, floorNodeDefinition };
