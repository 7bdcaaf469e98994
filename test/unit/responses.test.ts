import type { FailedRequest } from '../../nodes/TenantApi/transport/errors';
import { answerFailure, apiErrorText } from '../../nodes/TenantApi/transport/errors';
import { networkErrorCode, isAbortError } from '../../nodes/TenantApi/transport/retryPolicy';
import { decodeJsonBody } from '../../nodes/TenantApi/transport/responseBody';
import { parseJsonObjectBody, toOutputJson } from '../../nodes/TenantApi/actions/common/jsonBody';

describe('decodeJsonBody', () => {
	it('parses JSON from bytes and treats an empty body as empty', () => {
		expect(decodeJsonBody(Buffer.from('{"a":1}'), undefined, undefined)).toEqual({
			ok: true,
			value: { a: 1 },
		});
		expect(decodeJsonBody(Buffer.alloc(0), undefined, undefined)).toEqual({
			ok: true,
			value: undefined,
		});
		expect(decodeJsonBody(undefined, undefined, undefined)).toEqual({ ok: true, value: undefined });
		expect(decodeJsonBody(Buffer.from(' \n'), undefined, undefined)).toEqual({
			ok: true,
			value: undefined,
		});
	});
	it('explains non-JSON and non-UTF-8 bodies', () => {
		const html = decodeJsonBody(
			Buffer.from('<html><title>502 Bad Gateway</title><body><h1>Bad gateway</h1></body></html>'),
			'text/html; charset=utf-8',
			undefined,
		);
		expect(html).toEqual({
			ok: false,
			reason: 'The response is not JSON (text/html): "502 Bad Gateway Bad gateway"',
		});
		expect(
			decodeJsonBody(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), undefined, undefined),
		).toMatchObject({
			ok: false,
			reason: expect.stringMatching(/not valid UTF-8/),
		});
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
	it('reads the common error shapes', () => {
		expect(apiErrorText({ error: { code: 'c', message: 'm' } })).toEqual({
			code: 'c',
			message: 'm',
		});
		expect(apiErrorText({ error: 'plain' })).toEqual({ message: 'plain' });
		expect(apiErrorText({ message: 'top', code: 'x' })).toEqual({ code: 'x', message: 'top' });
		expect(apiErrorText({ errors: [{ message: 'first' }] })).toEqual({
			code: undefined,
			message: 'first',
		});
		expect(apiErrorText('nope')).toEqual({});
	});
	it('says what to check for 401 and names the environment', () => {
		const { message, description } = answered(401, undefined, accounts);
		expect(message).toBe('Authorization failed (401)');
		expect(description).toMatch(/Live Secret Key.*https:\/\/api\.example\.com\/v1.*Public Key/);
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
	it('accepts objects only', () => {
		expect(parseJsonObjectBody('{"a":1}')).toEqual({ a: 1 });
		expect(parseJsonObjectBody({ a: 1 })).toEqual({ a: 1 });
		expect(parseJsonObjectBody('')).toEqual({});
		expect(() => parseJsonObjectBody('{a:1}')).toThrow(/not valid JSON/);
		expect(() => parseJsonObjectBody('[1]')).toThrow(/not an array/);
		expect(() => parseJsonObjectBody('3')).toThrow(/not a number/);
		expect(() => parseJsonObjectBody('null')).toThrow(/not null/);
	});
	it('refuses bodies nested deeper than the limit, as text or as an object, without overflowing the stack', () => {
		const nested = (levels: number, inner = '1') =>
			`${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;
		// Brackets in strings are not levels.
		expect(parseJsonObjectBody(nested(100, '"{{{[[[\\"}"'))).toBeDefined();
		expect(() => parseJsonObjectBody(nested(101))).toThrow(
			'The Body is nested more than 100 levels deep',
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
		expect(toOutputJson({ id: 1, error: null })).toEqual({ id: 1, apiError: null });
		expect(toOutputJson([1])).toEqual({ data: [1] });
		expect(toOutputJson(undefined)).toEqual({});
	});
});
