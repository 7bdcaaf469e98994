/** When and how long to wait before trying a request again. Pure: the caller sleeps and re-sends. */

export interface RetryPolicy {
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** Upper bound on how long a Retry-After header may make us wait. */
	maxRetryAfterMs: number;
}

export const MAX_RETRY_DELAY_MS = 10_000;
export const MAX_RETRY_AFTER_MS = 30_000;

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
	return RETRYABLE_STATUS.has(status);
}

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function parseRetryAfterMs(value: unknown, now = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' || text.trim() === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.round(Number(text.trim()) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/**
 * Delay before attempt `failedAttempt + 1`, or undefined when no attempt is left.
 * Exponential backoff with "equal jitter" (half fixed, half random), unless the server said when.
 */
export function nextRetryDelayMs(
	policy: RetryPolicy,
	failedAttempt: number,
	retryAfterMs?: number,
	random: () => number = Math.random,
): number | undefined {
	if (failedAttempt >= policy.maxAttempts) return undefined;
	if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
