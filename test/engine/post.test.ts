/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
import { createServer } from 'http';
import type { AddressInfo, Server } from 'net';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { createHarness, postTransfer, runActionWorkflow, sandboxCredential } from '../harness/engine';
import type { ActionWorkflowOptions, Harness } from '../harness/engine';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Tenant API node: Request → POST, inside WorkflowExecute', () => {
	let sandbox: Sandbox;
	let harness: Harness;

	beforeAll(async () => {
		sandbox = await startSandbox();
		harness = await createHarness(sandboxCredential(sandbox.baseUrl));
	});
	afterAll(async () => sandbox.close());
	beforeEach(() => sandbox.reset());

	const post = (parameters: IDataObject, extra: Partial<ActionWorkflowOptions> = {}) =>
		postTransfer(
			harness,
			{ ...parameters, options: { retryBaseDelay: 10, includeMetadata: true, ...(parameters.options as IDataObject) } },
			{ inputItems: [{ amount: 1 }, { amount: 2 }, { amount: 3 }], ...extra },
		);

	it('creates one record per item with a derived UUID-shaped key, in input order', async () => {
		const { items, error } = await post({});
		expect(error).toBeUndefined();
		expect(items.map((item) => (item.json.body as { amount: number }).amount)).toEqual([1, 2, 3]);
		expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		const keys = items.map((item) => item.json.idempotencyKey as string);
		keys.forEach((key) => expect(key).toMatch(UUID));
		expect(new Set(keys).size).toBe(3);
		expect(sandbox.records().map((record) => record.idempotency_key).sort()).toEqual([...keys].sort());
		expect(items.every((item) => item.json.error === undefined)).toBe(true);
	});

	it('derives the same keys for the same execution and different keys for another execution', async () => {
		const first = await post({}, { executionId: 'exec-1' });
		const again = await post({}, { executionId: 'exec-1' });
		const other = await post({}, { executionId: 'exec-2' });
		const keysOf = (run: typeof first) => run.items.map((item) => item.json.idempotencyKey);
		expect(keysOf(again)).toEqual(keysOf(first));
		expect(again.items.every((item) => item.json.replayed === true)).toBe(true);
		expect(keysOf(other).some((key) => keysOf(first).includes(key))).toBe(false);
		expect(sandbox.stats().records).toBe(6);
	});

	it('uses the Idempotency Key option per item', async () => {
		const { items } = await post({ options: { idempotencyKey: '={{ "order-" + $json.amount }}' } });
		expect(items.map((item) => item.json.idempotencyKey)).toEqual(['order-1', 'order-2', 'order-3']);
		await post({ options: { idempotencyKey: '={{ "order-" + $json.amount }}' } }, { executionId: 'another' });
		expect(sandbox.stats().records).toBe(3);
	});

	it('outputs the response body alone by default', async () => {
		const { items } = await post({ options: { includeMetadata: false } });
		expect(items[0].json).toMatchObject({ object: 'transfers', amount: 1, endpoint: '/transfers' });
		expect(items[0].json.idempotencyKey).toBeUndefined();
	});

	it('Retry On Fail after a connection dropped post-commit leaves exactly one record per item', async () => {
		sandbox.setFaults([{ method: 'POST', path: '/v1/transfers', times: 1, action: { dropAfterCommit: true } }]);
		const { items, error } = await post(
			{ options: { maxAttempts: 1, concurrency: 1 } },
			{ settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 } },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(sandbox.stats().records).toBe(3);
		// The node sends one attempt per execute() call, so a replay can only come from the engine's second try.
		expect(items.map((item) => [item.json.attempts, item.json.replayed])).toEqual([
			[1, true],
			[1, false],
			[1, false],
		]);
		expect(sandbox.stats().byRoute['POST /v1/transfers']).toBe(4);
	});

	it('retries inside the node after a dropped connection with the same key', async () => {
		sandbox.setFaults([{ method: 'POST', firstAttemptPerKey: true, action: { dropAfterCommit: true } }]);
		const { items } = await post({});
		expect(items.every((item) => item.json.attempts === 2 && item.json.replayed === true)).toBe(true);
		expect(sandbox.stats().records).toBe(3);
	});

	it('waits for Retry-After on 429, then succeeds', async () => {
		sandbox.setFaults([{ method: 'POST', times: 1, action: { status: 429, headers: { 'retry-after': '1' } } }]);
		const started = Date.now();
		const { items } = await post({ options: { concurrency: 1 } }, { inputItems: [{ amount: 9 }] });
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(items[0].json).toMatchObject({ statusCode: 201, attempts: 2 });
		expect(sandbox.stats().records).toBe(1);
	});

	it('retries a 500 and succeeds', async () => {
		sandbox.setFaults([{ method: 'POST', times: 2, action: { status: 500 } }]);
		const { items } = await post({ options: { concurrency: 1 } }, { inputItems: [{ amount: 5 }] });
		expect(items[0].json).toMatchObject({ statusCode: 201, attempts: 3 });
	});

	it('gives up after Max Attempts with a clear error that names the status and key', async () => {
		sandbox.setFaults([{ method: 'POST', action: { status: 503 } }]);
		const { error } = await post({ options: { maxAttempts: 2 } }, { inputItems: [{ amount: 5 }] });
		expect(error?.message).toMatch(/503.*after 2 attempts/);
		expect(sandbox.stats().records).toBe(0);
	});

	it('does not retry other 4xx', async () => {
		sandbox.setFaults([{ method: 'POST', action: { status: 422, body: { error: { code: 'invalid_amount', message: 'Amount must be positive' } } } }]);
		const { error } = await post({}, { inputItems: [{ amount: -1 }] });
		expect(error?.message).toBe('The API rejected the request (422): Amount must be positive');
		expect(sandbox.stats().byRoute['POST /v1/transfers']).toBe(1);
	});

	it('continueOnFail gives an error item per failed input and keeps the others', async () => {
		sandbox.setFaults([{ method: 'POST', path: '/v1/transfers', times: 1, action: { status: 400, body: { error: { message: 'bad' } } } }]);
		const { items, error } = await post(
			{ options: { concurrency: 1 } },
			{ settings: { onError: 'continueRegularOutput' } },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(items[0].json.error).toMatch(/bad/);
		expect(items[0].json.idempotencyKey).toMatch(UUID);
		expect(items[1].json.error).toBeUndefined();
		expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
	});

	describe('the Api-Key never leaves the base URL', () => {
		let decoy: Server;
		let decoyHits = 0;
		let decoyPort = 0;

		beforeAll(async () => {
			decoy = createServer((req, res) => {
				decoyHits++;
				res.end('{}');
			});
			await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
			decoyPort = (decoy.address() as AddressInfo).port;
		});
		afterAll(async () => new Promise<void>((resolve) => decoy.close(() => resolve())));

		const escapes = () => [
			`http://127.0.0.1:${decoyPort}/v1/x`,
			`//127.0.0.1:${decoyPort}/v1/x`,
			`\\\\127.0.0.1:${decoyPort}/v1/x`,
			`/\\127.0.0.1:${decoyPort}/x`,
			'/../accounts',
			'../../x',
			'/transfers/../../x',
			'/%2e%2e/x',
			'/%2E%2E%2Fx',
			'/%252e%252e/x',
			'/.%2e/x',
			'javascript:alert(1)',
			`HTTP://127.0.0.1:${decoyPort}`,
			'={{ "" }}',
			'   ',
		];

		it('refuses every escape before any request', async () => {
			for (const endpoint of escapes()) {
				const { error } = await post({ endpoint }, { inputItems: [{ amount: 1 }] });
				expect(error).toBeDefined();
				expect(error?.message).toMatch(/endpoint/i);
			}
			expect(decoyHits).toBe(0);
			expect(sandbox.stats().requests).toBe(0);
		});

		it('refuses a plain-http base URL that is not loopback, and one with credentials or a query', async () => {
			for (const baseUrl of ['http://api.example.com/v1', 'https://user:pw@api.example.com/v1', `${sandbox.baseUrl}?x=1`]) {
				const bad = await createHarness(sandboxCredential(baseUrl));
				const { error } = await runActionWorkflow(bad, {
					parameters: { resource: 'request', operation: 'post', endpoint: '/transfers', body: '{}' },
				});
				expect(error?.message).toMatch(/Base URL/);
			}
			expect(sandbox.stats().requests).toBe(0);
		});

		it('refuses a redirect instead of following it', async () => {
			sandbox.setFaults([{ method: 'POST', action: { status: 307, headers: { location: `http://127.0.0.1:${decoyPort}/steal` } } }]);
			const { error } = await post({}, { inputItems: [{ amount: 1 }] });
			expect(error?.message).toMatch(/redirect/);
			expect(decoyHits).toBe(0);
		});
	});

	it('never shows the secret key in errors, descriptions or details', async () => {
		const secret = 'sk_test_sandbox';
		sandbox.setFaults([{ method: 'POST', action: { status: 500, body: { error: { message: `bad key ${secret}` } } } }]);
		const { error } = await post({ options: { maxAttempts: 1 } }, { settings: { onError: 'continueRegularOutput' } });
		const failing = await post({ options: { maxAttempts: 1 } });
		for (const text of [JSON.stringify(error ?? {}), JSON.stringify(failing.error), failing.error?.message, failing.error?.description]) {
			expect(text ?? '').not.toContain(secret);
		}
		expect(failing.error?.message).toContain('[redacted]');
	});
});
