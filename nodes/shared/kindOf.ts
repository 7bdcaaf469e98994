/** For messages that refuse a value: `null`, `an array`, `an object`, `NaN`, `a string`, …. */
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
