/**
 * Fault soak: 1,000 POST items through the built node inside n8n-core's WorkflowExecute, with the
 * node setting Retry On Fail on, against the sandbox injecting faults at random with a fixed seed:
 * 500 before commit, connection dropped after commit, 429 with Retry-After, and answers slower than
 * the node's timeout (the record is committed, the answer arrives too late).
 *
 * Claims checked: the sandbox ends with exactly one record per input item (no duplicate, none lost), and
 * every output item is a success for its own input or a clear error. Nothing here depends on how fast the
 * machine is: a run that never ends fails on HANG_GUARD_MS; how long a run takes is a benchmark's figure.
 * That an engine try after a lost answer replays what was committed, item by item, is exactlyOnce.test.ts's
 * (Retry On Fail, then Retry execution). Needs `npm run build` first.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { CreatedRecord, RandomFaults, Sandbox } from '../../sandbox/server';
import { postTransfersParameters, runActionWorkflow } from '../harness/engine';
import type { ActionWorkflowOptions } from '../harness/engine';
import { useSandbox } from './useSandbox';

const ITEMS = 1000;
const SECRET = 'sk_test_sandbox';
/** Only against a hang: a run on an idle machine takes a small part of it. */
const HANG_GUARD_MS = 10 * 60_000;

/**
 * ~18% of requests (first attempts and retries alike) meet a fault. 429s are few: each one pauses the
 * whole run for its Retry-After (1 s), as the API asks; test/engine/rateLimit.test.ts covers them in bulk.
 */
const FAULTS: RandomFaults = {
	seed: 20250601,
	p500: 0.08,
	pDropAfterCommit: 0.05,
	p429: 0.006,
	retryAfterSeconds: 1,
	pSlow: 0.04,
	slowMs: 1500,
};

/**
 * Below the slow answers (1.5 s) and the default (30 s). A loaded machine may time out more answers than
 * the slow ones: those are retried with their key like any other, which the counts below allow.
 */
const NODE_TIMEOUT_MS = 1000;

const inputs: IDataObject[] = Array.from({ length: ITEMS }, (_, i) => ({
	ref: `soak-${String(i).padStart(4, '0')}`,
	amount: i + 1,
}));

/** The sandbox's records grouped by business reference. */
function recordsByRef(sandbox: Sandbox): Map<string, CreatedRecord[]> {
	const byRef = new Map<string, CreatedRecord[]>();
	for (const record of sandbox.records()) {
		const ref = String(record.ref);
		byRef.set(ref, [...(byRef.get(ref) ?? []), record]);
	}
	return byRef;
}

const CLEAR_ERROR =
	/^(Could not reach the API: (no complete answer within \d+ ms|the connection closed before an answer arrived) \(after \d+ attempts?\)|The API answered (429|500)(: .+)? \(after \d+ attempts\))$/;

/** A success carries the record created for this very input; an error says what happened and nothing secret. */
function classify(item: INodeExecutionData, index: number): 'success' | 'error' {
	expect((item.pairedItem as { item: number }).item).toBe(index);
	const json = item.json;
	expect(JSON.stringify(json)).not.toContain(SECRET);
	if (json.error !== undefined) {
		expect(json.error).toEqual(expect.stringMatching(CLEAR_ERROR));
		expect(typeof json.description).toBe('string');
		return 'error';
	}
	expect(json.statusCode).toBe(201);
	const body = json.body as IDataObject;
	expect(body.ref).toBe(inputs[index].ref);
	expect(body.idempotency_key).toBe(json.idempotencyKey);
	return 'success';
}

describe('fault soak: 1,000 POSTs under random faults, Retry On Fail on', () => {
	const suite = useSandbox();
	beforeEach(() =>
		suite.sandbox.setFaults([{ method: 'POST', path: '/v1/transfers', random: FAULTS }]),
	);

	/** Runs the inputs through the node and checks every output item; returns the run and the failed items' indexes. */
	const soak = async (settings: ActionWorkflowOptions['settings'], options: IDataObject) => {
		const run = await runActionWorkflow(suite.harness, {
			inputItems: inputs,
			settings,
			parameters: postTransfersParameters({
				includeMetadata: true,
				timeout: NODE_TIMEOUT_MS,
				retryBaseDelay: 25,
				concurrency: 16,
				...options,
			}),
		});
		expect(run.run.finished).toBe(true);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(ITEMS);
		const failed = run.items.flatMap((item, index) =>
			classify(item, index) === 'error' ? [index] : [],
		);
		return { run, failed };
	};

	it(
		'node retries + Retry On Fail: exactly one record per item, every item a success',
		async () => {
			const { run, failed } = await soak(
				{ retryOnFail: true, maxTries: 5, waitBetweenTries: 50 },
				{ maxAttempts: 5 },
			);
			expect(failed).toEqual([]);
			const stats = suite.sandbox.stats();
			expect(stats.records).toBe(ITEMS);
			// The faults really happened, and some answers were replays of a committed record.
			expect(stats.faultsInjected).toBeGreaterThan(100);
			expect(stats.replays).toBeGreaterThan(20);
			// One record per input, keyed by the key the output reports for it.
			const byRef = recordsByRef(suite.sandbox);
			run.items.forEach((item, index) => {
				const records = byRef.get(String(inputs[index].ref)) ?? [];
				expect(records.map((record) => record.idempotency_key)).toEqual([item.json.idempotencyKey]);
			});
		},
		HANG_GUARD_MS,
	);

	it(
		'continueOnFail: failures become clear error items; re-running them with a business key completes the set without duplicates',
		async () => {
			const { run, failed } = await soak(
				{ retryOnFail: true, maxTries: 2, waitBetweenTries: 50, onError: 'continueRegularOutput' },
				// Few attempts on purpose, so that some items do end as error items.
				{ maxAttempts: 2, idempotencyKey: '={{ $json.ref }}' },
			);
			expect(failed.length).toBeGreaterThan(0);
			// Successes have their record; an error item may or may not have one (a dropped or late answer
			// after the commit), and the message says so through its description.
			const byRef = recordsByRef(suite.sandbox);
			run.items.forEach((item, index) => {
				const records = byRef.get(String(inputs[index].ref)) ?? [];
				expect(records.length).toBeLessThanOrEqual(1);
				if (item.json.error === undefined) expect(records).toHaveLength(1);
				else expect(item.json.idempotencyKey).toBe(inputs[index].ref);
			});
			const lost = inputs.filter((input) => !byRef.has(String(input.ref))).length;
			expect(suite.sandbox.stats().records).toBe(ITEMS - lost);

			// A new execution (like "Retry execution", which gets a new execution id) for the failed items only.
			suite.sandbox.setFaults(null);
			const rerun = await runActionWorkflow(suite.harness, {
				inputItems: failed.map((index) => inputs[index]),
				parameters: postTransfersParameters({
					includeMetadata: true,
					idempotencyKey: '={{ $json.ref }}',
				}),
			});
			expect(rerun.error).toBeUndefined();
			expect(rerun.items.every((item) => item.json.statusCode === 201)).toBe(true);
			const final = recordsByRef(suite.sandbox);
			expect(suite.sandbox.stats().records).toBe(ITEMS);
			expect(inputs.every((input) => final.get(String(input.ref))?.length === 1)).toBe(true);
			// Items whose request had been committed before the error are replayed, not created again.
			const replayedOnRerun = rerun.items.filter((item) => item.json.replayed === true).length;
			expect(replayedOnRerun).toBe(failed.length - lost);
		},
		HANG_GUARD_MS,
	);
});
