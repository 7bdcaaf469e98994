/**
 * Rate limits inside n8n's engine: the built node in WorkflowExecute against the sandbox's token
 * bucket (50 requests/s per key, bursts of 10, 40 ms + up to 10 ms per answer, 429 + Retry-After: 1).
 * Each test gets a sandbox of its own with a Secret Key of its own: a new origin and key, so the node's rate
 * governor for it starts from nothing, as in a freshly started n8n. Claims checked are counts and states (items,
 * records, 429s, requests, the governors of the process), never durations: how fast and with how few
 * 429s the governor paces whole runs is proven on a simulated clock (test/unit/rateLimit/simulation.test.ts), and
 * there too that only the items whose wait does not fit in Max Rate-Limit Wait fail.
 */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import type { RateLimitOptions } from '../../sandbox/rateLimit';
import {
	PACKAGE_ROOT,
	TEST_CREDENTIAL_ID,
	createHarness,
	postTransfersParameters,
	runActionWorkflow,
	sandboxCredential,
} from '../harness/engine';
import type { ActionWorkflowOptions, Harness, NodeRun } from '../harness/engine';

/** The process's governors, as the package loaded from dist/ keeps them (the same module the engine loaded). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const governors: typeof import('../../nodes/TenantApi/transport/rateLimit/governors') = require(
	`${PACKAGE_ROOT}/dist/nodes/TenantApi/transport/rateLimit/governors.js`,
);

const RATE = { perSecond: 50, burst: 10 };
const LATENCY = { fixedMs: 40, jitterMs: 10 };

const inputsOf = (count: number, prefix = 'rl'): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({ ref: `${prefix}-${i}`, amount: i + 1 }));

describe('Tenant API node against a rate-limited API, inside WorkflowExecute', () => {
	let sandbox: Sandbox;
	let harness: Harness;
	const opened: Sandbox[] = [];

	let apis = 0;
	/** A sandbox with a key never used before (a governor of its own, whatever port it gets), and the credential for it. */
	const freshApi = async (rateLimit: RateLimitOptions | null = RATE): Promise<Sandbox> => {
		const api = await startSandbox({ rateLimit, latency: LATENCY, apiKey: `sk_test_rl_${++apis}` });
		opened.push(api);
		harness.credentials[TEST_CREDENTIAL_ID] = sandboxCredential(api.baseUrl, {
			secretKey: api.apiKey,
		});
		return api;
	};
	const governorOf = (api: Sandbox) =>
		governors.governorFor(new URL(api.baseUrl).origin, api.apiKey);

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

	/** Every input a success carrying its own record, keyed by the key its output reports; no record twice. */
	const expectAllCreatedOnce = (run: NodeRun, inputs: IDataObject[], api = sandbox) => {
		expect(run.error).toBeUndefined();
		const refs = inputs.map((input) => String(input.ref));
		const records = api.records().filter((record) => refs.includes(String(record.ref)));
		const keyOfRef = new Map(records.map((record) => [String(record.ref), record.idempotency_key]));
		expect(
			run.items.map(({ json }) => [
				json.statusCode,
				(json.body as IDataObject).ref,
				json.idempotencyKey,
			]),
		).toEqual(refs.map((ref) => [201, ref, keyOfRef.get(ref)]));
		expect(records).toHaveLength(inputs.length);
	};

	it('429s do not use up Max Attempts: with Max Attempts 1 every item goes through once, each retried item says so', async () => {
		// A burst of 5 against 16 requests at once: the first wave alone is refused about 11 times.
		sandbox.setRateLimit({ perSecond: 50, burst: 5 });
		const inputs = inputsOf(48);
		const run = await post(inputs, { concurrency: 16, maxAttempts: 1 });
		expectAllCreatedOnce(run, inputs);
		const { rateLimited, requests } = sandbox.stats();
		expect(rateLimited).toBeGreaterThan(5);
		expect(requests).toBe(48 + rateLimited);
		const retried = run.items.filter((item) => (item.json.attempts as number) > 1);
		expect(retried.length).toBeGreaterThan(0);
		expect(retried.length).toBeLessThanOrEqual(rateLimited);
	});

	it('two executions in one process share the governor of the origin and key; another origin gets one of its own', async () => {
		const origin = new URL(sandbox.baseUrl).origin;
		expect(governors.governorKeys()).not.toContain(governors.governorKey(origin, sandbox.apiKey));
		// The API refuses the first POST: the governor of the key learns a pace from it.
		sandbox.setFaults([
			{ method: 'POST', times: 1, action: { status: 429, headers: { 'retry-after': '0' } } },
		]);
		const first = inputsOf(5, 'first');
		expectAllCreatedOnce(await post(first, { concurrency: 1 }), first);
		const governor = governorOf(sandbox);
		expect(governor.snapshot(Date.now()).rate).toBeGreaterThan(0);
		// The next execution takes every turn from that governor: one for each request the API saw (a 429 of the
		// API's own bucket, which the pace may or may not meet, is one more request and one more turn).
		const send = jest.spyOn(governor, 'send');
		const before = sandbox.stats().requests;
		const second = inputsOf(10, 'second');
		expectAllCreatedOnce(await post(second, { concurrency: 4 }), second);
		const turns = sandbox.stats().requests - before;
		expect(turns).toBeGreaterThanOrEqual(10);
		expect(send).toHaveBeenCalledTimes(turns);
		// The same execution against another origin (with no rate limit, so no 429 of its own): a governor of its
		// own, which has learned nothing from the first origin's 429.
		const elsewhere = await freshApi(null);
		expectAllCreatedOnce(await post(second, { concurrency: 4 }), second, elsewhere);
		const other = governorOf(elsewhere);
		expect(other).not.toBe(governor);
		expect(other.snapshot(Date.now()).rate).toBeUndefined();
		expect(send).toHaveBeenCalledTimes(turns);
	});

	it('Max Requests per Second below the API limit: not a single 429, where the first wave alone would meet some', async () => {
		sandbox.setRateLimit({ perSecond: 10, burst: 2 });
		const inputs = inputsOf(10);
		expectAllCreatedOnce(await post(inputs, { concurrency: 16, maxRequestsPerSecond: 5 }), inputs);
		expect(sandbox.stats().rateLimited).toBe(0);
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

	it('past Max Rate-Limit Wait: stops with an error that says the run waited for the rate limit, naming the option', async () => {
		// One request per 100 s after a burst of 2: the API asks for Retry-After: 100, more than the 5 s allowed.
		sandbox.setRateLimit({ perSecond: 0.01, burst: 2 });
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
});
