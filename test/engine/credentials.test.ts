/**
 * The two credentials as n8n loads them (PackageDirectoryLoader over dist/): the Tenant API credential's test
 * request (its headers on the wire are send.test.ts's), and the Tenant Webhook API credential with the trigger's
 * local test of it. Needs `npm run build` first.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	ICredentialTestRequest,
	INodeCredentialTestResult,
	INodeTypeDescription,
} from 'n8n-workflow';

import { loadPackage, PackageNodeTypes } from '../harness/engine';
import { resolveForNode } from '../harness/expression';

describe('Tenant API credential', () => {
	const UNSAFE = 'https://base-url-must-use-https.invalid';
	it.each([
		['https://api.example.com/v1/', 'https://api.example.com/v1'],
		['http://localhost:4010/v1', 'http://localhost:4010/v1'],
		['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
		['http://[::1]:4010/v1', 'http://[::1]:4010/v1'],
		// Never the key over plain HTTP to a remote host.
		['http://api.example.com/v1', UNSAFE],
		['http://localhost.evil.com/v1', UNSAFE],
		['ftp://x/v1', UNSAFE],
	])('Base URL %s: the test request lists accounts at %s', async (baseUrl, expected) => {
		const loader = await loadPackage();
		const { request } = loader.getCredential('tenantApi').type.test as ICredentialTestRequest;
		const value = resolveForNode(
			request.baseURL as string,
			{ type: 'harness.items', parameters: {} },
			new PackageNodeTypes(loader),
			{ $credentials: { baseUrl } },
		);
		expect({ value, url: request.url, method: request.method }).toEqual({
			value: expected,
			url: '/accounts',
			method: 'GET',
		});
	});
});

describe('Tenant Webhook API credential', () => {
	type CredentialTest = (
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	) => Promise<INodeCredentialTestResult>;

	it('holds only what verification needs: three password fields, no API key, no Base URL; the API credential no webhook field', async () => {
		const loader = await loadPackage();
		const type = loader.getCredential('tenantWebhookApi').type;
		expect([type.displayName, type.authenticate]).toEqual(['Tenant Webhook API', undefined]);
		expect(
			type.properties
				.filter((p) => p.type !== 'notice')
				.map((p) => [p.name, p.typeOptions?.password]),
		).toEqual([
			['signingSecret', true],
			['previousSigningSecret', true],
			['testSigningSecret', true],
		]);
		expect(loader.getCredential('tenantApi').type.properties.map((p) => p.name)).toEqual([
			'keysNotice',
			'environment',
			'baseUrl',
			'secretKey',
			'tenantId',
		]);
	});

	it.each([
		[{ signingSecret: 'whsec_x' }, 'OK', /^The Signing Secret is set/],
		[
			{ signingSecret: 'whsec_x', previousSigningSecret: 'whsec_y' },
			'OK',
			/^The Signing Secret and the previous secret are set/,
		],
		[
			{ signingSecret: 'whsec_x', testSigningSecret: 'whsec_t' },
			'OK',
			/^The Signing Secret and the test secret \(Test URL only\) are set/,
		],
		[
			{ signingSecret: '  ', previousSigningSecret: 'whsec_y' },
			'Error',
			/^The Signing Secret is empty$/,
		],
	])('the trigger uses it and tests it locally: %j is %s', async (data, status, message) => {
		const trigger = (await loadPackage()).getNode('tenantApiTrigger').type as {
			description: INodeTypeDescription;
			methods?: { credentialTest?: Record<string, CredentialTest> };
		};
		expect(trigger.description.credentials).toEqual([
			expect.objectContaining({
				name: 'tenantWebhookApi',
				required: true,
				testedBy: 'tenantWebhookApiTest',
			}),
		]);
		const result = await trigger.methods!.credentialTest!.tenantWebhookApiTest.call(
			{} as ICredentialTestFunctions,
			{
				id: 'c',
				name: 'Tenant Webhook',
				type: 'tenantWebhookApi',
				data: { previousSigningSecret: '', ...data },
			},
		);
		expect(result).toEqual({ status, message: expect.stringMatching(message) });
		expect(JSON.stringify(result)).not.toMatch(/whsec_[yt]/);
	});
});
