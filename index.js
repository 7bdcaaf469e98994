'use strict';
/**
 * The package's `main`. n8n itself does not use it: n8n loads the nodes and the credential listed in the
 * `n8n` block of package.json. This file is for code that requires the package:
 *
 *   const { authenticate, receiveDelivery, settingsFromParameters, VERIFICATIONS } = require('n8n-nodes-tenant-api');   // no n8n needed
 *   const { TenantApi, TenantApiTrigger, TenantApiCredentials, TenantWebhookApiCredentials } = require('n8n-nodes-tenant-api');
 *
 * The node classes need n8n-workflow (the peer dependency n8n provides), so they load on first access:
 * the webhook check works on its own.
 */
const { authenticate } = require('./dist/nodes/TenantApiTrigger/authenticate');
const { receiveDelivery } = require('./dist/nodes/TenantApiTrigger/receive');
const { refusalAnswer } = require('./dist/nodes/TenantApiTrigger/refusals');
const {
	VERIFICATIONS,
	VERIFICATION_NAMES,
} = require('./dist/nodes/TenantApiTrigger/verifications');
const { settingsFromParameters } = require('./dist/nodes/TenantApiTrigger/settings');

const lazy = {
	TenantApi: () => require('./dist/nodes/TenantApi/TenantApi.node').TenantApi,
	TenantApiTrigger: () =>
		require('./dist/nodes/TenantApiTrigger/TenantApiTrigger.node').TenantApiTrigger,
	TenantApiCredentials: () => require('./dist/credentials/TenantApi.credentials').TenantApi,
	TenantWebhookApiCredentials: () =>
		require('./dist/credentials/TenantWebhookApi.credentials').TenantWebhookApi,
};

for (const [name, load] of Object.entries(lazy)) {
	Object.defineProperty(exports, name, { enumerable: true, get: load });
}
Object.assign(exports, {
	authenticate,
	receiveDelivery,
	refusalAnswer,
	settingsFromParameters,
	VERIFICATIONS,
	VERIFICATION_NAMES,
});
