'use strict';

/**
 * Collections other than accounts: `GET /v1/<collection>` lists a collection's seeded records, then the
 * records created by POSTs to it, in that order. Each collection pages in one fixed shape of its own,
 * whatever the accounts' pagination mode: `payouts` in next links (`{results, next}`), every other one
 * (`transfers` among them) in cursor pages (`{data, has_more, next_cursor}`). Seeded records are read-only.
 *
 * @import { PaginationMode } from './accounts'
 * @typedef {{ id: string, object: string, amount: number, currency: string, status: string, created_at: string }} SeededRecord
 */

/** @type {Record<string, { prefix: string, statuses: string[], mode: PaginationMode }>} */
const SEEDED = {
	transfers: {
		prefix: 'tr',
		statuses: ['pending', 'succeeded', 'succeeded', 'failed'],
		mode: 'cursor',
	},
	payouts: { prefix: 'po', statuses: ['paid', 'paid', 'in_transit', 'canceled'], mode: 'nextUrl' },
};
const SEEDED_COLLECTIONS = Object.keys(SEEDED);
const CURRENCIES = ['EUR', 'USD', 'GBP'];
const EPOCH_MS = Date.UTC(2024, 1, 1);

/**
 * How `GET /v1/<collection>` pages.
 * @param {string} collection
 */
function listingModeOf(collection) {
	return Object.prototype.hasOwnProperty.call(SEEDED, collection)
		? SEEDED[collection].mode
		: 'cursor';
}

/**
 * `count` deterministic records of a seeded collection: tr_0001, tr_0002, ... (or po_...).
 * @param {string} collection one of SEEDED_COLLECTIONS
 * @param {number} count
 */
function seedCollection(collection, count) {
	const { prefix, statuses } = SEEDED[collection];
	/** @type {SeededRecord[]} */
	const out = [];
	for (let i = 1; i <= count; i++) {
		out.push({
			id: `${prefix}_${String(i).padStart(4, '0')}`,
			object: collection,
			amount: (i * 1237) % 100000,
			currency: CURRENCIES[i % CURRENCIES.length],
			status: statuses[i % statuses.length],
			created_at: new Date(EPOCH_MS + i * 60 * 1000).toISOString(),
		});
	}
	return out;
}

module.exports = { SEEDED_COLLECTIONS, listingModeOf, seedCollection };
