import { isRetryableStatus, nextRetryDelayMs, parseRetryAfterMs } from '../../nodes/TenantApi/transport/retryPolicy';

const policy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 10_000, maxRetryAfterMs: 30_000 };

describe('retry policy', () => {
	it('retries 408, 425, 429 and 5xx gateway/server errors only', () => {
		expect([408, 425, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
		expect([400, 401, 403, 404, 409, 422, 501, 505].some(isRetryableStatus)).toBe(false);
	});

	it('backs off exponentially with jitter between half and all of the ceiling', () => {
		expect(nextRetryDelayMs(policy, 1, undefined, () => 0)).toBe(250);
		expect(nextRetryDelayMs(policy, 1, undefined, () => 1)).toBe(500);
		expect(nextRetryDelayMs(policy, 2, undefined, () => 1)).toBe(1000);
		expect(nextRetryDelayMs(policy, 3, undefined, () => 0.5)).toBe(1500);
		expect(nextRetryDelayMs({ ...policy, maxAttempts: 20 }, 15, undefined, () => 1)).toBe(10_000);
	});

	it('stops after maxAttempts', () => {
		expect(nextRetryDelayMs(policy, 4)).toBeUndefined();
		expect(nextRetryDelayMs({ ...policy, maxAttempts: 1 }, 1)).toBeUndefined();
	});

	it('honours Retry-After, capped', () => {
		expect(nextRetryDelayMs(policy, 1, 2000)).toBe(2000);
		expect(nextRetryDelayMs(policy, 1, 3_600_000)).toBe(30_000);
		expect(nextRetryDelayMs(policy, 4, 1000)).toBeUndefined();
	});

	it('reads Retry-After as seconds or an HTTP date', () => {
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(parseRetryAfterMs('3', now)).toBe(3000);
		expect(parseRetryAfterMs(['1.5'], now)).toBe(1500);
		expect(parseRetryAfterMs('Sun, 22 Nov 2026 10:00:07 GMT', now)).toBe(7000);
		expect(parseRetryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
		expect(parseRetryAfterMs('soon', now)).toBeUndefined();
		expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
	});
});
