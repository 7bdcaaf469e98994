/** For messages that refuse a value: `null`, `undefined`, `an array`, `NaN`, `a string`, …. */
export function kindOf(value: unknown): string {
	if (value === null || value === undefined) return String(value);
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
