import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { TENANT_API_CREDENTIAL } from './credentialTypes';

// The credential test must never send the key over plain HTTP to a remote host: an unsafe base URL
// is swapped for an unresolvable `.invalid` host (RFC 2606), so the test fails without leaving the
// machine.
const SAFE_TEST_BASE_URL =
	'={{ /^(https:\\/\\/|http:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(\\/|$))/i.test($credentials.baseUrl) ? $credentials.baseUrl.replace(/\\/+$/, "") : "https://base-url-must-use-https.invalid" }}';

export class TenantApi implements ICredentialType {
	name = TENANT_API_CREDENTIAL;

	displayName = 'Tenant API';

	icon: Icon = {
		light: 'file:../nodes/TenantApi/tenantApi.svg',
		dark: 'file:../nodes/TenantApi/tenantApi.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-tenant-api/n8n-nodes-tenant-api#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'Keys come from the service dashboard: choose Sandbox or Production mode, open Manage → Configure → API keys and copy the Secret Key. Sandbox and Live have different keys. "Rotate API Key" in the dashboard issues new ones; update this credential after a rotation.',
			name: 'keysNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Sandbox', value: 'sandbox' },
				{ name: 'Live', value: 'live' },
			],
			default: 'sandbox',
			description:
				'Which key pair this credential holds. Shown in error messages so a Sandbox key sent to Live is easy to spot.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://sandbox.api.example.com/v1',
			description:
				'The API base address of this environment, including the version segment (e.g. /v1). HTTPS only; plain http:// is accepted for localhost, 127.x.x.x and [::1] (local sandbox).',
		},
		{
			displayName: 'Secret Key',
			name: 'secretKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The Secret Key (not the Public Key), sent as the Api-Key header',
		},
		{
			displayName: 'Tenant ID',
			name: 'tenantId',
			type: 'string',
			default: '',
			description: 'Your business identifier, sent as the x-tenant-id header when set',
		},
	];

	/**
	 * A function rather than a generic block: n8n calls it as it is, where the block's two header
	 * values would be expressions evaluated for every request. The credential test (`test` below)
	 * goes through it too.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers: IDataObject = { ...requestOptions.headers, 'Api-Key': credentials.secretKey };
		if (typeof credentials.tenantId === 'string' && credentials.tenantId !== '')
			headers['x-tenant-id'] = credentials.tenantId;
		return { ...requestOptions, headers };
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: SAFE_TEST_BASE_URL,
			url: '/accounts',
			method: 'GET',
		},
	};
}
