import { lruEntry } from '../../shared/lru';

import { ExactPaths } from './jsonScan';
import { pathSegments, valueAtPath } from './paths';

/**
 * What checking signed items reads before any signature holds: the first item's signature and signed fields (items.ts
 * readItem, on the items bodyItems finds). Only their numbers need to be exact then (json.ts makeNumbersExact with
 * these paths); every other number waits until an item's signature holds (completeReading in body.ts).
 */
export class SignedItemFields {
	/** The fields' paths below every item, for the scan. */
	readonly paths: ExactPaths;

	private readonly itemSegments: string[];

	constructor(
		itemsPath: string,
		private readonly fieldPaths: string[],
	) {
		const items = pathSegments(itemsPath);
		this.itemSegments = items;
		this.paths = new ExactPaths(
			fieldPaths.map((path) => [...items, ...pathSegments(path)]),
			items.length,
		);
	}

	/**
	 * Whether the first item checking reads holds a number in one of the fields (else, nothing read before the
	 * signature holds can change: strings, booleans and null read as sent).
	 */
	firstItemHasNumbers(body: unknown): boolean {
		try {
			const item = firstItemAt(body, this.itemSegments, 0);
			return (
				item !== undefined &&
				this.fieldPaths.some((path) => typeof valueAtPath(item, path) === 'number')
			);
		} catch {
			return true;
		}
	}
}

/**
 * The first item at `segments` (a `*` for every entry of a list), in the order itemsAtPath lists them, had it accepted
 * the body. Nothing else is looked at: a body it refuses is refused (bodyItems) before any item is checked.
 */
function firstItemAt(value: unknown, segments: string[], depth: number): unknown {
	if (depth === segments.length) return value;
	if (value === null || typeof value !== 'object') return undefined;
	const key = segments[depth];
	if (key === '*') {
		if (!Array.isArray(value)) return undefined;
		for (const entry of value) {
			const item = firstItemAt(entry, segments, depth + 1);
			if (item !== undefined) return item;
		}
		return undefined;
	}
	if (Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
	return firstItemAt((value as Record<string, unknown>)[key], segments, depth + 1);
}

/** The fields made for the settings seen, by items path and field paths (a few per workflow at most). */
const made = new Map<string, SignedItemFields>();

/** The SignedItemFields of a Verification (`fieldPaths`: the signature's path and each signed field's). */
export function signedItemFields(itemsPath: string, fieldPaths: string[]): SignedItemFields {
	const key = JSON.stringify([itemsPath, fieldPaths]);
	return lruEntry(made, key, () => new SignedItemFields(itemsPath, fieldPaths), 64);
}
