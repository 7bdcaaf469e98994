'use strict';

const { createPrng } = require('./prng');
const { numberOption } = require('./options');

/**
 * A realistic API's timing: a latency before every answer, and a token bucket per API key (sandbox/README.md "Latency
 * and rate limit").
 *
 * @typedef {{ perSecond: number, burst?: number, headers?: 'ietf'|'x'|false|null }} RateLimitOptions (`burst` default 1)
 * @typedef {{ fixedMs?: number, jitterMs?: number }} LatencyOptions
 * @typedef {{ perSecond: number, burst: number, headers: 'ietf'|'x'|false }} RateLimitConfig
 * @typedef {{ ok: boolean, retryAfterSeconds: number, headers: Record<string, string> }} Verdict
 */

class Latency {
	prng = createPrng();
	config = { fixedMs: 0, jitterMs: 0 };

	/** @param {LatencyOptions|null|undefined} config null or undefined: no latency */
	constructor(config) {
		this.configure(config);
	}

	/** @param {LatencyOptions|null|undefined} config */
	configure(config) {
		this.config = {
			fixedMs: numberOption(config?.fixedMs, 0, 'fixedMs', 0),
			jitterMs: numberOption(config?.jitterMs, 0, 'jitterMs', 0),
		};
	}

	/** Milliseconds before this answer goes out. */
	nextMs() {
		const { fixedMs, jitterMs } = this.config;
		return jitterMs === 0 ? fixedMs : fixedMs + this.prng() * jitterMs;
	}
}

class KeyRateLimit {
	/** @type {RateLimitConfig|null} */
	config = null;
	/** @type {Map<string, { tokens: number, at: number }>} */
	buckets = new Map();
	refused = 0;

	/** @param {RateLimitOptions|null|undefined} config null or undefined: no limit */
	constructor(config) {
		this.configure(config);
	}

	/** @param {RateLimitOptions|null|undefined} config */
	configure(config) {
		this.config =
			config?.perSecond == null
				? null
				: {
						perSecond: numberOption(config.perSecond, 0, 'perSecond', 0.001),
						burst: numberOption(config.burst, 1, 'burst', 1, true),
						headers: config.headers || false,
					};
		this.buckets.clear();
	}

	/** Full buckets again, counters to zero (the configuration stays). */
	reset() {
		this.buckets.clear();
		this.refused = 0;
	}

	/**
	 * Takes a token for `key` if there is one; null when no limit is configured.
	 * @param {string} key @param {number} [now] ms @returns {Verdict|null}
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
		const remaining = String(Math.floor(bucket.tokens));
		const secondsToFull = Math.ceil((cfg.burst - bucket.tokens) / cfg.perSecond);
		const limit = String(cfg.perSecond);
		/** @type {Record<string, string>} */
		const headers =
			cfg.headers === 'ietf'
				? {
						'ratelimit-limit': limit,
						'ratelimit-remaining': remaining,
						'ratelimit-reset': String(secondsToFull),
						'ratelimit-policy': `${cfg.perSecond};w=1;burst=${cfg.burst}`,
					}
				: cfg.headers === 'x'
					? {
							'x-ratelimit-limit': limit,
							'x-ratelimit-remaining': remaining,
							'x-ratelimit-reset': String(Math.ceil(now / 1000) + secondsToFull),
						}
					: {};
		const retryAfterSeconds = ok ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / cfg.perSecond));
		return { ok, retryAfterSeconds, headers };
	}
}

module.exports = { KeyRateLimit, Latency };
