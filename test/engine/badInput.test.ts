/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Bad input, through the built node inside WorkflowExecute: each case gets a clear message, sends no
 * request where none should go (or exactly the one that found the problem), and never shows the secret
 * key or the webhook secret in the message, the description or the error details, with or without
 * Continue On Fail. One case for each place a message comes from: the other inputs of the same place
 * (every Body, Endpoint, Idempotency Key and Base URL refused, every answer that is no list) are the unit
 * tests' (responses, apiUrl, idempotencyKeys, pagination), as docs/bad-input.md says. Needs `npm run build`.
 */
import type { IDataObject } from 'n8n-workflow';

import type { FaultRule } from '../../sandbox/server';
import {
	TEST_CREDENTIAL_ID,
	postTransfersParameters,
	runActionWorkflow,
	sandboxCredential,
} from '../harness/engine';
import type { NodeRun } from '../harness/engine';
import { useSandbox } from './useSandbox';

const SECRET = 'sk_test_sandbox';
const WEBHOOK_SECRET = 'whsec_must_not_leak_7f3a';
const NOTHING_SENT = 'Nothing was sent. Fix the parameter and run again.';
const FIX_BASE_URL = 'Fix the Base URL in the Tenant API credential. Nothing was sent.';

interface Case {
	/** What goes in (the first column of the table). */
	name: string;
	op: 'post' | 'list';
	params?: IDataObject;
	options?: IDataObject;
	credential?: IDataObject;
	faults?: FaultRule[];
	/** Exact message, or a pattern; `<base>` stands for the sandbox base URL. */
	message: string | RegExp;
	description?: string | RegExp;
	/** Requests that reached the sandbox. */
	requests: number;
}

const json = (status: number, message: string): FaultRule => ({
	method: 'POST',
	action: { status, body: { error: { code: `code_${status}`, message } } },
});
const bare = (status: number, body: string, contentType = 'text/plain'): FaultRule => ({
	method: 'POST',
	action: { status, body, contentType },
});

const STATUS_DESCRIPTIONS: Record<number, string | RegExp> = {
	401: 'The Sandbox Secret Key in the credential was not accepted by <base>. Check that the credential holds the Secret Key (not the Public Key) of the Sandbox environment, that the Base URL belongs to that environment, and that the key was not rotated in the dashboard.',
	403: 'POST /v1/transfers was refused. Check the Tenant ID in the credential and that the key may use this endpoint.',
	404: 'POST /v1/transfers does not exist at <base>. Check the endpoint path.',
	409: /^POST \/v1\/transfers conflicts with an earlier request with Idempotency-Key [0-9a-f-]{36}\. If the API says the key was already used with a different request, that earlier request was applied: do not send this one again under a new key unless it is a different operation \(check that the body is built the same way on every run\)\.$/,
	422: 'Check the body sent to POST /v1/transfers.',
};
/**
 * The API's refusals, one row per status that no other row reaches: 401 and 403 are the wrong Secret Key and Tenant
 * ID below, 404 the HTML page; a JSON error body's message is read the same for every status (test/unit/responses.test.ts).
 */
const statusCases: Case[] = [
	...[
		[409, 'Conflict (409)'],
		[422, 'The API rejected the request (422)'],
	].map(([status, message]) => ({
		name: `${status} with a JSON error body`,
		op: 'post' as const,
		faults: [json(Number(status), `Reason for ${status}`)],
		message: `${message}: Reason for ${status}`,
		description: STATUS_DESCRIPTIONS[Number(status)],
		requests: 1,
	})),
	...[
		['', 'Not found (404)'],
		['404 says no', 'Not found (404): The response is not JSON (text/plain): "404 says no"'],
	].map(([body, message]) => ({
		name: `404 with ${body ? 'a plain-text' : 'an empty'} body`,
		op: 'post' as const,
		faults: [bare(404, body)],
		message,
		description: STATUS_DESCRIPTIONS[404],
		requests: 1,
	})),
];

const cases: Case[] = [
	// ------------------------------------------------------------------ parameters: nothing is sent
	{
		name: 'Body: invalid JSON `{"amount":`',
		op: 'post',
		params: { body: '{"amount":' },
		message: 'The Body is not valid JSON: Unexpected end of JSON input',
		description: NOTHING_SENT,
		requests: 0,
	},
	{
		name: 'Endpoint: `..` with a path parameter `/..;/admin`',
		op: 'post',
		params: { endpoint: '/..;/admin' },
		message: 'The endpoint must stay below the Base URL: segment "..;" is not allowed',
		description: NOTHING_SENT,
		requests: 0,
	},
	// ------------------------------------------------------------------ credential: nothing is sent
	{
		name: 'Credential: Secret Key of spaces',
		op: 'post',
		credential: { secretKey: '   ' },
		message: 'The Tenant API credential has no Secret Key',
		description:
			'Open the credential and paste the Secret Key from the dashboard (Manage → Configure → API keys).',
		requests: 0,
	},
	{
		name: 'Credential: Base URL with the key in the query `…/v1?api_key=<secret>` (listing)',
		op: 'list',
		credential: { baseUrl: `https://api.example.com/v1?api_key=${SECRET}` },
		message: "The credential's Base URL must not contain a query string or fragment",
		description: FIX_BASE_URL,
		requests: 0,
	},
	{
		name: 'Credential: a 100 KB Tenant ID (listing)',
		op: 'list',
		credential: { tenantId: 't'.repeat(100 * 1024) },
		message:
			"The credential's Tenant ID is 102400 characters long; at most 1024 are sent (it travels as the x-tenant-id header)",
		description: 'Fix the Tenant ID in the Tenant API credential. Nothing was sent.',
		requests: 0,
	},
	// ------------------------------------------------------------------ the API says no
	{
		name: 'Credential: wrong Tenant ID (the sandbox answers 403 tenant_mismatch)',
		op: 'post',
		credential: { tenantId: 'tenant_other' },
		message: 'Forbidden (403): Unknown tenant',
		description: STATUS_DESCRIPTIONS[403],
		requests: 1,
	},
	{
		name: 'Credential: wrong Secret Key',
		op: 'post',
		credential: { secretKey: 'sk_live_not_the_sandbox_key' },
		message: 'Authorization failed (401): Invalid or missing API key',
		description: STATUS_DESCRIPTIONS[401],
		requests: 1,
	},
	{
		name: 'No API at the Base URL (connection refused), Max Attempts 2',
		op: 'post',
		credential: { baseUrl: 'http://127.0.0.1:9/v1' },
		options: { maxAttempts: 2 },
		message: 'Could not reach the API: the connection was refused (after 2 attempts)',
		description: 'POST /v1/transfers at http://127.0.0.1:9/v1. The request did not reach the API.',
		requests: 0,
	},
	...statusCases,
	{
		name: 'An HTML error page (404 from a proxy)',
		op: 'post',
		faults: [{ method: 'POST', action: { htmlError: 404 } }],
		message:
			'Not found (404): The response is not JSON (text/html): "404 Error 404 Error sandbox-proxy"',
		description: STATUS_DESCRIPTIONS[404],
		requests: 1,
	},
	{
		name: 'An HTML error page (502 from a proxy), Max Attempts 2',
		op: 'post',
		options: { maxAttempts: 2 },
		faults: [{ method: 'POST', action: { htmlError: 502 } }],
		message:
			'The API answered 502: The response is not JSON (text/html): "502 Error 502 Error sandbox-proxy" (after 2 attempts)',
		description: 'POST /v1/transfers at <base> (Sandbox).',
		requests: 2,
	},
	{
		name: 'An HTML error page that echoes the Api-Key',
		op: 'post',
		faults: [
			bare(
				500,
				`<html><body><h1>Oops</h1><pre>Api-Key: ${SECRET}</pre></body></html>`,
				'text/html',
			),
		],
		message:
			'The API answered 500: The response is not JSON (text/html): "Oops Api-Key: [redacted]"',
		requests: 1,
	},
	// ------------------------------------------------------------------ an answer that cannot be read
	{
		name: 'POST answered 201 in ISO-8859-1 (not UTF-8)',
		op: 'post',
		faults: [
			{
				method: 'POST',
				action: {
					rawBodyBase64: Buffer.from('{"name":"café"}', 'latin1').toString('base64'),
					status: 201,
					contentType: 'application/json; charset=iso-8859-1',
				},
			},
		],
		message:
			'The API accepted the request (201), but its answer could not be read: The response body is not valid UTF-8 text, so it cannot be JSON',
		description:
			'POST /v1/transfers was applied. Do not send it again under a new Idempotency-Key; a retry with the same key gets the stored answer.',
		requests: 1,
	},
];

function expectText(actual: string | undefined, expected: string | RegExp, base: string) {
	if (typeof expected === 'string') expect(actual).toBe(expected.split('<base>').join(base));
	else expect(actual).toMatch(expected);
}

/** Everything the user or a log can see of an error: message, description, details, error item. */
function visibleText(run: NodeRun): string {
	const error = run.error as
		| (Error & { description?: string; errorResponse?: unknown; context?: unknown })
		| undefined;
	return [
		JSON.stringify(error ?? {}),
		error?.message,
		error?.description,
		JSON.stringify(error?.errorResponse ?? {}),
		JSON.stringify(run.items),
	].join('\n');
}

describe('bad input: clear messages, no needless request, no secret shown', () => {
	const suite = useSandbox({}, { webhookSecret: WEBHOOK_SECRET });

	async function run(c: Case, continueOnFail: boolean): Promise<NodeRun> {
		suite.sandbox.reset();
		if (c.credential)
			suite.harness.credentials[TEST_CREDENTIAL_ID] = sandboxCredential(suite.sandbox.baseUrl, {
				webhookSecret: WEBHOOK_SECRET,
				...c.credential,
			});
		if (c.faults) suite.sandbox.setFaults(c.faults);
		const parameters =
			c.op === 'post'
				? { ...postTransfersParameters({}), ...c.params }
				: { resource: 'account', operation: 'getAll', returnAll: false, limit: 5, ...c.params };
		return await runActionWorkflow(suite.harness, {
			inputItems: [{ amount: 1 }],
			parameters: { ...parameters, options: { maxAttempts: 1, retryBaseDelay: 1, ...c.options } },
			settings: continueOnFail ? { onError: 'continueRegularOutput' } : {},
		});
	}

	it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const stopped = await run(c, false);
		expect(suite.sandbox.stats().requests).toBe(c.requests);
		for (const leak of [SECRET, WEBHOOK_SECRET]) expect(visibleText(stopped)).not.toContain(leak);
		expect(stopped.error).toBeDefined();
		expect(stopped.items).toHaveLength(0);
		expectText(stopped.error?.message, c.message, suite.sandbox.baseUrl);
		if (c.description !== undefined)
			expectText(stopped.error?.description, c.description, suite.sandbox.baseUrl);
		// Nothing was applied before the one item failed: the error lists nothing (badInputItems.test.ts: a run stopped halfway).
		expect(stopped.error?.context).not.toHaveProperty('itemsApplied');

		// Continue On Fail: the same message on an error item paired with the input, nothing else sent.
		const continued = await run(c, true);
		expect(suite.sandbox.stats().requests).toBe(c.requests);
		expect(continued.error).toBeUndefined();
		expect(continued.items).toHaveLength(1);
		expect((continued.items[0].pairedItem as { item: number }).item).toBe(0);
		expectText(continued.items[0].json.error as string, c.message, suite.sandbox.baseUrl);
		for (const leak of [SECRET, WEBHOOK_SECRET]) expect(visibleText(continued)).not.toContain(leak);
	});

	it('an empty Endpoint is stopped by n8n itself before the node runs (required parameter)', async () => {
		await expect(
			runActionWorkflow(suite.harness, {
				parameters: { resource: 'request', operation: 'post', endpoint: '', body: '{}' },
			}),
		).rejects.toThrow('Parameter "Endpoint" is required');
		expect(suite.sandbox.stats().requests).toBe(0);
	});

	it('one bad item among good ones: the good ones are sent, the bad one sends nothing', async () => {
		const result = await runActionWorkflow(suite.harness, {
			inputItems: [{ body: '{"amount":1}' }, { body: '[1]' }, { body: '{"amount":3}' }],
			parameters: {
				resource: 'request',
				operation: 'post',
				endpoint: '/transfers',
				body: '={{ $json.body }}',
				options: { concurrency: 1 },
			},
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.items.map((item) => item.json.error ?? item.json.amount)).toEqual([
			1,
			'The Body must be a JSON object ({ ... }), not an array',
			3,
		]);
		expect(suite.sandbox.stats().requests).toBe(2);
		expect(suite.sandbox.stats().records).toBe(2);
	});
});
