/**
 * Dot paths into a parsed body (`data.object.type`, `items.0.id`). A path only walks: each segment is an own key
 * of an object or an index of a list. A key that itself contains dots cannot be reached, so a body cannot
 * shadow `a.b` with a literal `"a.b"` key next to the signed `a: { b }`.
 */

function child(current: unknown, key: string): unknown {
	if (Array.isArray(current)) return /^(0|[1-9]\d*)$/.test(key) ? current[Number(key)] : undefined;
	if (current === null || typeof current !== 'object') return undefined;
	return Object.prototype.hasOwnProperty.call(current, key)
		? (current as Record<string, unknown>)[key]
		: undefined;
}

/** The segments of a dot path. */
export function pathSegments(path: string): string[] {
	const trimmed = path.trim();
	return trimmed === '' ? [] : trimmed.split('.');
}

/** The value at a dot path, or undefined. */
export function valueAtPath(body: unknown, path: string): unknown {
	const keys = pathSegments(path);
	if (keys.length === 0) return undefined;
	let current = body;
	for (const key of keys) {
		current = child(current, key);
		if (current === undefined) return undefined;
	}
	return current;
}

/**
 * Every item a path with `*` segments reaches (`notificationItems.*.NotificationRequestItem`), or undefined when
 * the body holds anything the path does not account for: a `*` that is not a list, an element that does not lead
 * to an item, or an object on the way with keys beside the one the path takes (at the top, `otherTopKeys` may be
 * there too). So no unsigned data can sit next to the signed items.
 */
export function itemsAtPath(
	body: unknown,
	path: string,
	otherTopKeys: string[] = [],
): unknown[] | undefined {
	let current: unknown[] = [body];
	for (const [depth, key] of pathSegments(path).entries()) {
		const next: unknown[] = [];
		for (const value of current) {
			if (key === '*') {
				if (!Array.isArray(value)) return undefined;
				next.push(...value);
				continue;
			}
			if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
			const allowed = depth === 0 ? [key, ...otherTopKeys] : [key];
			if (Object.keys(value).some((k) => !allowed.includes(k))) return undefined;
			const found = child(value, key);
			if (found === undefined) return undefined;
			next.push(found);
		}
		current = next;
	}
	return current;
}
