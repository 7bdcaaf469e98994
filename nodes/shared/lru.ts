/**
 * Module state that lives as long as the n8n process, bounded: a Map whose insertion order is its
 * recency (an entry used again moves to the end), so the first entry is the least recently used and
 * goes first when `max` is passed.
 */
export function lruEntry<T>(map: Map<string, T>, key: string, create: () => T, max: number): T {
	const value = map.get(key) ?? create();
	map.delete(key);
	map.set(key, value);
	if (map.size > max) map.delete(map.keys().next().value as string);
	return value;
}
