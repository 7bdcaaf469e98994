/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
import { createServer } from 'http';
import type { IncomingHttpHeaders } from 'http';
import type { AddressInfo, Server } from 'net';

import type { ICredentialTestRequest } from 'n8n-workflow';

import {
	createHarness,
	loadPackage,
	PackageNodeTypes,
	runActionWorkflow,
	sandboxCredential,
} from '../harness/engine';
import { resolveForNode } from '../harness/expression';

describe('Tenant API credential', () => {
	let server: Server;
	let seen: IncomingHttpHeaders[] = [];
	let baseUrl = '';
	let status = 200;

	beforeAll(async () => {
		server = createServer((req, res) => {
			seen.push({ ...req.headers, url: req.url });
			res.statusCode = status;
			res.setHeader('content-type', 'application/json');
			res.end(
				status === 200
					? '[]'
					: '{"error":{"code":"unauthorized","message":"Invalid or missing API key"}}',
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
	});
	afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
	beforeEach(() => {
		seen = [];
		status = 200;
	});

	const listOnce = async (overrides: Record<string, string>) => {
		const harness = await createHarness(sandboxCredential(baseUrl, overrides));
		const { error } = await runActionWorkflow(harness, {
			parameters: { resource: 'account', operation: 'getAll', returnAll: false, limit: 1 },
		});
		expect(error).toBeUndefined();
		return seen[0];
	};

	it('sends Api-Key and x-tenant-id through its authenticate function', async () => {
		const headers = await listOnce({ secretKey: 'sk_header_check', tenantId: 'tenant_42' });
		expect(headers['api-key']).toBe('sk_header_check');
		expect(headers['x-tenant-id']).toBe('tenant_42');
	});

	it('leaves x-tenant-id out when the Tenant ID is empty', async () => {
		const headers = await listOnce({ tenantId: '' });
		expect(headers['api-key']).toBe('sk_test_sandbox');
		expect(headers).not.toHaveProperty('x-tenant-id');
	});

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
