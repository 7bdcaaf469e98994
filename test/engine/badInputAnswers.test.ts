/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Hostile (or broken) API answers, through the built node inside WorkflowExecute against the sandbox:
 * bodies that drip or never end, gzip bombs, answers that echo the Api-Key, next links that try to climb out of the
 * Base URL, huge listings, and "request still in progress" conflicts (what the error then says, never advising a new
 * key, is test/unit/responses.test.ts's). A listing whose server caps its pages is collections.test.ts's.
 * Rows of docs/bad-input.md. Needs `npm run build` first.
 *
 * Nothing here asserts on timing: an answer that drips forever, or a bomb that never ends, would make
 * the run never return (the test then fails on its own timeout); what is asserted is the outcome and
 * what the sandbox saw (requests, records, answers the node walked away from).
 */
import type { IDataObject } from 'n8n-workflow';

import type { FaultRule, Sandbox } from '../../sandbox/server';
import { postTransfer, runActionWorkflow } from '../harness/engine';
import type { NodeRun } from '../harness/engine';
import { until } from '../harness/until';
import { useSandbox } from './useSandbox';

const SECRET = 'sk_test_sandbox';
const IN_USE = {
	code: 'idempotency_key_in_use',
	message:
		'There is currently another in-progress request using this Idempotent Key. Please try again later.',
};

/** Waits until every connection is over, then returns how many answers the node walked away from. */
async function answersCutShort(sandbox: Sandbox, atLeast: number): Promise<number> {
	await until(() => sandbox.stats().answersCutShort >= atLeast && sandbox.stats().inFlight === 0);
	return sandbox.stats().answersCutShort;
}

/** Everything the run recorded (output, error, run data): the Secret Key must appear nowhere. */
const everything = (run: NodeRun) => JSON.stringify(run.run.data);

describe('hostile answers', () => {
	const suite = useSandbox({ accounts: 120 });
	beforeEach(() => suite.sandbox.setPagination('cursor'));

	const list = (parameters: IDataObject, faults?: FaultRule[]) => {
		if (faults) suite.sandbox.setFaults(faults);
		return runActionWorkflow(suite.harness, {
			parameters: { resource: 'account', operation: 'getAll', returnAll: true, ...parameters },
		});
	};
	const postOne = (options: IDataObject, faults?: FaultRule[]) => {
		if (faults) suite.sandbox.setFaults(faults);
		return postTransfer(suite.harness, { options: { includeMetadata: true, ...options } });
	};

	describe('the timeout covers the whole exchange (item 1)', () => {
		it.each([
			[
				'a listing whose body drips after the headers (~200 bytes, one every 50 ms) is cut at the timeout',
				{ intervalMs: 50 },
				{ timeout: 500, maxAttempts: 1 },
				'Could not reach the API: no complete answer within 500 ms (after 1 attempt)',
			],
			[
				'an endless drip is retried up to Max Attempts, then reported',
				{ intervalMs: 20, endless: true },
				{ timeout: 300, maxAttempts: 2, retryBaseDelay: 1 },
				'Could not reach the API: no complete answer within 300 ms (after 2 attempts)',
			],
		])('%s; every connection is closed', async (_name, drip, options, message) => {
			const { error, items } = await list({ options }, [{ method: 'GET', action: { drip } }]);
			expect(items).toHaveLength(0);
			expect(error?.message).toBe(message);
			expect(await answersCutShort(suite.sandbox, options.maxAttempts)).toBe(options.maxAttempts);
			expect(suite.sandbox.stats().requests).toBe(options.maxAttempts);
		});

		it('a POST whose answer drips forever is retried with the same key and gets the stored answer', async () => {
			const { error, items } = await postOne({ timeout: 300, maxAttempts: 2 }, [
				{ method: 'POST', times: 1, action: { drip: { intervalMs: 20, endless: true } } },
			]);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ statusCode: 201, attempts: 2, replayed: true });
			expect(await answersCutShort(suite.sandbox, 1)).toBe(1);
			expect(suite.sandbox.stats()).toMatchObject({ records: 1, replays: 1 });
		});

		it('leaves no timer running after the requests are over', async () => {
			const timers = () =>
				process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
			const before = timers();
			const { error } = await postTransfer(
				suite.harness,
				{ options: { timeout: 600_000 } },
				{ inputItems: Array.from({ length: 20 }, (_, amount) => ({ amount })) },
			);
			expect(error).toBeUndefined();
			// 20 requests with a 10-minute timeout each: had any timer been left for its full timeout, there would be 20.
			expect(timers() - before).toBeLessThan(5);
		});
	});

	describe('answers above 64 MiB, compressed or not (item 3)', () => {
		it('a gzip bomb (1 MiB on the wire, 1 GiB inflated) is refused once 64 MiB are read', async () => {
			const { error } = await list({ options: { maxAttempts: 1 } }, [
				{ method: 'GET', action: { gzipBomb: { inflatedMiB: 1024 } } },
			]);
			expect(error?.message).toBe(
				'The API accepted the request (200), but its answer could not be read: The response is larger than 64 MiB, the most this node accepts; reading stopped at 64 MiB',
			);
			expect(suite.sandbox.stats().requests).toBe(1);
		});

		it('a gzip bomb that never ends is refused as well, and its connection closed', async () => {
			suite.sandbox.setFaults([{ method: 'GET', action: { gzipBomb: { endless: true } } }]);
			const { error } = await runActionWorkflow(suite.harness, {
				parameters: {
					resource: 'request',
					operation: 'send',
					method: 'GET',
					endpoint: '/accounts/acc_0001',
					options: { maxAttempts: 1 },
				},
			});
			expect(error?.message).toMatch(/reading stopped at 64 MiB$/);
			expect(await answersCutShort(suite.sandbox, 1)).toBe(1);
		});
	});

	describe('an echoed Api-Key never reaches the output (item 4)', () => {
		it('a 201 that echoes the request headers', async () => {
			const run = await postOne({}, [{ method: 'POST', action: { echoRequest: true } }]);
			expect(run.error).toBeUndefined();
			const body = run.items[0].json.body as { request: { headers: IDataObject } };
			expect(body.request.headers['api-key']).toBe('[redacted]');
			expect(body.request.headers['x-tenant-id']).toBe('tenant_demo');
			expect(everything(run)).not.toContain(SECRET);
			expect(suite.sandbox.stats().records).toBe(1);
		});

		it('an account field that holds the key', async () => {
			const listing = JSON.stringify({
				data: [{ id: 'acc_1', debug: `key=${SECRET}` }],
				has_more: false,
			});
			const run = await list({}, [{ method: 'GET', action: { rawBody: listing } }]);
			expect(run.items.map((item) => item.json)).toEqual([
				{ id: 'acc_1', debug: 'key=[redacted]' },
			]);
			expect(everything(run)).not.toContain(SECRET);
		});
	});

	it('a next link that climbs out of the Base URL is not followed with the Api-Key (item 5)', async () => {
		const page = JSON.stringify({
			results: [{ id: 'acc_1' }],
			next: `${suite.sandbox.url}/v1/accounts/..%3b/..%3b/admin?cursor=2`,
		});
		const { error, items } = await list({}, [
			{ method: 'GET', path: '/v1/accounts', times: 1, action: { rawBody: page } },
		]);
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			'The API\'s next-page link must stay below the Base URL: segment "..%3b" is not allowed',
		);
		expect(suite.sandbox.stats().requests).toBe(1);
	});

	describe('"request still in progress" (item 9)', () => {
		it('a Stripe-like 409 after a lost answer is retried with the same key until the stored answer comes', async () => {
			const { error, items } = await postOne({ maxAttempts: 4 }, [
				{ method: 'POST', times: 1, action: { dropAfterCommit: true } },
				{ method: 'POST', times: 2, action: { status: 409, body: { error: IN_USE } } },
			]);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ statusCode: 201, attempts: 4, replayed: true });
			expect(suite.sandbox.stats()).toMatchObject({ requests: 4, records: 1 });
		});

		it.each([
			[
				{ maxAttempts: 3 },
				`The API is still processing an earlier request with this Idempotency-Key (409): ${IN_USE.message} (after 3 attempts)`,
				3,
			],
			[{ maxAttempts: 3, inProgressMatch: '' }, `Conflict (409): ${IN_USE.message}`, 1],
		])('a Stripe-like 409 on every attempt, options %j: %s', async (options, message, requests) => {
			const { error } = await postOne(options, [
				{ method: 'POST', action: { status: 409, body: { error: IN_USE } } },
			]);
			expect(error?.message).toBe(message);
			expect(suite.sandbox.stats()).toMatchObject({ requests, records: 0 });
		});

		it('the status and the words are options: a 423 "locked" is retried when configured', async () => {
			const locked = {
				method: 'POST',
				times: 1,
				action: { status: 423, body: { error: { code: 'resource_locked', message: 'Locked' } } },
			};
			const configured = await postOne({ inProgressStatus: 423, inProgressMatch: 'locked' }, [
				locked,
			]);
			expect(configured.items[0].json).toMatchObject({ statusCode: 201, attempts: 2 });
			suite.sandbox.reset();
			const plain = await postOne({}, [locked]);
			expect(plain.error?.message).toBe('The API answered 423: Locked');
		});
	});
});

describe('listings far above a page (item 2)', () => {
	const big = useSandbox({ accounts: 250_000, maxPageSize: 130_000 });

	const listAll = (pageSize: number) =>
		runActionWorkflow(big.harness, {
			parameters: {
				resource: 'account',
				operation: 'getAll',
				returnAll: true,
				options: { pageSize },
			},
		});

	it('250,000 accounts in pages of 1,000: every account is output, in order', async () => {
		big.sandbox.setPagination('cursor');
		const { error, items } = await listAll(1000);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(250_000);
		expect([items[0].json.id, items[124_999].json.id, items[249_999].json.id]).toEqual([
			'acc_0001',
			'acc_125000',
			'acc_250000',
		]);
		expect([items[0].pairedItem, items[249_999].pairedItem]).toEqual([{ item: 0 }, { item: 0 }]);
		expect(big.sandbox.stats().byRoute['GET /v1/accounts']).toBe(250);
	});

	it('a plain array in pages of 130,000: 130,000 + 120,000, then the empty page that ends it', async () => {
		big.sandbox.setPagination('array');
		const { error, items } = await listAll(130_000);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(250_000);
		expect([items[129_999].json.id, items[249_999].json.id]).toEqual(['acc_130000', 'acc_250000']);
		expect(big.sandbox.stats().byRoute['GET /v1/accounts']).toBe(3);
	});
});
