import { inProgressOptionFields } from '../../nodes/TenantApi/actions/common/parameters';
import {
	DEFAULT_IN_PROGRESS,
	isInProgressAnswer,
	isRetryableStatus,
	nextRetryDelayMs,
	parseInProgressMatches,
	parseRetryAfterMs,
} from '../../nodes/TenantApi/transport/retryPolicy';

const policy = {
	maxAttempts: 4,
	baseDelayMs: 500,
	inProgress: DEFAULT_IN_PROGRESS,
};

describe('retry policy', () => {
	it('retries 408, 425 and 5xx gateway/server errors only (a 429 is waited out by the rate limiter: test/engine/rateLimit.test.ts)', () => {
		expect([408, 425, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
		expect([400, 401, 403, 404, 409, 422, 429, 501, 505].some(isRetryableStatus)).toBe(false);
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

	it('recognises "still in progress" answers by status and by words in the code or message', () => {
		const stripe = {
			code: 'idempotency_key_in_use',
			message: 'There is currently another in-progress request using this Idempotent Key',
		};
		expect(isInProgressAnswer(DEFAULT_IN_PROGRESS, 409, stripe)).toBe(true);
		expect(isInProgressAnswer(DEFAULT_IN_PROGRESS, 409, { code: 'request_in_progress' })).toBe(
			true,
		);
		expect(
			isInProgressAnswer(DEFAULT_IN_PROGRESS, 409, { message: 'Request is still IN PROGRESS' }),
		).toBe(true);
		expect(
			isInProgressAnswer(DEFAULT_IN_PROGRESS, 409, {
				code: 'idempotency_key_reuse',
				message: 'already used with a different request',
			}),
		).toBe(false);
		expect(isInProgressAnswer(DEFAULT_IN_PROGRESS, 409, {})).toBe(false);
		expect(isInProgressAnswer(DEFAULT_IN_PROGRESS, 423, stripe)).toBe(false);
		const custom = { status: 423, matches: parseInProgressMatches(' LOCKED ,, processing ') };
		expect(custom.matches).toEqual(['locked', 'processing']);
		expect(isInProgressAnswer(custom, 423, { code: 'resource_locked' })).toBe(true);
		expect(
			isInProgressAnswer({ status: 409, matches: parseInProgressMatches('') }, 409, stripe),
		).toBe(false);
	});

	it('offers the same defaults in the node options as it applies without them', () => {
		const defaults = Object.fromEntries(
			inProgressOptionFields.map((field) => [field.name, field.default]),
		);
		expect(defaults).toEqual({
			inProgressStatus: DEFAULT_IN_PROGRESS.status,
			inProgressMatch: DEFAULT_IN_PROGRESS.matches.join(', '),
		});
	});
});
