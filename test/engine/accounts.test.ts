/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node next to n8n, not in n8n Cloud */
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { createHarness, runActionWorkflow, sandboxCredential } from '../harness/engine';
import type { Harness } from '../harness/engine';

describe('Tenant API node: Account → Get Many, inside WorkflowExecute', () => {
	let sandbox: Sandbox;
	let harness: Harness;

	beforeAll(async () => {
		sandbox = await startSandbox({ accounts: 120 });
		harness = await createHarness(sandboxCredential(sandbox.baseUrl));
	});
	afterAll(async () => sandbox.close());
	beforeEach(() => {
		sandbox.reset();
		sandbox.setPagination('cursor');
	});

	const list = (parameters: Record<string, unknown>) =>
		runActionWorkflow(harness, { parameters: { resource: 'account', operation: 'getAll', ...parameters } });

	it('stops a looping cursor with a clear error instead of hanging', async () => {
		sandbox.setPagination('loop');
		const { error, items } = await list({ returnAll: true });
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/Pagination loops/);
	});

	it('stops an endless listing at Max Pages with a clear error', async () => {
		sandbox.setPagination('endless');
		const { error } = await list({ returnAll: true, options: { maxPages: 5, pageSize: 10 } });
		expect(error?.message).toMatch(/Stopped after 5 pages/);
		expect(sandbox.stats().byRoute['GET /v1/accounts']).toBe(5);
	});

	it('explains a 401 with the environment and base URL, without the key', async () => {
		const wrong = await createHarness(sandboxCredential(sandbox.baseUrl, { secretKey: 'sk_live_wrong_key_123' }));
		const { error } = await runActionWorkflow(wrong, {
			parameters: { resource: 'account', operation: 'getAll', returnAll: false, limit: 5 },
		});
		expect(error?.message).toMatch(/Authorization failed \(401\)/);
		expect(error?.description).toContain('Sandbox');
		expect(error?.description).toContain(sandbox.baseUrl);
		expect(JSON.stringify(error)).not.toContain('sk_live_wrong_key_123');
	});
});
