/**
 * When and how long to wait before trying a request again, and which failures are worth it
 * (statuses, "still in progress" answers, network failures behind n8n's error wrappers). Pure: the
 * caller sleeps and re-sends.
 */

/**
 * How the API says "a request with this Idempotency-Key is still being processed" (Stripe: 409
 * `idempotency_key_in_use`). Such a request may already be applied: it is retried with the same
 * key, never reported as a plain conflict. Matching words are compared with `-` and `_` read as
 * spaces.
 */
export interface InProgressRule {
	status: number;
	/** Words found in the API's error code or message; empty: never treated as in progress. */
	matches: string[];
}

export interface RetryPolicy {
	maxAttempts: number;
	baseDelayMs: number;
	inProgress: InProgressRule;
}

/** The longest wait between attempts; a Retry-After header may ask for up to MAX_RETRY_AFTER_MS. */
export const MAX_RETRY_DELAY_MS = 10_000;
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * Statuses retried with the same request and key, using up Max Attempts. 501 and 505 are left out:
 * they never get better. 429 is not here: the rate limiter waits it out without using up an
 * attempt.
 */
const RETRYABLE_STATUSES: readonly number[] = [408, 425, 500, 502, 503, 504];

export const DEFAULT_IN_PROGRESS: InProgressRule = {
	status: 409,
	matches: ['in progress', 'key in use'],
};

export function isRetryableStatus(status: number): boolean {
	return RETRYABLE_STATUSES.includes(status);
}

const normalise = (text: string) =>
	text
		.toLowerCase()
		.replace(/[-_\s]+/g, ' ')
		.trim();

/** Reads a comma-separated list such as `in progress, key in use`. */
export function parseInProgressMatches(text: unknown): string[] {
	return String(text ?? '')
		.split(',')
		.map(normalise)
		.filter((word) => word !== '');
}

export function isInProgressAnswer(
	rule: InProgressRule,
	status: number,
	apiText: { code?: string; message?: string },
): boolean {
	if (status !== rule.status || rule.matches.length === 0) return false;
	const said = normalise(`${apiText.code ?? ''} ${apiText.message ?? ''}`);
	return rule.matches.some((word) => said.includes(normalise(word)));
}

/** Transport failures (no HTTP response) that are retried. */
const NETWORK_CODES = new Set(
	`ECONNRESET ECONNREFUSED ECONNABORTED ETIMEDOUT ESOCKETTIMEDOUT EPIPE EAI_AGAIN ENETUNREACH
	EHOSTUNREACH UND_ERR_SOCKET ERR_SOCKET_CONNECTION_TIMEOUT ERR_STREAM_PREMATURE_CLOSE`.split(/\s+/),
);

interface ErrorLike {
	code?: unknown;
	message?: unknown;
	cause?: unknown;
	name?: unknown;
}

function* errorChain(error: unknown): Generator<ErrorLike> {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		yield current as ErrorLike;
		current = (current as ErrorLike).cause;
	}
}

/** The network error code (e.g. ECONNRESET, ETIMEDOUT) if the error is a transport failure. */
export function networkErrorCode(error: unknown): string | undefined {
	for (const link of errorChain(error)) {
		if (typeof link.code === 'string' && NETWORK_CODES.has(link.code)) {
			return link.code === 'ECONNABORTED' ? 'ETIMEDOUT' : link.code;
		}
		const message = typeof link.message === 'string' ? link.message : '';
		if (/socket hang up/i.test(message)) return 'ECONNRESET';
		if (/timeout of \d+ms exceeded|timed out/i.test(message)) return 'ETIMEDOUT';
	}
	return undefined;
}

/** The request was aborted (e.g. the execution was cancelled): not retried. */
export function isAbortError(error: unknown): boolean {
	return [...errorChain(error)].some(
		(link) =>
			link.name === 'AbortError' || link.code === 'ERR_CANCELED' || link.name === 'CanceledError',
	);
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
	if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
	const ceiling = Math.min(MAX_RETRY_DELAY_MS, policy.baseDelayMs * 2 ** (failedAttempt - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
