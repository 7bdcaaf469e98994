import { DEFAULT_TOLERANCE_SECONDS } from './scheme';

/** Timestamps are unix seconds, as decimal digits (at most 12, so the value stays exact). */
const UNIX_SECONDS = /^\d{1,12}$/;

export type TimestampCheck = 'ok' | 'invalid_timestamp' | 'timestamp_out_of_window';

/** Parses a unix-seconds timestamp header value; undefined when it is not one. */
export function parseTimestamp(value: string): number | undefined {
	const text = value.trim();
	if (!UNIX_SECONDS.test(text)) return undefined;
	return Number(text);
}

/**
 * Checks a timestamp header against `nowSeconds` with a symmetric tolerance (clock skew either way).
 * A tolerance that is not a positive finite number falls back to the default rather than disabling the check.
 */
export function checkTimestamp(
	value: string,
	nowSeconds: number,
	toleranceSeconds: number,
): TimestampCheck {
	const ts = parseTimestamp(value);
	if (ts === undefined) return 'invalid_timestamp';
	const tolerance =
		Number.isFinite(toleranceSeconds) && toleranceSeconds > 0
			? toleranceSeconds
			: DEFAULT_TOLERANCE_SECONDS;
	return Math.abs(nowSeconds - ts) <= tolerance ? 'ok' : 'timestamp_out_of_window';
}
