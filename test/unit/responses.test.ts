/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
import { apiErrorText, describeHttpError, redactSecret } from '../../nodes/TenantApi/transport/apiErrorMessage';
import { networkErrorCode, isAbortError } from '../../nodes/TenantApi/transport/networkError';
import { decodeJsonBody, excerpt, MAX_RESPONSE_BYTES } from '../../nodes/TenantApi/transport/responseBody';
import { parseJsonObjectBody, toOutputJson } from '../../nodes/TenantApi/actions/request/jsonBody';
import { mapWithConcurrency } from '../../nodes/TenantApi/transport/concurrency';

describe('decodeJsonBody', () => {
	it('parses JSON from bytes and treats an empty body as empty', () => {
		expect(decodeJsonBody(Buffer.from('{"a":1}'))).toEqual({ ok: true, empty: false, value: { a: 1 } });
		expect(decodeJsonBody(Buffer.alloc(0))).toEqual({ ok: true, empty: true, value: undefined });
		expect(decodeJsonBody(undefined)).toEqual({ ok: true, empty: true, value: undefined });
		expect(decodeJsonBody(' \n')).toEqual({ ok: true, empty: true, value: undefined });
	});
	it('explains non-JSON, non-UTF-8 and oversized bodies', () => {
		const html = decodeJsonBody(Buffer.from('<html><title>502 Bad Gateway</title><body><h1>Bad gateway</h1></body></html>'), 'text/html; charset=utf-8');
		expect(html).toEqual({ ok: false, reason: 'The response is not JSON (text/html): "502 Bad Gateway Bad gateway"' });
		expect(decodeJsonBody(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))).toMatchObject({ ok: false, reason: expect.stringMatching(/not valid UTF-8/) });
		expect(decodeJsonBody(Buffer.alloc(MAX_RESPONSE_BYTES + 1, 0x20))).toMatchObject({ ok: false, reason: expect.stringMatching(/MiB/) });
	});
	it('keeps excerpts short', () => {
		expect(excerpt('x'.repeat(500))).toHaveLength(201);
	});
});

describe('API error text', () => {
	it('reads the common error shapes', () => {
		expect(apiErrorText({ error: { code: 'c', message: 'm' } })).toEqual({ code: 'c', message: 'm' });
		expect(apiErrorText({ error: 'plain' })).toEqual({ message: 'plain' });
		expect(apiErrorText({ message: 'top', code: 'x' })).toEqual({ code: 'x', message: 'top' });
		expect(apiErrorText({ errors: [{ message: 'first' }] })).toEqual({ code: undefined, message: 'first' });
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
	it('redacts the secret', () => {
		expect(redactSecret('key sk_abc123 echoed sk_abc123', 'sk_abc123')).toBe('key [redacted] echoed [redacted]');
	});
});

describe('network errors', () => {
	it('finds codes behind wrappers', () => {
		expect(networkErrorCode({ message: 'wrapped', cause: { code: 'ECONNRESET' } })).toBe('ECONNRESET');
		expect(networkErrorCode({ code: 'ECONNABORTED', message: 'timeout of 200ms exceeded' })).toBe('ETIMEDOUT');
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
	it('never outputs a top-level error field on success', () => {
		expect(toOutputJson({ id: 1, error: null })).toEqual({ id: 1, apiError: null });
		expect(toOutputJson([1])).toEqual({ data: [1] });
		expect(toOutputJson(undefined)).toEqual({});
	});
});

describe('mapWithConcurrency', () => {
	it('keeps order and never exceeds the limit', async () => {
		let active = 0;
		let peak = 0;
		const result = await mapWithConcurrency(20, 4, async (i) => {
			active++;
			peak = Math.max(peak, active);
			await new Promise((resolve) => setTimeout(resolve, (20 - i) % 5));
			active--;
			return i * 2;
		});
		expect(result).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
		expect(peak).toBe(4);
	});
});
