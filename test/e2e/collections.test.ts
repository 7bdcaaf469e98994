/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Request → Get Many in a real n8n (N8N_E2E_VERSION) with the packed package, against the sandbox's seeded
 * collections: /v1/transfers in cursor pages, /v1/payouts in next links, and an Endpoint outside the Base URL.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IWorkflowBase } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/server';
import type { N8nInstance } from '../../scripts/n8n/instance';
import { type SuiteSetUp, VERSION, WEBHOOK_SECRET, nodeOutput, setUpSuite, startLib } from './helpers';

const TRANSFERS = 130;
const PAYOUTS = 95;
const WORKFLOW_ID = 'listCollections';

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}_${String(i + 1).padStart(4, '0')}`);

/** Manual Trigger → three Tenant API nodes (Request → Get Many), one per branch. */
function listingWorkflow(credential: { id: string; name: string }): Pick<IWorkflowBase, 'id' | 'name' | 'active' | 'nodes' | 'connections' | 'settings'> {
	const getMany = (name: string, index: number, parameters: Record<string, unknown>, settings: Record<string, unknown> = {}) => ({
		id: `${WORKFLOW_ID}-${index}`,
		name,
		type: 'n8n-nodes-tenant-api.tenantApi',
		typeVersion: 1,
		position: [240, index * 160] as [number, number],
		parameters: { resource: 'request', operation: 'getAll', ...parameters },
		credentials: { tenantApi: credential },
		...settings,
	});
	const branches = ['List transfers', 'List payouts', 'List elsewhere'];
	return {
		id: WORKFLOW_ID,
		name: 'Tenant API: list collections',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: `${WORKFLOW_ID}-0`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			getMany('List transfers', 1, { endpoint: '/transfers', returnAll: true, options: { pageSize: 25 } }),
			getMany('List payouts', 2, { endpoint: 'payouts?currency=EUR', returnAll: true, options: { pageSize: 10, paginationStyle: 'nextUrl' } }),
			getMany('List elsewhere', 3, { endpoint: 'https://elsewhere.example/v1/transfers', returnAll: true }, { onError: 'continueRegularOutput' }),
		],
		connections: { Start: { main: [branches.map((node) => ({ node, type: 'main', index: 0 }))] } },
	};
}

describe(`n8n ${VERSION}: Request → Get Many lists any collection`, () => {
	let suite: SuiteSetUp | undefined;
	let sandbox: Sandbox;
	let n8n: N8nInstance;

	beforeAll(async () => {
		suite = await setUpSuite({ name: 'collections', sandbox: { transfers: TRANSFERS, payouts: PAYOUTS } });
		({ sandbox, n8n } = suite);
		const credentials: Array<{ id: string; name: string; type: string }> = startLib.credentialsFor(sandbox, WEBHOOK_SECRET);
		const { id, name } = credentials.find((credential) => credential.type === 'tenantApi')!;
		const imports = path.join(n8n.userFolder, 'import');
		fs.mkdirSync(imports, { recursive: true });
		fs.writeFileSync(path.join(imports, 'credentials.json'), JSON.stringify(credentials));
		fs.writeFileSync(path.join(imports, 'workflow.json'), JSON.stringify(listingWorkflow({ id, name })));
		await n8n.cli(['import:credentials', `--input=${path.join(imports, 'credentials.json')}`]);
		await n8n.cli(['import:workflow', `--input=${path.join(imports, 'workflow.json')}`]);
	});

	afterAll(() => suite?.tearDown());

	test('n8n execute: one item per record of each collection, in order, every page followed; an Endpoint elsewhere sends nothing', async () => {
		sandbox.reset();
		const { code, data } = await n8n.execute(WORKFLOW_ID);
		expect(code).toBe(0);
		expect(data.data.resultData.error).toBeUndefined();

		const transfers = nodeOutput(data, 'List transfers');
		expect(transfers.map((record) => record.id)).toEqual(ids('tr', TRANSFERS));
		expect(transfers[0]).toEqual(expect.objectContaining({ object: 'transfers', amount: expect.any(Number) }));

		// Every third payout is in EUR: the Endpoint's own query string stays on every next link.
		const payouts = nodeOutput(data, 'List payouts');
		expect(payouts.map((record) => record.id)).toEqual(ids('po', PAYOUTS).filter((_, i) => (i + 1) % 3 === 0));

		const refused = nodeOutput(data, 'List elsewhere');
		expect(refused).toHaveLength(1);
		expect(String(refused[0].error)).toMatch(/^The endpoint must be a path relative to the Base URL \(e\.g\. \/transfers\), not a URL/);

		const byRoute = sandbox.stats().byRoute;
		// 130 transfers in pages of 25: 6 pages; 31 EUR payouts in pages of 10: 4 pages; nothing else.
		expect(byRoute).toEqual({ 'GET /v1/transfers': 6, 'GET /v1/payouts': 4 });
	});
});
