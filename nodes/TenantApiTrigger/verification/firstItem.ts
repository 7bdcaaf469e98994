import { ExactPaths } from './jsonScan';
import { itemsAtPath, pathSegments, valueAtPath } from './paths';

/**
 * What checking signed items reads before any signature holds: the first item's signature and signed fields (items.ts
 * readItem, on the items bodyItems finds). Only their numbers need to be exact then (json.ts makeNumbersExact with
 * these paths); every other number waits until an item's signature holds (completeReading in body.ts).
 */
export class SignedItemFields {
	/** The fields' paths below every item, for the scan. */
	readonly paths: ExactPaths;

	constructor(
		private readonly itemsPath: string,
		private readonly bodyKeys: string[],
		private readonly fieldPaths: string[],
	) {
		const items = pathSegments(itemsPath);
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
			const items = itemsAtPath(body, this.itemsPath, this.bodyKeys);
			if (items === undefined || items.length === 0) return false;
			return this.fieldPaths.some((path) => typeof valueAtPath(items[0], path) === 'number');
		} catch {
			return true;
		}
	}
}

/** The fields made for the last settings seen (a few per workflow at most). */
const made = new Map<string, SignedItemFields>();

/** The SignedItemFields of a Verification (`fieldPaths`: the signature's path and each signed field's). */
export function signedItemFields(itemsPath: string, bodyKeys: string[], fieldPaths: string[]): SignedItemFields {
	const key = JSON.stringify([itemsPath, bodyKeys, fieldPaths]);
	let fields = made.get(key);
	if (fields === undefined) {
		fields = new SignedItemFields(itemsPath, bodyKeys, fieldPaths);
		if (made.size >= 64) made.clear();
		made.set(key, fields);
	}
	return fields;
}
