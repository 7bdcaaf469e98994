/**
 * What had happened to every item when a node that sends writes stopped on an error. Without it the
 * user sees one error and cannot tell that other items were already applied; "Retry execution"
 * replays them (same automatic keys), but a new run (new automatic keys) would apply them a second
 * time.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Applied } from '../../transport/errors';

export type ItemProgress =
	| { item: number; state: 'applied'; key?: string }
	| { item: number; state: 'failed'; key?: string; applied: Applied }
	| { item: number; state: 'notSent' };

/** Items named in the description; the error's context has them all. */
const LISTED = 10;

function withKeys(entries: Array<{ item: number; key?: string }>): string {
	const shown = entries
		.slice(0, LISTED)
		.map(({ item, key }) => (key ? `${item} (Idempotency-Key ${key})` : String(item)))
		.join(', ');
	return entries.length > LISTED ? `${shown} and ${entries.length - LISTED} more` : shown;
}

/** `[5, 6, 7, 9]` → `5–7, 9` */
function ranges(items: number[]): string {
	const parts: string[] = [];
	for (let start = 0; start < items.length; ) {
		let end = start;
		while (end + 1 < items.length && items[end + 1] === items[end] + 1) end++;
		parts.push(end === start ? `${items[start]}` : `${items[start]}–${items[end]}`);
		start = end + 1;
	}
	return parts.join(', ');
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

export interface ProgressReport {
	/** Appended to the error's description. */
	text: string;
	/** Kept in the error's context (saved with the execution). */
	context: IDataObject;
}

/**
 * The report for an error thrown for `failedItem`, or undefined when no other item was (or may have
 * been) applied: then the error alone says everything, and running again repeats nothing.
 */
export function describeProgress(
	progress: ItemProgress[],
	failedItem: number,
): ProgressReport | undefined {
	const applied = progress.filter(
		(entry): entry is Extract<ItemProgress, { key?: string }> =>
			entry.state === 'applied' || (entry.state === 'failed' && entry.applied === 'yes'),
	);
	const unknown = progress.filter(
		(entry): entry is Extract<ItemProgress, { state: 'failed' }> =>
			entry.state === 'failed' && entry.applied === 'unknown',
	);
	if (![...applied, ...unknown].some((entry) => entry.item !== failedItem)) return undefined;
	const notSent = progress.filter((entry) => entry.state === 'notSent').map((entry) => entry.item);
	const sentences: string[] = [];
	if (applied.length > 0) {
		sentences.push(
			`Applied before the node stopped: ${plural(applied.length, 'item', 'items')} ${withKeys(applied)}.`,
		);
	}
	if (unknown.length > 0) {
		sentences.push(
			`${plural(unknown.length, 'Item', 'Items')} ${withKeys(unknown)} may have been applied.`,
		);
	}
	if (notSent.length > 0)
		sentences.push(
			`${plural(notSent.length, 'Item', 'Items')} ${ranges(notSent)} ${plural(notSent.length, 'was', 'were')} not sent.`,
		);
	sentences.push(
		'"Retry execution" (executions list) sends the same automatic Idempotency-Keys, and so does a redelivery of the Tenant API Trigger event that started the workflow: the applied items are replayed, not applied again. A new run (manual, or a new trigger) derives new keys: remove the applied items from its input first, or set Options → Idempotency Key to a business key so the API recognises them.',
	);
	const entry = ({ item, key }: { item: number; key?: string }) => ({
		item,
		...(key ? { idempotencyKey: key } : {}),
	});
	return {
		text: sentences.join(' '),
		context: {
			itemsApplied: applied.map(entry),
			itemsMaybeApplied: unknown.map(entry),
			itemsNotSent: ranges(notSent),
		},
	};
}
