'use strict';

const { SandboxOptionError, numberOption } = require('./options');

/**
 * Deterministic account seed and the seven listing shapes ("pagination modes"), which other collections
 * use too (collections.js).
 */

/**
 * @typedef {{ id: string, object: 'account', name: string, currency: string, balance: number,
 *   status: string, created_at: string }} Account
 * @typedef {'cursor'|'page'|'pageNoTotals'|'nextUrl'|'array'|'loop'|'endless'} PaginationMode
 * @typedef {{ mode: PaginationMode, defaultPageSize: number, maxPageSize: number }} PaginationConfig
 * @typedef {{ status: number, body: unknown }} ListResult
 */

const PAGINATION_MODES = /** @type {const} */ ([
	'cursor',
	'page',
	'pageNoTotals',
	'nextUrl',
	'array',
	'loop',
	'endless',
]);

const NAMES = 'Acme Globex Initech Umbrella Hooli Stark Wayne Wonka Tyrell Soylent Cyberdyne'.split(
	' ',
);
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF'];
const STATUSES = ['active', 'active', 'active', 'frozen', 'closed'];
const EPOCH_MS = Date.UTC(2024, 0, 1);

/** Query parameters that belong to pagination and are never used as filters. */
const PAGING_PARAMS = new Set(['limit', 'cursor', 'page', 'per_page', 'offset']);

/**
 * Build `count` deterministic accounts: acc_0001, acc_0002, ...
 * @param {number} count
 */
function seedAccounts(count) {
	/** @type {Account[]} */
	const out = [];
	for (let i = 1; i <= count; i++) {
		out.push({
			id: 'acc_' + String(i).padStart(4, '0'),
			object: 'account',
			name: `${NAMES[(i - 1) % NAMES.length]} ${i}`,
			currency: CURRENCIES[i % CURRENCIES.length],
			balance: ((i * 7919) % 1000000) / 100,
			status: STATUSES[i % STATUSES.length],
			created_at: new Date(EPOCH_MS + i * 3600 * 1000).toISOString(),
		});
	}
	return out;
}

/**
 * @param {string} offsetText
 */
function encodeCursor(offsetText) {
	return Buffer.from('o:' + offsetText).toString('base64url');
}

/**
 * The offset a cursor holds, or -1 if the cursor is not one of ours.
 * @param {string} cursor
 */
function decodeCursor(cursor) {
	const text = Buffer.from(cursor, 'base64url').toString('utf8');
	if (!text.startsWith('o:')) return -1;
	const n = Number(text.slice(2));
	return Number.isInteger(n) && n >= 0 ? n : -1;
}

/**
 * A whole-number query parameter of at least `min` (a refusal answers 400).
 * @param {URLSearchParams} q
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 */
const intParam = (q, name, fallback, min) =>
	numberOption(q.get(name) || undefined, fallback, `Query parameter "${name}"`, min, true);

/**
 * Filter by equality on record fields, for any non-paging query param naming an existing field.
 * @template {object} T
 * @param {T[]} accounts
 * @param {URLSearchParams} q
 */
function applyFilters(accounts, q) {
	if (accounts.length === 0) return accounts;
	/** @type {[string, string][]} */
	const filters = [];
	const sample = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (accounts[0]));
	for (const [k, v] of q) {
		if (!PAGING_PARAMS.has(k) && Object.prototype.hasOwnProperty.call(sample, k))
			filters.push([k, v]);
	}
	if (filters.length === 0) return accounts;
	return accounts.filter((a) => {
		const rec = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (a));
		return filters.every(([k, v]) => String(rec[k]) === v);
	});
}

/**
 * Produce the listing response for the configured mode.
 * @param {object[]} all the records, in listing order
 * @param {URLSearchParams} q
 * @param {PaginationConfig} cfg
 * @param {string} origin e.g. http://127.0.0.1:4010 (used for absolute next URLs)
 * @param {string} [path] the listing's path, for next URLs
 * @returns {ListResult}
 */
function listRecords(all, q, cfg, origin, path = '/v1/accounts') {
	try {
		return { status: 200, body: listInner(all, q, cfg, `${origin}${path}`) };
	} catch (err) {
		if (!(err instanceof SandboxOptionError)) throw err;
		return { status: 400, body: { error: { code: 'invalid_parameter', message: err.message } } };
	}
}

/**
 * @param {object[]} all
 * @param {URLSearchParams} q
 * @param {PaginationConfig} cfg
 * @param {string} listingUrl absolute URL of the listing, without query
 * @returns {unknown}
 */
function listInner(all, q, cfg, listingUrl) {
	const items = applyFilters(all, q);
	const clamp = (/** @type {number} */ n) => Math.min(n, cfg.maxPageSize);
	const limit = clamp(intParam(q, 'limit', cfg.defaultPageSize, 1));

	switch (cfg.mode) {
		case 'cursor':
		case 'loop':
		case 'endless': {
			let offset = 0;
			const cursor = q.get('cursor');
			if (cursor) {
				offset = decodeCursor(cursor);
				if (offset < 0) throw new SandboxOptionError('Unknown cursor');
			}
			if (cfg.mode === 'endless') {
				// Always a fresh cursor and has_more: the records wrap around forever.
				const data = [];
				for (let i = 0; i < limit && items.length > 0; i++)
					data.push(items[(offset + i) % items.length]);
				return { data, has_more: true, next_cursor: encodeCursor(String(offset + limit)) };
			}
			const data = items.slice(offset, offset + limit);
			if (cfg.mode === 'loop') {
				// The cursor pointing at page 2 is handed out on every page, forever.
				return { data, has_more: true, next_cursor: encodeCursor(String(limit)) };
			}
			const hasMore = offset + limit < items.length;
			return {
				data,
				has_more: hasMore,
				next_cursor: hasMore ? encodeCursor(String(offset + limit)) : null,
			};
		}
		case 'page': {
			const page = intParam(q, 'page', 1, 1);
			const perPage = clamp(intParam(q, 'per_page', limit, 1));
			const start = (page - 1) * perPage;
			return {
				items: items.slice(start, start + perPage),
				page,
				total_pages: Math.ceil(items.length / perPage),
			};
		}
		case 'pageNoTotals': {
			// Page numbers without any end marker: only an empty page says the listing is over.
			const page = intParam(q, 'page', 1, 1);
			const start = (page - 1) * limit;
			return { data: items.slice(start, start + limit), page };
		}
		case 'nextUrl': {
			const offset = intParam(q, 'offset', 0, 0);
			const end = offset + limit;
			let next = null;
			if (end < items.length) {
				const nq = new URLSearchParams();
				for (const [k, v] of q) if (k !== 'offset' && k !== 'limit') nq.append(k, v);
				nq.set('offset', String(end));
				nq.set('limit', String(limit));
				next = `${listingUrl}?${nq.toString()}`;
			}
			return { results: items.slice(offset, end), next };
		}
		case 'array': {
			const page = intParam(q, 'page', 1, 1);
			const start = (page - 1) * limit;
			return items.slice(start, start + limit);
		}
		default:
			throw new Error(`unknown pagination mode ${String(cfg.mode)}`);
	}
}

/**
 * @param {unknown} mode
 * @returns {mode is PaginationMode}
 */
function isPaginationMode(mode) {
	return (
		typeof mode === 'string' && /** @type {readonly string[]} */ (PAGINATION_MODES).includes(mode)
	);
}

module.exports = { seedAccounts, listRecords, isPaginationMode, PAGINATION_MODES };
