import { apiErrorText, describeHttpError } from '../../nodes/TenantApi/transport/errors';
import { networkErrorCode, isAbortError } from '../../nodes/TenantApi/transport/retryPolicy';
import { decodeJsonBody, excerpt } from '../../nodes/TenantApi/transport/responseBody';
import {
	jsonTextDepth,
	MAX_BODY_DEPTH,
	parseJsonObjectBody,
	toOutputJson,
	valueDepth,
} from '../../nodes/TenantApi/actions/common/jsonBody';

describe('decodeJsonBody', () => {
	it('parses JSON from bytes and treats an empty body as empty', () => {
		expect(decodeJsonBody(Buffer.from('{"a":1}'), undefined, [])).toEqual({
			ok: true,
			value: { a: 1 },
		});
		expect(decodeJsonBody(Buffer.alloc(0), undefined, [])).toEqual({ ok: true, value: undefined });
		expect(decodeJsonBody(undefined, undefined, [])).toEqual({ ok: true, value: undefined });
		expect(decodeJsonBody(Buffer.from(' \n'), undefined, [])).toEqual({
			ok: true,
			value: undefined,
		});
	});
	it('explains non-JSON and non-UTF-8 bodies', () => {
		const html = decodeJsonBody(
			Buffer.from('<html><title>502 Bad Gateway</title><body><h1>Bad gateway</h1></body></html>'),
			'text/html; charset=utf-8',
			[],
		);
		expect(html).toEqual({
			ok: false,
			reason: 'The response is not JSON (text/html): "502 Bad Gateway Bad gateway"',
		});
		expect(decodeJsonBody(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), undefined, [])).toMatchObject({
			ok: false,
			reason: expect.stringMatching(/not valid UTF-8/),
		});
	});
	it('keeps excerpts short', () => {
		expect(excerpt('x'.repeat(500))).toHaveLength(201);
	});
});

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
		const { message, description } = describeHttpError(401, undefined, {
			method: 'GET',
			path: '/v1/accounts',
			baseUrl: 'https://api.example.com/v1',
			environment: 'live',
		});
		expect(message).toBe('Authorization failed (401)');
		expect(description).toMatch(/Live Secret Key.*https:\/\/api\.example\.com\/v1.*Public Key/);
	});
	it('never advises a new key for a request that may have been applied', () => {
		const request = {
			method: 'POST',
			path: '/v1/payouts',
			baseUrl: 'https://api.example.com/v1',
			environment: 'live',
			idempotencyKey: 'po-7',
		};
		const inProgress = describeHttpError(409, 'Request in progress', {
			...request,
			inProgress: true,
		});
		expect(inProgress.message).toBe(
			'The API is still processing an earlier request with this Idempotency-Key (409): Request in progress',
		);
		expect(inProgress.description).toMatch(
			/POST \/v1\/payouts with Idempotency-Key po-7 may already have been applied.*Do not send it under a new key/,
		);
		const conflict = describeHttpError(409, undefined, request);
		expect(conflict.description).toMatch(
			/that earlier request was applied: do not send this one again under a new key unless it is a different operation/,
		);
		expect(`${inProgress.description} ${conflict.description}`).not.toMatch(
			/give each distinct request its own key/,
		);
	});
	it('sends a 431 to the Tenant ID', () => {
		expect(
			describeHttpError(431, undefined, {
				method: 'GET',
				path: '/v1/accounts',
				baseUrl: 'b',
				environment: 'sandbox',
			}).description,
		).toMatch(/Tenant ID/);
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
		const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
		expect(jsonTextDepth(nested(3))).toBe(3);
		expect(jsonTextDepth('{"a":"{{{[[[", "b":"\\"}"}')).toBe(1);
		expect(parseJsonObjectBody(nested(MAX_BODY_DEPTH))).toBeDefined();
		expect(() => parseJsonObjectBody(nested(5000))).toThrow(
			`The Body is nested more than ${MAX_BODY_DEPTH} levels deep`,
		);
		expect(() => parseJsonObjectBody(nested(200_000))).toThrow(/nested more than/);
		let deep: Record<string, unknown> = {};
		for (let i = 0; i < 5000; i++) deep = { a: deep };
		expect(valueDepth(deep)).toBe(MAX_BODY_DEPTH + 1);
		expect(() => parseJsonObjectBody(deep)).toThrow(/nested more than/);
	});
	it('never outputs a top-level error field on success', () => {
		expect(toOutputJson({ id: 1, error: null })).toEqual({ id: 1, apiError: null });
		expect(toOutputJson([1])).toEqual({ data: [1] });
		expect(toOutputJson(undefined)).toEqual({});
	});
});
