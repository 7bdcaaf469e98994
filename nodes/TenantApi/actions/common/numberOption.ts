/**
 * Numbers from parameters. The editor enforces min/max on typed values, but an expression can return
 * anything (2000, -1, "abc"), so every number is checked again where it is used.
 */

/** A number as given, or a non-blank string read as one (what an expression may return); NaN for anything else. */
export function numberFrom(value: unknown): number {
	if (typeof value === 'number') return value;
	return typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
}

/** A whole number within [min, max]; values outside are clamped, anything that is not a number gives `fallback`. */
export function clampWhole(value: unknown, min: number, max: number, fallback: number): number {
	const number = numberFrom(value);
	if (!Number.isFinite(number)) return fallback;
	return Math.min(max, Math.max(min, Math.floor(number)));
}

/** A whole number within [min, max], or an Error that says what is allowed (for settings where a guess would be wrong). */
export function wholeInRange(value: unknown, min: number, max: number, label: string): number {
	const number = numberFrom(value);
	if (!Number.isInteger(number) || number < min || number > max) {
		throw new Error(`${label} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value) ?? String(value)}`);
	}
	return number;
}
