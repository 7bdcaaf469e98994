/**
 * Request → Get Many and Account → Get Many inside WorkflowExecute, against the sandbox's collections:
 * /v1/transfers in cursor pages ({data, has_more, next_cursor}), /v1/payouts in next links ({results, next}),
 * and /v1/accounts in the sandbox's page-numbered shapes; each pagination style auto-detected and forced; pages
 * capped by the server below Page Size; an Endpoint refused for one item. Where the records sit in a page, a listing that loops or never ends and a next
 * link outside the Base URL are read by the pagination and URL rules alone (test/unit/pagination.test.ts, apiUrl.test.ts); that
 * such a link is never requested is badInputAnswers.test.ts's.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PaginationMode } from '../../sandbox/server';
import { postTransfer, runActionWorkflow } from '../harness/engine';
import type { ActionWorkflowOptions } from '../harness/engine';
import { useSandbox } from './useSandbox';

const TRANSFERS = 130;
const PAYOUTS = 95;
const ACCOUNTS = 120;

const ids = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => `${prefix}_${String(i + 1).padStart(4, '0')}`);

describe('Tenant API node: Request → Get Many, inside WorkflowExecute', () => {
	// The server caps pages at 50 records, whatever the Page Size asks for.
	const suite = useSandbox({
		accounts: ACCOUNTS,
		transfers: TRANSFERS,
		payouts: PAYOUTS,
		maxPageSize: 50,
	});
	beforeEach(() => suite.sandbox.setPagination('cursor'));

	const list = (parameters: IDataObject, extra: Partial<ActionWorkflowOptions> = {}) =>
		runActionWorkflow(suite.harness, {
			parameters: { resource: 'request', operation: 'getAll', ...parameters },
			...extra,
		});
	const idsOf = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.id);
	const requestsTo = (path: string) => suite.sandbox.stats().byRoute[`GET /v1${path}`] ?? 0;

	// Transfers come in cursor pages, payouts in next links, accounts in the sandbox's page-numbered shapes.
	it.each<[string, PaginationMode, string, number, string[], number]>([
		// 25 a page: 6 pages, the last one says has_more false.
		['/transfers', 'cursor', 'auto', 25, ids('tr', TRANSFERS), 6],
		['/transfers', 'cursor', 'cursor', 25, ids('tr', TRANSFERS), 6],
		['payouts', 'cursor', 'auto', 20, ids('po', PAYOUTS), 5],
		['payouts', 'cursor', 'nextUrl', 20, ids('po', PAYOUTS), 5],
		['/accounts', 'page', 'auto', 25, ids('acc', ACCOUNTS), 5],
		['/accounts', 'page', 'page', 25, ids('acc', ACCOUNTS), 5],
		['/accounts', 'pageNoTotals', 'auto', 25, ids('acc', ACCOUNTS), 6],
		['/accounts', 'array', 'page', 25, ids('acc', ACCOUNTS), 6],
		// Page Size 100 above the server's cap: 50 + 50 + 20, then the empty page (a short page is not the last).
		['/accounts', 'array', 'auto', 100, ids('acc', ACCOUNTS), 4],
		// None: only the first page.
		['/transfers', 'cursor', 'none', 25, ids('tr', 25), 1],
	])(
		'%s (sandbox mode %s, style %s, pages of %i): every record once, in order, one item per record',
		async (endpoint, mode, paginationStyle, pageSize, expected, requests) => {
			suite.sandbox.setPagination(mode);
			const { items, error } = await list({
				endpoint,
				returnAll: true,
				options: { pageSize, paginationStyle },
			});
			expect(error).toBeUndefined();
			expect(idsOf(items)).toEqual(expected);
			expect(items[0].json).toEqual(
				expect.objectContaining({ object: expect.any(String), currency: expect.any(String) }),
			);
			expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
			expect(requestsTo(endpoint.replace(/^\/?/, '/'))).toBe(requests);
		},
	);

	it('stops exactly at the Limit, asking for no more than it needs', async () => {
		const { items, error } = await list({
			endpoint: '/payouts',
			returnAll: false,
			limit: 37,
			options: { pageSize: 10 },
		});
		expect(error).toBeUndefined();
		expect(idsOf(items)).toEqual(ids('po', 37));
		expect(requestsTo('/payouts')).toBe(4);
	});

	it("lists the created records after the seeded ones, and filters with Query Parameters and the Endpoint's own query", async () => {
		const created = await postTransfer(suite.harness, {
			body: '{"amount":1,"currency":"EUR","status":"pending"}',
		});
		expect(created.error).toBeUndefined();
		const { items, error } = await list({
			endpoint: '/transfers?status=pending&limit=3',
			returnAll: true,
			queryParameters: { parameter: [{ name: 'currency', value: 'EUR' }] },
			options: { pageSize: 4 },
		});
		expect(error).toBeUndefined();
		// The Endpoint's limit=3 gives way to Page Size (the node's own parameter), not sent twice.
		expect(
			items.every((item) => item.json.status === 'pending' && item.json.currency === 'EUR'),
		).toBe(true);
		expect(idsOf(items)).toEqual([
			...ids('tr', TRANSFERS).filter((_, i) => (i + 1) % 12 === 0),
			'rec_1',
		]);
		expect(requestsTo('/transfers')).toBe(Math.ceil(items.length / 4));
	});

	it('lists one collection per input item (Endpoint as an expression), each output item paired to its input item', async () => {
		const { items, error } = await list(
			{ endpoint: '={{ $json.collection }}', returnAll: false, limit: 3 },
			{ inputItems: [{ collection: '/payouts' }, { collection: '/transfers' }] },
		);
		expect(error).toBeUndefined();
		expect(idsOf(items)).toEqual([...ids('po', 3), ...ids('tr', 3)]);
		expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
			0, 0, 0, 1, 1, 1,
		]);
	});

	it('with Continue On Fail, an item whose listing fails becomes an error item; the others are listed', async () => {
		const { items, error } = await list(
			{ endpoint: '={{ $json.collection }}', returnAll: false, limit: 2 },
			{
				inputItems: [
					{ collection: '/payouts' },
					{ collection: '/../admin' },
					{ collection: '/transfers' },
				],
				settings: { onError: 'continueRegularOutput' },
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id ?? 'error')).toEqual([
			'po_0001',
			'po_0002',
			'error',
			'tr_0001',
			'tr_0002',
		]);
		expect(items[2].json.error).toMatch(/must stay below the Base URL/);
		expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
			0, 0, 1, 2, 2,
		]);
	});

	it('Account → Get Many lists the same way, from the same code, with its Endpoint fixed to /accounts', async () => {
		const listed = await runActionWorkflow(suite.harness, {
			parameters: {
				resource: 'account',
				operation: 'getAll',
				returnAll: true,
				options: { pageSize: 50 },
			},
		});
		const request = await list({
			endpoint: '/accounts',
			returnAll: true,
			options: { pageSize: 50 },
		});
		expect(idsOf(listed.items)).toEqual(ids('acc', ACCOUNTS));
		expect(request.items.map((item) => item.json)).toEqual(listed.items.map((item) => item.json));
	});
});
