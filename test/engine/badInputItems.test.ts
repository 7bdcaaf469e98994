/**
 * Bad input on the user's side, through the built node inside WorkflowExecute against the sandbox: a run
 * that fails halfway (what was applied), two items with the same business key, and parameters or
 * credentials outside what can work. Rows of docs/bad-input.md. That running it again writes the applied items a
 * second time unless they carry a business key is exactlyOnce.test.ts's ("a new execution ... writes again") and
 * soak.test.ts's (a re-run with a business key replays). Needs `npm run build` first.
 */
import type { IDataObject } from 'n8n-workflow';

import { postTransfer } from '../harness/engine';
import type { ActionWorkflowOptions } from '../harness/engine';
import { useSandbox } from './useSandbox';

const NOTHING_SENT = 'Nothing was sent. Fix the parameter and run again.';

describe('bad input from the workflow', () => {
	const suite = useSandbox();
	const post = (parameters: IDataObject, extra: Partial<ActionWorkflowOptions> = {}) =>
		postTransfer(suite.harness, parameters, extra);

	describe('a run that stops halfway says what was applied (item 8)', () => {
		// Item 3 goes to an endpoint that answers 422; the others are created, each answer 200 ms late so
		// that item 3's refusal comes first.
		const tenItems = Array.from({ length: 10 }, (_, n) => ({ n }));
		const run = (options: IDataObject = {}) =>
			post(
				{
					endpoint: '={{ $json.n === 3 ? "/refused" : "/transfers" }}',
					body: '={{ JSON.stringify({ n: $json.n }) }}',
					options: { concurrency: 5, ...options },
				},
				{ inputItems: tenItems },
			);
		beforeEach(() =>
			suite.sandbox.setFaults([
				{
					method: 'POST',
					path: '/v1/refused',
					action: { status: 422, body: { error: { code: 'invalid', message: 'Refused' } } },
				},
				{ method: 'POST', path: '/v1/transfers', action: { delayMs: 200 } },
			]),
		);

		it('the error lists every item applied before the node stopped, with its key, exactly as the API holds them', async () => {
			const { error, items } = await run();
			expect(items).toHaveLength(0);
			expect(error?.message).toBe('The API rejected the request (422): Refused');
			const context = error?.context as {
				itemsApplied: Array<{ item: number; idempotencyKey: string }>;
				itemsNotSent: string;
			};
			const created = new Map(
				suite.sandbox.records().map((record) => [Number(record.n), record.idempotency_key]),
			);
			// Items 0-4 were in flight together; whatever else was sent before the stop is listed too.
			expect(context.itemsApplied.map((entry) => entry.item)).toEqual(
				[...created.keys()].sort((a, b) => a - b),
			);
			expect(
				context.itemsApplied.every((entry) => created.get(entry.item) === entry.idempotencyKey),
			).toBe(true);
			expect([...created.keys()]).toEqual(expect.arrayContaining([0, 1, 2, 4]));
			expect(created.has(3)).toBe(false);
			expect(error?.description).toMatch(
				/^Check the body sent to POST \/v1\/refused\. Applied before the node stopped: items 0 \(Idempotency-Key [0-9a-f-]{36}\), 1 .*"Retry execution" \(executions list\) sends the same automatic Idempotency-Keys.*A new run \(manual, or a new trigger\) derives new keys/,
			);
			const notSent = tenItems.map(({ n }) => n).filter((n) => n !== 3 && !created.has(n));
			// "5–7, 9": the items of each range, in order.
			const listed = context.itemsNotSent
				.split(', ')
				.filter(Boolean)
				.flatMap((range) => {
					const [first, last = first] = range.split('–').map(Number);
					return Array.from({ length: last - first + 1 }, (_, offset) => first + offset);
				});
			expect(listed).toEqual(notSent);
		});
	});

	describe('two items with the same Idempotency Key in one run (item 10)', () => {
		const twice = [
			{ order: 'order-1', amount: 5 },
			{ order: 'order-2', amount: 6 },
			{ order: 'order-1', amount: 5 },
		];
		const sameKey = (extra: Partial<ActionWorkflowOptions> = {}) =>
			post(
				{ options: { idempotencyKey: '={{ $json.order }}', includeMetadata: true } },
				{ inputItems: twice, ...extra },
			);

		it('stop the node before anything is sent', async () => {
			const { error, items } = await sameKey();
			expect(items).toHaveLength(0);
			expect(error?.message).toBe('Items 0 and 2 have the same Idempotency Key "order-1"');
			expect(error?.description).toMatch(
				/one of the two would silently not happen\. Nothing was sent\. Give each operation its own key/,
			);
			expect(suite.sandbox.stats().requests).toBe(0);
		});

		it('with Continue On Fail, the later one is an error item and the others are sent', async () => {
			const { error, items } = await sameKey({ settings: { onError: 'continueRegularOutput' } });
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.error ?? item.json.statusCode)).toEqual([
				201,
				201,
				'Items 0 and 2 have the same Idempotency Key "order-1"',
			]);
			expect(items[2].json.description).toMatch(/Item 2 was not sent\./);
			expect(suite.sandbox.stats()).toMatchObject({ requests: 2, records: 2 });
		});
	});

	describe('clear errors instead of crashes, clamps instead of runaway settings (item 11)', () => {
		it.each([
			[
				'Timeout 2^31 ms',
				{ options: { timeout: 2 ** 31 } },
				'Timeout (Ms) must be a whole number from 1 to 2147483647, not 2147483648',
				'Nothing was sent. Fix the option and run again.',
			],
			[
				'a Method expression that returns something else',
				{ operation: 'send', method: '={{ "TRACE" }}' },
				'The Method must be one of DELETE, GET, PATCH, POST, PUT, not "TRACE"',
				NOTHING_SENT,
			],
		])('%s', async (_name, parameters, message, description) => {
			const { error } = await post(parameters as IDataObject);
			expect(error?.message).toBe(message);
			if (description) expect(error?.description).toBe(description);
			expect(suite.sandbox.stats().requests).toBe(0);
		});

		it('a lowercase method from an expression ("post") sends the body', async () => {
			const { error, items } = await post({
				operation: 'send',
				method: '={{ "post" }}',
				body: '{"amount":42}',
				options: { includeMetadata: true },
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ statusCode: 201, body: { amount: 42 } });
			expect(suite.sandbox.records()[0]).toMatchObject({ amount: 42 });
		});

		it('Max Attempts 2,000 from an expression is clamped to 10', async () => {
			suite.sandbox.setFaults([{ method: 'POST', action: { status: 503 } }]);
			const { error } = await post({ options: { maxAttempts: '={{ 2000 }}', retryBaseDelay: 0 } });
			expect(error?.message).toBe(
				'The API answered 503: Injected fault (HTTP 503) (after 10 attempts)',
			);
			expect(suite.sandbox.stats().requests).toBe(10);
		});

		it('Concurrency 500 from an expression is clamped to 64', async () => {
			suite.sandbox.setFaults([{ method: 'POST', action: { delayMs: 100 } }]);
			const { error, items } = await post(
				{ options: { concurrency: '={{ 500 }}' } },
				{ inputItems: Array.from({ length: 150 }, (_, amount) => ({ amount })) },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(150);
			expect(suite.sandbox.stats().peakInFlight).toBeLessThanOrEqual(64);
		});
	});
});
