import type { ICredentialTestRequest } from 'n8n-workflow';

import { loadPackage, PackageNodeTypes } from '../harness/engine';
import { resolveForNode } from '../harness/expression';

/** The credential's test request (its headers on the wire are test/engine/send.test.ts's). */
describe('Tenant API credential', () => {
	describe('test request', () => {
		const resolveTestBaseUrl = async (credentialBaseUrl: string) => {
			const loader = await loadPackage();
			const type = loader.getCredential('tenantApi').type;
			const request = (type.test as ICredentialTestRequest).request;
			const value = resolveForNode(
				request.baseURL as string,
				{ type: 'harness.items', parameters: {} },
				new PackageNodeTypes(loader),
				{ $credentials: { baseUrl: credentialBaseUrl } },
			);
			return { value, url: request.url, method: request.method };
		};

		it.each([
			['https://api.example.com/v1/', 'https://api.example.com/v1'],
			['http://localhost:4010/v1', 'http://localhost:4010/v1'],
			['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
			['http://[::1]:4010/v1', 'http://[::1]:4010/v1'],
		])('lists accounts at %s', async (input, expected) => {
			expect(await resolveTestBaseUrl(input)).toEqual({
				value: expected,
				url: '/accounts',
				method: 'GET',
			});
		});

		it.each(['http://api.example.com/v1', 'http://localhost.evil.com/v1', 'ftp://x/v1'])(
			'never sends the key over plain HTTP to a remote host (%s)',
			async (input) => {
				expect((await resolveTestBaseUrl(input)).value).toBe(
					'https://base-url-must-use-https.invalid',
				);
			},
		);
	});
});
