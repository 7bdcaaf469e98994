/**
 * What kind of value was given, for messages that refuse it: `null`, `an array`, `an object`, a
 * number that is not finite as itself (`NaN`), else `a string`, `a boolean`, ….
 */
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
