/**
 * What an answer's rate-limit headers say, in the forms APIs send them: the IETF draft's
 * `RateLimit-Limit/Remaining/Reset` and `RateLimit-Policy` (`50;w=1`, or `"name";q=50;w=1`), and
 * the older `X-RateLimit-*` / `X-Rate-Limit-*` (GitHub, Twitter, Okta), whose Reset is often a Unix
 * time.
 */

export interface RatePolicy {
	/** Requests allowed per second, from a policy's quota and window. */
	perSecond: number;
	/** Requests that may go at once (`burst=`), when the policy says. */
	burst?: number;
}

export interface RateLimitInfo {
	/** Requests left before the API answers 429. */
	remaining?: number;
	/** Milliseconds until the quota is back. */
	resetMs?: number;
	policy?: RatePolicy;
}

const PREFIXES = ['ratelimit-', 'x-ratelimit-', 'x-rate-limit-'];
/** The names to look up, built once (this runs on every answer). */
const NAMES = {
	remaining: PREFIXES.map((prefix) => `${prefix}remaining`),
	reset: PREFIXES.map((prefix) => `${prefix}reset`),
	policy: PREFIXES.map((prefix) => `${prefix}policy`),
};

/** A Reset above this is a Unix time (seconds), not a number of seconds from now. */
const UNIX_TIME_FROM = 1_000_000_000;

function firstValue(headers: Record<string, unknown>, names: string[]): string | undefined {
	for (const name of names) {
		const value = headers[name];
		const text = Array.isArray(value) ? value[0] : value;
		if (typeof text === 'string' && text.trim() !== '') return text.trim();
		if (typeof text === 'number') return String(text);
	}
	return undefined;
}

/** The leading number of `12`, `12, 50;w=60` or `12;w=1`. */
function leadingNumber(text: string | undefined): number | undefined {
	const match = text === undefined ? null : /^\s*(\d+(?:\.\d+)?)/.exec(text);
	return match ? Number(match[1]) : undefined;
}

function resetMs(text: string | undefined, nowMs: number): number | undefined {
	const seconds = leadingNumber(text);
	if (seconds === undefined) return undefined;
	return seconds >= UNIX_TIME_FROM ? Math.max(0, seconds * 1000 - nowMs) : seconds * 1000;
}

/** One policy item: `50;w=1;burst=10` or `"default";q=50;w=1`. */
function policyItem(item: string): RatePolicy | undefined {
	const [head, ...parameters] = item.split(';').map((part) => part.trim());
	const values = new Map<string, number>();
	for (const parameter of parameters) {
		const [name, value] = parameter.split('=').map((part) => part.trim().toLowerCase());
		const number = Number(value);
		if (name && Number.isFinite(number)) values.set(name, number);
	}
	const quota = /^\d+(\.\d+)?$/.test(head) ? Number(head) : values.get('q');
	const window = values.get('w');
	if (quota === undefined || window === undefined || !(quota > 0) || !(window > 0))
		return undefined;
	const burst = values.get('burst');
	return {
		perSecond: quota / window,
		...(burst !== undefined && burst >= 1 ? { burst: Math.floor(burst) } : {}),
	};
}

/** The slowest of the policies listed: over a long run that is the one that binds. */
function readPolicy(text: string | undefined): RatePolicy | undefined {
	if (text === undefined) return undefined;
	let slowest: RatePolicy | undefined;
	for (const item of text.split(',')) {
		const policy = policyItem(item);
		if (policy && (!slowest || policy.perSecond < slowest.perSecond)) slowest = policy;
	}
	return slowest;
}

/** None of these headers: undefined. Header names must be lower case (as Node gives them). */
export function readRateLimitHeaders(
	headers: Record<string, unknown>,
	nowMs: number,
): RateLimitInfo | undefined {
	const remaining = leadingNumber(firstValue(headers, NAMES.remaining));
	const reset = resetMs(firstValue(headers, NAMES.reset), nowMs);
	const policy = readPolicy(firstValue(headers, NAMES.policy));
	if (remaining === undefined && reset === undefined && policy === undefined) return undefined;
	return {
		...(remaining !== undefined ? { remaining: Math.floor(remaining) } : {}),
		...(reset !== undefined ? { resetMs: reset } : {}),
		...(policy ? { policy } : {}),
	};
}
