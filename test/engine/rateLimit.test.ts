/**
 * Rate limits inside n8n's engine: the built node in WorkflowExecute against the sandbox's token
 * bucket (50 requests/s per key, bursts of 10, 40 ms + up to 10 ms per answer, 429 + Retry-After: 1).
 * Each test gets a sandbox of its own, on a new port: a new API origin, so the node's rate governor for
 * it starts from nothing, as in a freshly started n8n. Claims checked are counts and states (items,
 * records, 429s, requests), never durations.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/server';
import type { CreatedRecord, Sandbox } from '../../sandbox/server';
import {
	TEST_CREDENTIAL_ID,
	createHarness,
	postTransfersParameters,
	runActionWorkflow,
	sandboxCredential,
} from '../harness/engine';
import type { ActionWorkflowOptions, Harness, NodeRun } from '../harness/engine';

const RATE = { perSecond: 50, burst: 10 };
const LATENCY = { fixedMs: 40, jitterMs: 10 };

const inputsOf = (count: number, prefix = 'rl'): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({ ref: `${prefix}-${i}`, amount: i + 1 }));

/** Records per business reference: exactly one each, or the count of the odd ones out. */
function duplicatesAndLost(records: CreatedRecord[], inputs: IDataObject[]) {
	const byRef = new Map<string, number>();
	for (const record of records)
		byRef.set(String(record.ref), (byRef.get(String(record.ref)) ?? 0) + 1);
	return {
		duplicates: [...byRef.values()].reduce((sum, count) => sum + count - 1, 0),
		lost: inputs.filter((input) => !byRef.has(String(input.ref))).length,
	};
}

describe('Tenant API node against a rate-limited API, inside WorkflowExecute', () => {
	let sandbox: Sandbox;
	let harness: Harness;
	const opened: Sandbox[] = [];

	/** A sandbox on a new port (a new origin: a governor of its own), and the credential pointing at it. */
	const freshApi = async (rate: { perSecond: number; burst: number } = RATE): Promise<Sandbox> => {
		const api = await startSandbox({ rateLimit: rate, latency: LATENCY });
		opened.push(api);
		harness.credentials[TEST_CREDENTIAL_ID] = sandboxCredential(api.baseUrl);
		return api;
	};

	beforeAll(async () => {
		harness = await createHarness(sandboxCredential('http://127.0.0.1:9/v1'));
	});
	beforeEach(async () => {
		sandbox = await freshApi();
	});
	afterEach(async () => {
		await Promise.all(opened.splice(0).map(async (api) => await api.close()));
	});

	const post = async (
		inputs: IDataObject[],
		options: IDataObject,
		extra: Partial<ActionWorkflowOptions> = {},
	): Promise<NodeRun> =>
		await runActionWorkflow(harness, {
			inputItems: inputs,
			...extra,
			parameters: postTransfersParameters({ includeMetadata: true, ...options }),
		});

	/** Every input a success carrying its own record, and each record keyed by the key the output reports. */
	const expectAllCreatedOnce = (run: NodeRun, inputs: IDataObject[], api = sandbox) => {
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(inputs.length);
		const keyOfRef = new Map(
			api.records().map((record) => [String(record.ref), record.idempotency_key]),
		);
		run.items.forEach((item, index) => {
			expect(item.json.error).toBeUndefined();
			expect(item.json.statusCode).toBe(201);
			expect((item.json.body as IDataObject).ref).toBe(inputs[index].ref);
			expect(item.json.idempotencyKey).toBe(keyOfRef.get(String(inputs[index].ref)));
		});
		expect(duplicatesAndLost(api.records(), inputs)).toEqual({ duplicates: 0, lost: 0 });
	};

	it('500 items at Concurrency 16 against 50 requests/s: every item created once, none failed, although the API answered 429', async () => {
		const inputs = inputsOf(500);
		const run = await post(inputs, { concurrency: 16 });
		expectAllCreatedOnce(run, inputs);
		const { rateLimited, requests } = sandbox.stats();
		// Nothing is known about the limit before the first 429s; retried items say so.
		expect(rateLimited).toBeGreaterThan(0);
		expect(requests).toBe(500 + rateLimited);
		const retried = run.items.filter((item) => (item.json.attempts as number) > 1);
		expect(retried.length).toBeGreaterThan(0);
		expect(retried.length).toBeLessThanOrEqual(rateLimited);
	});

	it('two executions share the governor of the key: the second sends no 429, where one against a new origin does', async () => {
		const first = inputsOf(300, 'first');
		expectAllCreatedOnce(await post(first, { concurrency: 16 }), first);
		expect(sandbox.stats().rateLimited).toBeGreaterThan(0);
		// The API's bucket fills up again (10 requests at 50/s: 0.2 s); the governor keeps the pace it found.
		await sleep(500);
		sandbox.reset();
		const second = inputsOf(30, 'second');
		expectAllCreatedOnce(await post(second, { concurrency: 16 }), second);
		expect(sandbox.stats()).toMatchObject({ rateLimited: 0, requests: 30 });
		// The same execution against another origin: its governor knows nothing yet, and 16 requests at once meet a bucket of 10.
		const elsewhere = await freshApi();
		expectAllCreatedOnce(await post(second, { concurrency: 16 }), second, elsewhere);
		expect(elsewhere.stats().rateLimited).toBeGreaterThanOrEqual(6);
	});

	it('Max Requests per Second at the API limit: not a single 429', async () => {
		const inputs = inputsOf(150);
		expectAllCreatedOnce(await post(inputs, { concurrency: 16, maxRequestsPerSecond: 50 }), inputs);
		expect(sandbox.stats().rateLimited).toBe(0);
	});

	it('429s do not use up Max Attempts: with Max Attempts 1 every item still goes through', async () => {
		// A burst of 5 against 16 requests at once: the first wave alone is refused about 11 times.
		sandbox.setRateLimit({ perSecond: 50, burst: 5 });
		const inputs = inputsOf(48);
		expectAllCreatedOnce(await post(inputs, { concurrency: 16, maxAttempts: 1 }), inputs);
		expect(sandbox.stats().rateLimited).toBeGreaterThan(5);
	});

	it('the same for Send Request (GET): rate-limited reads are retried too', async () => {
		sandbox.setRateLimit({ perSecond: 50, burst: 5 });
		const run = await runActionWorkflow(harness, {
			inputItems: inputsOf(40),
			parameters: {
				resource: 'request',
				operation: 'send',
				method: 'GET',
				endpoint: '/accounts',
				options: { concurrency: 16, maxAttempts: 1 },
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(40);
		expect(run.items.every((item) => Array.isArray(item.json.data))).toBe(true);
		expect(sandbox.stats().rateLimited).toBeGreaterThan(5);
	});

	it('an API that answers every request 429 with Retry-After: 0, with Retry Base Delay 0: no hot loop, the run ends by Max Rate-Limit Wait', async () => {
		sandbox.setFaults([
			{ method: 'POST', action: { status: 429, headers: { 'retry-after': '0' } } },
		]);
		const run = await post(inputsOf(1), { concurrency: 1, retryBaseDelay: 0, maxRateLimitWait: 3 });
		expect(run.error?.message).toMatch(
			/^The API's rate limit needs more waiting than this run allows \(429\): [\d.]+ s more asked, [\d.]+ s waited, 3 s allowed$/,
		);
		expect(run.error?.httpCode).toBe('429');
		// Waits of at least 100, 200, 400, 800 ms: the fifth (1.6 s) no longer fits in the 3 s.
		const { requests, faultsInjected } = sandbox.stats();
		expect(requests).toBe(faultsInjected);
		expect(requests).toBeGreaterThanOrEqual(4);
		expect(requests).toBeLessThanOrEqual(6);
	});

	describe('past Max Rate-Limit Wait', () => {
		// One request per 100 s after a burst of 2: the API asks for Retry-After: 100, more than the 5 s allowed.
		beforeEach(() => sandbox.setRateLimit({ perSecond: 0.01, burst: 2 }));

		it('stops with an error that says the run waited for the rate limit, naming the option', async () => {
			const run = await post(inputsOf(4), { concurrency: 1, maxRateLimitWait: 5 });
			expect(run.items).toHaveLength(0);
			expect(run.error?.message).toBe(
				"The API's rate limit needs more waiting than this run allows (429): 100 s more asked, 0 s waited, 5 s allowed",
			);
			expect(run.error?.description).toContain('This item was sent 1 time and refused with 429.');
			expect(run.error?.description).toContain('Raise Options → Max Rate-Limit Wait');
			expect(run.error?.description).toContain(
				'Applied before the node stopped: items 0 (Idempotency-Key',
			);
			expect(run.error?.httpCode).toBe('429');
			expect(sandbox.stats()).toMatchObject({ records: 2, rateLimited: 1, requests: 3 });
		});

		it('with Continue On Fail: each item whose wait does not fit becomes an error item, the others keep their records', async () => {
			const run = await post(
				inputsOf(4),
				{ concurrency: 1, maxRateLimitWait: 5 },
				{ settings: { onError: 'continueRegularOutput' } },
			);
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => item.json.statusCode)).toEqual([201, 201, 429, 429]);
			expect(run.items[2].json.error).toBe(
				"The API's rate limit needs more waiting than this run allows (429): 100 s more asked, 0 s waited, 5 s allowed",
			);
			// Only the refused request waits: the last item is still sent, at a lower pace, and refused in turn.
			expect(run.items[3].json.description).toContain(
				'This item was sent 1 time and refused with 429.',
			);
			expect(sandbox.stats()).toMatchObject({ records: 2, rateLimited: 2 });
		});
	});
});
