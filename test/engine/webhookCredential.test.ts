/**
 * The Tenant Webhook API credential as n8n loads it (PackageDirectoryLoader over dist/), and the trigger's credential
 * test method. The API credential no longer carries webhook fields. Needs `npm run build` first.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { TRIGGER_TYPE, loadPackage } from '../harness/engine';

const propertyNames = async (type: string) =>
	(await loadPackage()).getCredential(type).type.properties.map((p) => p.name);

async function runCredentialTest(data: Record<string, string>): Promise<INodeCredentialTestResult> {
	const loader = await loadPackage();
	const trigger = loader.getNode(TRIGGER_TYPE.split('.')[1]).type as {
		methods?: {
			credentialTest?: Record<
				string,
				(
					this: ICredentialTestFunctions,
					credential: ICredentialsDecrypted,
				) => Promise<INodeCredentialTestResult>
			>;
		};
	};
	const credential: ICredentialsDecrypted = {
		id: 'c',
		name: 'Tenant Webhook',
		type: 'tenantWebhookApi',
		data,
	};
	return await trigger.methods!.credentialTest!.tenantWebhookApiTest.call(
		{} as ICredentialTestFunctions,
		credential,
	);
}

describe('Tenant Webhook API credential', () => {
	it('holds only what verification needs: three password fields, no API key, no Base URL', async () => {
		const type = (await loadPackage()).getCredential('tenantWebhookApi').type;
		expect(type.displayName).toBe('Tenant Webhook API');
		expect(type.authenticate).toBeUndefined();
		const fields = type.properties.filter((p) => p.type !== 'notice');
		expect(fields.map((p) => [p.name, p.typeOptions?.password])).toEqual([
			['signingSecret', true],
			['previousSigningSecret', true],
			['testSigningSecret', true],
		]);
	});

	it('the API credential has no webhook fields any more', async () => {
		expect(await propertyNames('tenantApi')).toEqual([
			'keysNotice',
			'environment',
			'baseUrl',
			'secretKey',
			'tenantId',
		]);
	});

	it('the trigger uses it, and tests it locally', async () => {
		const trigger = (await loadPackage()).getNode('tenantApiTrigger').type.description as {
			credentials?: unknown;
		};
		expect(trigger.credentials).toEqual([
			expect.objectContaining({
				name: 'tenantWebhookApi',
				required: true,
				testedBy: 'tenantWebhookApiTest',
			}),
		]);
		expect(
			await runCredentialTest({ signingSecret: 'whsec_x', previousSigningSecret: '' }),
		).toEqual({ status: 'OK', message: expect.stringMatching(/^The Signing Secret is set/) });
		expect(
			await runCredentialTest({ signingSecret: 'whsec_x', previousSigningSecret: 'whsec_y' }),
		).toEqual({
			status: 'OK',
			message: expect.stringMatching(/^The Signing Secret and the previous secret are set/),
		});
		expect(
			await runCredentialTest({
				signingSecret: 'whsec_x',
				previousSigningSecret: '',
				testSigningSecret: 'whsec_t',
			}),
		).toEqual({
			status: 'OK',
			message: expect.stringMatching(
				/^The Signing Secret and the test secret \(Test URL only\) are set/,
			),
		});
		const empty = await runCredentialTest({
			signingSecret: '  ',
			previousSigningSecret: 'whsec_y',
		});
		expect(empty).toEqual({ status: 'Error', message: 'The Signing Secret is empty' });
		expect(JSON.stringify(empty)).not.toContain('whsec_y');
	});
});
