/**
 * The Tenant Webhook API credential as n8n loads it (PackageDirectoryLoader over dist/), and the trigger's credential
 * test method. The API credential no longer carries webhook fields. Needs `npm run build` first.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
	INodeTypeDescription,
} from 'n8n-workflow';

import { loadPackage } from '../harness/engine';

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
