/**
 * Two items of one run with the same Idempotency-Key: the API applies the key once and answers the
 * other item with the first one's stored result (or refuses it when its body differs), so one of the
 * two operations silently does not happen. Found before anything is sent.
 */

export interface DuplicateKey {
	item: number;
	/** The earlier item that has the same key. */
	firstItem: number;
	key: string;
}

/** Every item whose key an earlier item already has (items without a key, e.g. GET, are skipped). */
export function findDuplicateKeys(keys: ReadonlyArray<string | undefined>): Map<number, DuplicateKey> {
	const firstWith = new Map<string, number>();
	const duplicates = new Map<number, DuplicateKey>();
	keys.forEach((key, item) => {
		if (key === undefined) return;
		const firstItem = firstWith.get(key);
		if (firstItem === undefined) firstWith.set(key, item);
		else duplicates.set(item, { item, firstItem, key });
	});
	return duplicates;
}

export function duplicateKeyMessage({ item, firstItem, key }: DuplicateKey): string {
	return `Items ${firstItem} and ${item} have the same Idempotency Key "${key}"`;
}

export function duplicateKeyDescription({ item, firstItem }: DuplicateKey, nothingSent: boolean): string {
	return `The API applies a key once: it would answer item ${item} with item ${firstItem}'s stored result, or refuse it, so one of the two would silently not happen. ${
		nothingSent ? 'Nothing was sent.' : `Item ${item} was not sent.`
	} Give each operation its own key (e.g. add a line number to it), or remove the duplicate item.`;
}
