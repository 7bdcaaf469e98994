'use strict';

const { createPrng } = require('./prng');
const { numberOption } = require('./options');

/**
 * A realistic API's timing: every answer comes after a latency (fixed + seeded jitter), and each API key has
 * a token bucket: `burst` requests at once, refilled at `perSecond`. A request that finds the bucket empty
 * gets 429 with `Retry-After` in whole seconds (at least 1, as HTTP allows no less). With `headers`, every
 * answer says how much is left: `ietf` (RateLimit-Limit/Remaining/Reset and RateLimit-Policy
 * `50;w=1;burst=10`) or `x` (X-RateLimit-Limit/Remaining and a Unix-time Reset, the older convention).
 *
 * @typedef {{ perSecond: number, burst?: number, headers?: 'ietf'|'x'|false|null }} RateLimitOptions what a test
 *   gives (`burst` default 1)
 * @typedef {{ fixedMs?: number, jitterMs?: number }} LatencyOptions
 * @typedef {{ perSecond: number, burst: number, headers: 'ietf'|'x'|false }} RateLimitConfig
 * @typedef {{ ok: boolean, retryAfterSeconds: number, headers: Record<string, string> }} Verdict
 */

/** @param {LatencyOptions|null|undefined} config */
const latencyOf = (config) => ({
	fixedMs: numberOption(config?.fixedMs, 0, 'fixedMs', 0),
	jitterMs: numberOption(config?.jitterMs, 0, 'jitterMs', 0),
});

/**
 * @param {RateLimitOptions|null|undefined} config
 * @returns {RateLimitConfig|null}
 */
function rateLimitOf(config) {
	if (config?.perSecond == null) return null;
	return {
		perSecond: numberOption(config.perSecond, 0, 'perSecond', 0.001),
		burst: numberOption(config.burst, 1, 'burst', 1, true),
		headers: config.headers || false,
	};
}

class Latency {
	/** @param {LatencyOptions|null|undefined} config null or undefined: no latency */
	constructor(config) {
		this.config = latencyOf(config);
		this.prng = createPrng();
	}

	/** @param {LatencyOptions|null|undefined} config */
	configure(config) {
		this.config = latencyOf(config);
	}

	/** Milliseconds before this answer goes out. */
	nextMs() {
		const { fixedMs, jitterMs } = this.config;
		return jitterMs === 0 ? fixedMs : fixedMs + this.prng() * jitterMs;
	}
}

class KeyRateLimit {
	/** @param {RateLimitOptions|null|undefined} config null or undefined: no limit */
	constructor(config) {
		this.config = rateLimitOf(config);
		/** @type {Map<string, { tokens: number, at: number }>} */
		this.buckets = new Map();
		this.refused = 0;
	}

	/** @param {RateLimitOptions|null|undefined} config */
	configure(config) {
		this.config = rateLimitOf(config);
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
			headers: rateLimitHeaders(cfg, bucket.tokens, now),
		};
	}
}

/**
 * @param {RateLimitConfig} cfg
 * @param {number} tokens
 * @param {number} now
 * @returns {Record<string, string>}
 */
function rateLimitHeaders(cfg, tokens, now) {
	const remaining = String(Math.floor(tokens));
	const secondsToFull = Math.ceil((cfg.burst - tokens) / cfg.perSecond);
	if (cfg.headers === 'ietf')
		return {
			'ratelimit-limit': String(cfg.perSecond),
			'ratelimit-remaining': remaining,
			'ratelimit-reset': String(secondsToFull),
			'ratelimit-policy': `${cfg.perSecond};w=1;burst=${cfg.burst}`,
		};
	if (cfg.headers === 'x')
		return {
			'x-ratelimit-limit': String(cfg.perSecond),
			'x-ratelimit-remaining': remaining,
			'x-ratelimit-reset': String(Math.ceil(now / 1000) + secondsToFull),
		};
	return {};
}

module.exports = { KeyRateLimit, Latency };
