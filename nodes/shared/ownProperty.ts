/**
 * Sets `key` as an own, enumerable property. Plain assignment would call the `__proto__` setter for
 * a key of that name (a field a sender may send); JSON.parse makes it an own key, and so does this.
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
	Object.defineProperty(record, key, {
		value,
		writable: true,
		enumerable: true,
		configurable: true,
	});
}
