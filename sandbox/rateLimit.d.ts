/** Type declarations for rateLimit.js (kept by hand; the JS file is the source of truth). */
export type HeaderStyle = 'ietf' | 'x';

export interface RateLimitConfig {
	perSecond: number;
	burst: number;
	headers: HeaderStyle | null;
}

export interface LatencyConfig {
	fixedMs: number;
	jitterMs: number;
}

export interface Verdict {
	ok: boolean;
	retryAfterSeconds: number;
	headers: Record<string, string>;
}

export declare class RateLimitConfigError extends Error {}

export declare class KeyRateLimit {
	constructor(config: unknown);
	config: RateLimitConfig | null;
	refused: number;
	configure(config: unknown): void;
	reset(): void;
	/** Takes a token for `key` if there is one; null when no limit is configured. */
	take(key: string, now?: number): Verdict | null;
}

export declare class Latency {
	constructor(config: unknown);
	config: LatencyConfig;
	configure(config: unknown): void;
	nextMs(): number;
}

export declare function parseRateLimit(input: unknown): RateLimitConfig | null;
export declare function parseLatency(input: unknown): LatencyConfig;
export declare const HEADER_STYLES: HeaderStyle[];
