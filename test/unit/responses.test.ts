/**
 * The action node's answers and errors read without n8n. What the user sees of a 401, an HTML error page and a body
 * that is not UTF-8 is test/engine/badInput.test.ts's (the whole message and description, through the node).
 */
import type { FailedRequest } from '../../nodes/TenantApi/transport/errors';
import { answerFailure, apiErrorText } from '../../nodes/TenantApi/transport/errors';
import { networkErrorCode, isAbortError } from '../../nodes/TenantApi/transport/retryPolicy';
import { decodeJsonBody } from '../../nodes/TenantApi/transport/responseBody';
import { parseJsonObjectBody, toOutputJson } from '../../nodes/TenantApi/actions/common/jsonBody';

describe('decodeJsonBody', () => {
	it.each([
		['{"a":1}', { a: 1 }],
		['', undefined],
		[undefined, undefined],
		[' \n', undefined],
	])('parses JSON from bytes, an empty body as empty: %p', (text, value) => {
		const bytes = text === undefined ? undefined : Buffer.from(text);
		expect(decodeJsonBody(bytes, undefined, undefined)).toEqual({ ok: true, value });
	});
	it('quotes a short excerpt of an answer that is not JSON', () => {
		expect(decodeJsonBody(Buffer.from('x'.repeat(500)), 'text/plain', undefined)).toEqual({
			ok: false,
			reason: `The response is not JSON (text/plain): "${'x'.repeat(200)}…"`,
		});
	});
});

const accounts: FailedRequest = { method: 'GET', path: '/v1/accounts' };

/** The failure of `request` answered with `status` after one attempt, as the API client builds it. */
const answered = (
	status: number,
	message: string | undefined,
	request: FailedRequest,
	inProgress = false,
) =>
	answerFailure(
		{
			request,
			itemIndex: 0,
			attempts: 1,
			baseUrl: 'https://api.example.com/v1',
			environment: 'live',
			redact: (text) => text,
		},
		status,
		{ message },
		inProgress,
	);

describe('API error text', () => {
	it.each([
		[{ error: { code: 'c', message: 'm' } }, { code: 'c', message: 'm' }],
		[{ error: 'plain' }, { message: 'plain' }],
		[
			{ message: 'top', code: 'x' },
			{ code: 'x', message: 'top' },
		],
		[{ errors: [{ message: 'first' }] }, { code: undefined, message: 'first' }],
		['nope', {}],
	])('reads the common error shapes: %j', (body, text) => {
		expect(apiErrorText(body)).toEqual(text);
	});
	it('never advises a new key for a request that may have been applied', () => {
		const payout = { method: 'POST', path: '/v1/payouts', idempotencyKey: 'po-7' };
		const inProgress = answered(409, 'Request in progress', payout, true);
		expect(inProgress.message).toBe(
			'The API is still processing an earlier request with this Idempotency-Key (409): Request in progress',
		);
		expect(inProgress.description).toMatch(
			/POST \/v1\/payouts with Idempotency-Key po-7 may already have been applied.*Do not send it under a new key/,
		);
		const conflict = answered(409, undefined, payout);
		expect(conflict.description).toMatch(
			/that earlier request was applied: do not send this one again under a new key unless it is a different operation/,
		);
		expect(`${inProgress.description} ${conflict.description}`).not.toMatch(
			/give each distinct request its own key/,
		);
	});
	it('sends a 431 to the Tenant ID', () => {
		expect(answered(431, undefined, accounts).description).toMatch(/Tenant ID/);
	});
});

describe('network errors', () => {
	it('finds codes behind wrappers', () => {
		expect(networkErrorCode({ message: 'wrapped', cause: { code: 'ECONNRESET' } })).toBe(
			'ECONNRESET',
		);
		expect(networkErrorCode({ code: 'ECONNABORTED', message: 'timeout of 200ms exceeded' })).toBe(
			'ETIMEDOUT',
		);
		expect(networkErrorCode(new Error('socket hang up'))).toBe('ECONNRESET');
		expect(networkErrorCode(new Error('400 bad request'))).toBeUndefined();
		expect(isAbortError({ cause: { name: 'AbortError' } })).toBe(true);
	});
});

describe('JSON body and output', () => {
	const notAnObject = (kind: string) => `The Body must be a JSON object ({ ... }), not ${kind}`;
	it.each([
		['{"amount":', 'The Body is not valid JSON: Unexpected end of JSON input'],
		['{a:1}', /^The Body is not valid JSON: /],
		['{"amount": 1,}', /^The Body is not valid JSON: /],
		['[1,2]', notAnObject('an array')],
		['"x"', notAnObject('a string')],
		['42', notAnObject('a number')],
		['null', notAnObject('null')],
		// What an expression returns is no text: `={{ [$json.amount] }}`.
		[[1], notAnObject('an array')],
	])('refuses the Body %j: %s', (body, message) => {
		expect(() => parseJsonObjectBody(body)).toThrow(message);
	});

	it('accepts objects only', () => {
		expect(parseJsonObjectBody('{"a":1}')).toEqual({ a: 1 });
		expect(parseJsonObjectBody({ a: 1 })).toEqual({ a: 1 });
		expect(parseJsonObjectBody('')).toEqual({});
	});

	it('refuses bodies nested deeper than the limit, as text or as an object, without overflowing the stack', () => {
		const nested = (levels: number, inner = '1') =>
			`${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;
		// Brackets in strings are not levels.
		expect(parseJsonObjectBody(nested(100, '"{{{[[[\\"}"'))).toBeDefined();
		expect(() => parseJsonObjectBody(nested(101))).toThrow(
			'The Body is nested more than 100 levels deep; that many levels are almost certainly a mistake',
		);
		expect(() => parseJsonObjectBody(nested(200_000))).toThrow(/nested more than/);
		const deep = (levels: number) => {
			let value: Record<string, unknown> = {};
			for (let i = 1; i < levels; i++) value = { a: value };
			return value;
		};
		expect(parseJsonObjectBody(deep(100))).toBeDefined();
		expect(() => parseJsonObjectBody(deep(101))).toThrow(/nested more than 100/);
		expect(() => parseJsonObjectBody(deep(5000))).toThrow(/nested more than/);
	});

	it('never outputs a top-level error field on success', () => {
		expect(toOutputJson({ id: 'tr_1', error: null })).toEqual({ id: 'tr_1', apiError: null });
		expect(toOutputJson([1, 2])).toEqual({ data: [1, 2] });
		expect(toOutputJson(undefined)).toEqual({});
	});
});
