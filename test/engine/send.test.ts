/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
import { createServer } from 'http';
import type { IncomingHttpHeaders } from 'http';
import type { AddressInfo, Server } from 'net';

import type { IDataObject } from 'n8n-workflow';

import {
	TEST_CREDENTIAL_ID,
	postTransfer,
	runActionWorkflow,
	sandboxCredential,
} from '../harness/engine';
import { useSandbox } from './useSandbox';

const send = (method: string, endpoint: string, extra: Record<string, unknown> = {}) => ({
	resource: 'request',
	operation: 'send',
	method,
	endpoint,
	...extra,
	options: { includeMetadata: true, retryBaseDelay: 10, ...(extra.options as object) },
});

/*
 * Request → Send Request (GET, PUT, PATCH, DELETE) and POST inside WorkflowExecute: what each method sends, what the
 * credential sends, and no redirect followed. A plain POST run's records, keys and output order are proven by
 * soak.test.ts (one record per item, keyed by the key its output item reports, paired with its input), the keys'
 * UUID shape by exactlyOnce.test.ts; retries in soak.test.ts, 429s in rateLimit.test.ts, error answers, refused
 * Endpoints and Base URLs and secrets echoed back in badInput.test.ts.
 */
describe('Tenant API node: Request → Send Request (GET, PUT, PATCH, DELETE), and its credential', () => {
	const suite = useSandbox();
	const run = (parameters: IDataObject) => runActionWorkflow(suite.harness, { parameters });

	it('reads, patches, replaces and deletes a record created by POST', async () => {
		const created = await postTransfer(suite.harness, { body: '{"amount":5,"note":"a"}' });
		// POST outputs the response body alone by default (no Include Metadata).
		expect(created.items[0].json).toMatchObject({ object: 'transfers', amount: 5, note: 'a' });
		expect(created.items[0].json.idempotencyKey).toBeUndefined();
		const id = created.items[0].json.id as string;

		const read = await run(send('GET', `/transfers/${id}`));
		expect(read.items[0].json).toMatchObject({ statusCode: 200, body: { id, amount: 5 } });
		expect(read.items[0].json.idempotencyKey).toBeUndefined();

		const patched = await run(send('PATCH', `/transfers/${id}`, { body: '{"note":"b"}' }));
		expect(patched.items[0].json).toMatchObject({
			statusCode: 200,
			body: { id, amount: 5, note: 'b' },
		});
		expect(patched.items[0].json.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

		const replaced = await run(send('PUT', `/transfers/${id}`, { body: '{"amount":7}' }));
		expect(replaced.items[0].json.body).toMatchObject({ id, amount: 7 });
		expect(replaced.items[0].json.body).not.toHaveProperty('note');

		const deleted = await run(send('DELETE', `/transfers/${id}`));
		expect(deleted.items[0].json.body).toEqual({ id, object: 'transfers', deleted: true });

		const missing = await run(send('GET', `/transfers/${id}`));
		expect(missing.error?.message).toMatch(/Not found \(404\)/);
	});

	it('refuses a redirect instead of following it: the Api-Key never leaves the Base URL', async () => {
		let decoyHits = 0;
		const decoy = createServer((_req, res) => {
			decoyHits++;
			res.end('{}');
		});
		await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
		try {
			const location = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}/steal`;
			suite.sandbox.setFaults([{ method: 'POST', action: { status: 307, headers: { location } } }]);
			const { error } = await postTransfer(suite.harness, {});
			expect(error?.message).toMatch(/redirect/);
			expect(decoyHits).toBe(0);
		} finally {
			await new Promise<void>((resolve) => decoy.close(() => resolve()));
		}
	});

	describe('what goes over the wire', () => {
		let server: Server;
		let seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }> =
			[];
		let baseUrl = '';

		beforeAll(async () => {
			server = createServer((req, res) => {
				let body = '';
				req.on('data', (chunk) => (body += chunk));
				req.on('end', () => {
					seen.push({ method: req.method, url: req.url, headers: req.headers, body });
					res.setHeader('content-type', 'application/json');
					res.end('{"ok":true}');
				});
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
		});
		afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
		beforeEach(() => {
			seen = [];
		});

		it.each([
			['GET', false, false],
			['DELETE', true, false],
			['PATCH', true, true],
			['PUT', true, true],
		])('%s: Idempotency-Key %p, body %p', async (method, withKey, withBody) => {
			suite.harness.credentials[TEST_CREDENTIAL_ID] = sandboxCredential(baseUrl);
			const { items } = await run(send(method, '/things/t_1?expand=x', { body: '{"a":1}' }));
			expect(items[0].json.body).toEqual({ ok: true });
			expect(seen).toHaveLength(1);
			expect(seen[0]).toMatchObject({ method, url: '/v1/things/t_1?expand=x' });
			expect(seen[0].headers['api-key']).toBe('sk_test_sandbox');
			expect('idempotency-key' in seen[0].headers).toBe(withKey);
			expect(seen[0].body).toBe(withBody ? '{"a":1}' : '');
		});

		// The credential's authenticate function; an empty Tenant ID sends no x-tenant-id.
		it.each([
			[{ secretKey: 'sk_header_check', tenantId: 'tenant_42' }, 'sk_header_check', 'tenant_42'],
			[{ tenantId: '' }, 'sk_test_sandbox', undefined],
		])('the credential %j sends Api-Key %s and x-tenant-id %s', async (overrides, key, tenant) => {
			suite.harness.credentials[TEST_CREDENTIAL_ID] = sandboxCredential(baseUrl, overrides);
			const { error } = await run(send('GET', '/accounts'));
			expect(error).toBeUndefined();
			expect(seen[0].headers['api-key']).toBe(key);
			expect(seen[0].headers['x-tenant-id']).toBe(tenant);
		});
	});
});
