'use strict';

const { createPrng } = require('./prng');

/**
 * A realistic API's timing: every answer comes after a latency (fixed + jitter), and each API key has
 * a token bucket: `burst` requests at once, refilled at `perSecond`. A request that finds the bucket
 * empty gets 429 with `Retry-After` in whole seconds (at least 1, as HTTP allows no less). With
 * `headers`, every answer says how much is left: `ietf` (RateLimit-Limit/Remaining/Reset and
 * RateLimit-Policy `50;w=1;burst=10`) or `x` (X-RateLimit-Limit/Remaining and a Unix-time Reset, the
 * older convention).
 *
 * @typedef {'ietf'|'x'} HeaderStyle
 * @typedef {{ perSecond: number, burst?: number, headers?: boolean|HeaderStyle|null }} RateLimitOptions what a test
 *   or a control request gives (`burst` default 1; `headers: true` is `'ietf'`)
 * @typedef {{ fixedMs?: number, jitterMs?: number }} LatencyOptions
 * @typedef {{ perSecond: number, burst: number, headers: HeaderStyle|null }} RateLimitConfig
 * @typedef {{ fixedMs: number, jitterMs: number }} LatencyConfig
 * @typedef {{ ok: boolean, retryAfterSeconds: number, headers: Record<string, string> }} Verdict
 */

class RateLimitConfigError extends Error {}

const HEADER_STYLES = ['ietf', 'x'];

/**
 * @param {unknown} value
 * @param {string} name
 * @param {number} min
 */
function numberAtLeast(value, name, min) {
	const n = Number(value);
	if (!Number.isFinite(n) || n < min)
		throw new RateLimitConfigError(`${name} must be a number >= ${min}`);
	return n;
}

/**
 * @param {unknown} input `{ perSecond, burst?, headers? }`; null, undefined or `{}` turns the limit off
 * @returns {RateLimitConfig|null}
 */
function parseRateLimit(input) {
	if (input === null || input === undefined) return null;
	if (typeof input !== 'object' || Array.isArray(input))
		throw new RateLimitConfigError('rate limit must be an object {perSecond, burst, headers}');
	const cfg = /** @type {Record<string, unknown>} */ (input);
	if (cfg.perSecond === undefined || cfg.perSecond === null) return null;
	const perSecond = numberAtLeast(cfg.perSecond, 'perSecond', 0.001);
	const burst = Math.floor(numberAtLeast(cfg.burst ?? 1, 'burst', 1));
	const headers =
		cfg.headers === true
			? 'ietf'
			: cfg.headers === false || cfg.headers === undefined || cfg.headers === null
				? null
				: cfg.headers;
	if (headers !== null && !HEADER_STYLES.includes(String(headers)))
		throw new RateLimitConfigError(
			`headers must be one of ${HEADER_STYLES.join(', ')}, true or false`,
		);
	return { perSecond, burst, headers: /** @type {HeaderStyle|null} */ (headers) };
}

/**
 * @param {unknown} input `{ fixedMs?, jitterMs? }`; null or undefined: no latency
 * @returns {LatencyConfig}
 */
function parseLatency(input) {
	if (input === null || input === undefined) return { fixedMs: 0, jitterMs: 0 };
	if (typeof input !== 'object' || Array.isArray(input))
		throw new RateLimitConfigError('latency must be an object {fixedMs, jitterMs}');
	const cfg = /** @type {Record<string, unknown>} */ (input);
	return {
		fixedMs: numberAtLeast(cfg.fixedMs ?? 0, 'fixedMs', 0),
		jitterMs: numberAtLeast(cfg.jitterMs ?? 0, 'jitterMs', 0),
	};
}

class Latency {
	/** @param {unknown} config */
	constructor(config) {
		/** @type {LatencyConfig} */
		this.config = parseLatency(config);
		this.prng = createPrng('latency');
	}

	/** @param {unknown} config */
	configure(config) {
		this.config = parseLatency(config);
	}

	/** Milliseconds before this answer goes out. */
	nextMs() {
		const { fixedMs, jitterMs } = this.config;
		return jitterMs === 0 ? fixedMs : fixedMs + this.prng() * jitterMs;
	}
}

class KeyRateLimit {
	/** @param {unknown} config */
	constructor(config) {
		/** @type {RateLimitConfig|null} */
		this.config = parseRateLimit(config);
		/** @type {Map<string, { tokens: number, at: number }>} */
		this.buckets = new Map();
		this.refused = 0;
	}

	/** @param {unknown} config */
	configure(config) {
		this.config = parseRateLimit(config);
		this.buckets.clear();
	}

	/** Full buckets again, counters to zero (the configuration stays). */
	reset() {
		this.buckets.clear();
		this.refused = 0;
	}

	/**
	 * Takes a token for `key` if there is one.
	 * @param {string} key
	 * @param {number} [now] ms
	 * @returns {Verdict|null} null when no limit is configured
	 */
	take(key, now = Date.now()) {
		const cfg = this.config;
		if (cfg === null) return null;
		const bucket = this.buckets.get(key) ?? { tokens: cfg.burst, at: now };
		bucket.tokens = Math.min(cfg.burst, bucket.tokens + ((now - bucket.at) * cfg.perSecond) / 1000);
		bucket.at = now;
		this.buckets.set(key, bucket);
		const ok = bucket.tokens >= 1;
		if (ok) bucket.tokens -= 1;
		else this.refused++;
		return {
			ok,
			retryAfterSeconds: ok ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / cfg.perSecond)),
			headers: this.headers(cfg, bucket.tokens, now),
		};
	}

	/**
	 * @param {RateLimitConfig} cfg
	 * @param {number} tokens
	 * @param {number} now
	 * @returns {Record<string, string>}
	 */
	headers(cfg, tokens, now) {
		const remaining = String(Math.floor(tokens));
		const secondsToFull = Math.ceil((cfg.burst - tokens) / cfg.perSecond);
		if (cfg.headers === 'ietf') {
			return {
				'ratelimit-limit': String(cfg.perSecond),
				'ratelimit-remaining': remaining,
				'ratelimit-reset': String(secondsToFull),
				'ratelimit-policy': `${cfg.perSecond};w=1;burst=${cfg.burst}`,
			};
		}
		if (cfg.headers === 'x') {
			return {
				'x-ratelimit-limit': String(cfg.perSecond),
				'x-ratelimit-remaining': remaining,
				'x-ratelimit-reset': String(Math.ceil(now / 1000) + secondsToFull),
			};
		}
		return {};
	}
}

module.exports = {
	KeyRateLimit,
	Latency,
	RateLimitConfigError,
	parseRateLimit,
	parseLatency,
	HEADER_STYLES,
};
