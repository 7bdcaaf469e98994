/**
 * A rate-limited API on the fake clock, with the sandbox's rules (sandbox/rateLimit.js): a token bucket
 * per key decides when a request arrives, the answer comes after the latency; refused requests get 429
 * with `Retry-After` in whole seconds, and optionally the rate-limit headers.
 */
import type { RateSignal } from '../../../nodes/TenantApi/transport/rateLimit/governor';
import { readRateLimitHeaders } from '../../../nodes/TenantApi/transport/rateLimit/headers';
import type { FakeClock } from './fakeClock';

/** Simulated time 0 as a Unix time in ms, for Reset headers that carry one. */
const EPOCH = 1_800_000_000_000;

export interface SimulatedApiOptions {
	perSecond: number;
	burst: number;
	latencyMs: number;
	jitterMs?: number;
	/** `ietf`: RateLimit-Policy/Remaining/Reset; `x`: X-RateLimit-Limit/Remaining and a Unix-time Reset. */
	headers?: 'ietf' | 'x';
	/** The first `count` requests take `extraMs` longer to answer (a cold start: connections, JIT). */
	coldStart?: { count: number; extraMs: number };
	/** The first `count` requests reach the API `extraMs` after they were sent (connections being opened). */
	coldArrival?: { count: number; extraMs: number };
	/** Share of requests refused at random, whatever the bucket holds (a flaky API). */
	randomRefusals?: number;
	/** Every request refused, with this Retry-After in seconds (0: "now"; a hot loop for a careless client). */
	refuseAllWithRetryAfterS?: number;
	random: () => number;
}

export class SimulatedApi {
	tokens: number;
	private at = 0;
	accepted = 0;
	refused = 0;
	inFlight = 0;
	peakInFlight = 0;
	/** When each request reached the API. */
	readonly arrivals: number[] = [];
	private sent = 0;

	constructor(
		private readonly clock: FakeClock,
		private readonly options: SimulatedApiOptions,
	) {
		this.tokens = options.burst;
	}

	/** Sends one request; resolves with what the node's client would make of the answer. */
	async request(): Promise<{ status: number; signal: RateSignal }> {
		if (this.sent++ < (this.options.coldArrival?.count ?? 0)) await this.clock.sleep(this.options.coldArrival?.extraMs ?? 0);
		const now = this.clock.now();
		this.arrivals.push(now);
		const { perSecond, burst, latencyMs, jitterMs = 0, random } = this.options;
		this.tokens = Math.min(burst, this.tokens + ((now - this.at) * perSecond) / 1000);
		this.at = now;
		const refuseAll = this.options.refuseAllWithRetryAfterS;
		const ok = refuseAll === undefined && this.tokens >= 1 && !(random() < (this.options.randomRefusals ?? 0));
		if (ok) this.tokens -= 1;
		const headers: Record<string, string> = {};
		if (!ok) headers['retry-after'] = String(refuseAll ?? Math.max(1, Math.ceil((1 - this.tokens) / perSecond)));
		const secondsToFull = Math.ceil((burst - this.tokens) / perSecond);
		if (this.options.headers === 'ietf') {
			headers['ratelimit-policy'] = `${perSecond};w=1;burst=${burst}`;
			headers['ratelimit-remaining'] = String(Math.floor(this.tokens));
			headers['ratelimit-reset'] = String(secondsToFull);
		} else if (this.options.headers === 'x') {
			headers['x-ratelimit-limit'] = String(perSecond);
			headers['x-ratelimit-remaining'] = String(Math.floor(this.tokens));
			headers['x-ratelimit-reset'] = String(Math.ceil((EPOCH + now) / 1000) + secondsToFull);
		}
		if (ok) this.accepted++;
		else this.refused++;
		this.peakInFlight = Math.max(this.peakInFlight, ++this.inFlight);
		const cold = this.accepted + this.refused <= (this.options.coldStart?.count ?? 0) ? (this.options.coldStart?.extraMs ?? 0) : 0;
		await this.clock.sleep(latencyMs + cold + random() * jitterMs);
		this.inFlight--;
		const info = readRateLimitHeaders(headers, EPOCH + this.clock.now());
		return ok
			? { status: 201, signal: { kind: 'accepted', info } }
			: { status: 429, signal: { kind: 'limited', retryAfterMs: Number(headers['retry-after']) * 1000, info } };
	}
}
