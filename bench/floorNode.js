'use strict';
/**
 * n8n's own floor for one POST (docs/benchmarks.md, "CPU per request"): the least a node can do to send
 * the Tenant API node's request inside the engine. It reads the same body expression per item, sends
 * POST <url> with the same headers and bytes through `httpRequestWithAuthentication`, with a credential
 * whose `authenticate` is a function (no expression to evaluate), read once per run, and parses the JSON
 * answer. No URL checks, retries, time limits, size limits, rate limit or error reporting: everything
 * the Tenant API node costs above this is its own.
 */
const { randomUUID } = require('node:crypto');
const { describeNode } = require('../test/harness/engine.ts');
const { BODY_EXPRESSION, pool } = require('./workflow');

const FLOOR_TYPE = 'bench.floor';
const FLOOR_CREDENTIAL = 'benchFloorApi';

/** The credential: Api-Key and x-tenant-id straight from its fields. */
const floorCredentialType = {
	name: FLOOR_CREDENTIAL,
	displayName: 'Bench Floor API',
	properties: [
		{ displayName: 'Secret Key', name: 'secretKey', type: 'string', default: '' },
		{ displayName: 'Tenant ID', name: 'tenantId', type: 'string', default: '' },
	],
	async authenticate(credentials, requestOptions) {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				'Api-Key': credentials.secretKey,
				'x-tenant-id': credentials.tenantId,
			},
		};
	},
};

class FloorNode {
	constructor() {
		this.description = describeNode(
			'Floor',
			'One POST per item through httpRequestWithAuthentication',
			{
				credentials: [{ name: FLOOR_CREDENTIAL, required: true }],
				properties: [
					{ displayName: 'URL', name: 'url', type: 'string', default: '' },
					{ displayName: 'Body', name: 'body', type: 'json', default: '{}' },
					{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
				],
			},
		);
	}

	async execute() {
		const count = this.getInputData().length;
		const url = this.getNodeParameter('url', 0);
		const concurrency = this.getNodeParameter('concurrency', 0);
		const reference = this.getNode().credentials[FLOOR_CREDENTIAL];
		const credentialsDecrypted = {
			id: reference.id,
			name: reference.name,
			type: FLOOR_CREDENTIAL,
			data: await this.getCredentials(FLOOR_CREDENTIAL),
		};
		const output = new Array(count);
		await pool(count, concurrency, async (itemIndex) => {
			const body = this.getNodeParameter('body', itemIndex);
			const answer = await this.helpers.httpRequestWithAuthentication.call(
				this,
				FLOOR_CREDENTIAL,
				{
					method: 'POST',
					url,
					body,
					headers: {
						Accept: 'application/json',
						'Content-Type': 'application/json',
						'Idempotency-Key': randomUUID(),
					},
					json: false,
				},
				{
					credentialsDecrypted: { ...credentialsDecrypted, data: { ...credentialsDecrypted.data } },
				},
			);
			output[itemIndex] = {
				json: typeof answer === 'string' ? JSON.parse(answer) : answer,
				pairedItem: { item: itemIndex },
			};
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
function floorNodeDefinition(baseUrl, concurrency, body = BODY_EXPRESSION) {
	return {
		name: 'Floor',
		type: FLOOR_TYPE,
		typeVersion: 1,
		parameters: { url: `${baseUrl}/transfers`, body, concurrency },
		credentials: { [FLOOR_CREDENTIAL]: { id: 'cred-floor', name: 'Floor' } },
	};
}

module.exports = { FLOOR_TYPE, setUpFloor, floorNodeDefinition };
