/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { createHarness, postTransfer, sandboxCredential } from '../harness/engine';
import type { ActionWorkflowOptions, Harness } from '../harness/engine';

/*
 * Request → POST inside WorkflowExecute: the records and keys of a plain run, what it outputs, and no redirect
 * followed. Retries (in the node and by Retry On Fail) are proven in soak.test.ts, 429s in rateLimit.test.ts, keys
 * across executions and business keys in exactlyOnce.test.ts, error answers, refused Endpoints and Base URLs and
 * secrets echoed back with and without Continue On Fail in badInput.test.ts.
 */

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

	const post = (options: IDataObject, extra: Partial<ActionWorkflowOptions> = {}) =>
		postTransfer(
			harness,
			{ options: { includeMetadata: true, ...options } },
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
		expect(
			sandbox
				.records()
				.map((record) => record.idempotency_key)
				.sort(),
		).toEqual([...keys].sort());
		expect(items.every((item) => item.json.error === undefined)).toBe(true);
	});

	it('outputs the response body alone by default', async () => {
		const { items } = await post({ includeMetadata: false });
		expect(items[0].json).toMatchObject({ object: 'transfers', amount: 1, endpoint: '/transfers' });
		expect(items[0].json.idempotencyKey).toBeUndefined();
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
			sandbox.setFaults([{ method: 'POST', action: { status: 307, headers: { location } } }]);
			const { error } = await post({}, { inputItems: [{ amount: 1 }] });
			expect(error?.message).toMatch(/redirect/);
			expect(decoyHits).toBe(0);
		} finally {
			await new Promise<void>((resolve) => decoy.close(() => resolve()));
		}
	});
});
