/**
 * Batches of signed items (Adyen payments, Custom HMAC with the signature inside items): the list a body holds them
 * in, and the same body with other entries there. What a replay rearranges (replays.ts), and how judge.ts names each
 * item as a delivery of that item alone.
 */
import type { IDataObject } from 'n8n-workflow';

import { jsonText, losslessObject } from './bodies';
import type { Delivery } from './sender';
import { setPath, valueAt } from './sender';
import type { Setup } from './settings';

/** Whether each item of the set-up's bodies carries its own signature. */
export const signsItems = (setup: Setup) =>
	setup.sender.kind === 'adyenPayments' ||
	(setup.sender.kind === 'custom' && setup.sender.spec.signatureIn === 'items');

/** Where a body holds its list of signed items (`notificationItems`, `batch` for `batch.*.entry`). */
const listPath = (setup: Setup) =>
	setup.sender.kind === 'custom' ? setup.sender.spec.itemsPath.split('.*')[0] : 'notificationItems';

/** The entries of a delivery's list (numbers kept as written). */
export function entriesOf(setup: Setup, delivery: Delivery): unknown[] {
	const list = valueAt(losslessObject(delivery.body), listPath(setup));
	return Array.isArray(list) ? list : [];
}

/** A delivery's body with `entries` in place of its list. */
export function withEntries(setup: Setup, delivery: Delivery, entries: unknown[]): Delivery {
	const body = losslessObject(delivery.body) as IDataObject;
	setPath(body, listPath(setup), entries);
	return { ...delivery, body: Buffer.from(jsonText(body)) };
}

/** A batch as deliveries of one item each. */
export const oneItemEach = (setup: Setup, delivery: Delivery): Delivery[] =>
	entriesOf(setup, delivery).map((entry) => withEntries(setup, delivery, [entry]));
