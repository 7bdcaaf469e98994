'use strict';

const { SandboxOptionError, numberOption } = require('./options');

/**
 * Deterministic seeds (accounts; transfers and payouts, read-only) and the five listing shapes ("pagination
 * modes"). Accounts page in the configured mode; every other collection in one fixed shape of its own: `payouts` in
 * next links, the rest (`transfers` among them) in cursor pages (README "Collections other than accounts").
 *
 * @typedef {{ id: string, object: 'account', name: string, currency: string, balance: number,
 *   status: string, created_at: string }} Account
 * @typedef {{ id: string, object: string, amount: number, currency: string, status: string, created_at: string }} SeededRecord
 * @typedef {'cursor'|'page'|'pageNoTotals'|'nextUrl'|'array'} PaginationMode
 * @typedef {{ mode: PaginationMode, defaultPageSize: number, maxPageSize: number }} PaginationConfig
 */

const PAGINATION_MODES = /** @type {const} */ ([
	'cursor',
	'page',
	'pageNoTotals',
	'nextUrl',
	'array',
]);
const NAMES = 'Acme Globex Initech Umbrella Hooli Stark Wayne Wonka Tyrell Soylent Cyberdyne'.split(
	' ',
);
/** Query parameters that belong to pagination and are never used as filters. */
const PAGING_PARAMS = new Set(['limit', 'cursor', 'page', 'per_page', 'offset']);

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

/** `count` records `make(i)`, i from 1, each with its id: `<prefix>_0001`, … @template T @param {number} count @param {string} prefix @param {(i: number) => T} make */
const seed = (count, prefix, make) =>
	Array.from({ length: count }, (_, i) => ({
		id: `${prefix}_${String(i + 1).padStart(4, '0')}`,
		...make(i + 1),
	}));

/** @param {number} count @returns {Account[]} */
const seedAccounts = (count) =>
	seed(count, 'acc', (i) => ({
		object: /** @type {const} */ ('account'),
		name: `${NAMES[(i - 1) % NAMES.length]} ${i}`,
		currency: ['EUR', 'USD', 'GBP', 'CHF'][i % 4],
		balance: ((i * 7919) % 1000000) / 100,
		status: ['active', 'active', 'active', 'frozen', 'closed'][i % 5],
		created_at: new Date(Date.UTC(2024, 0, 1) + i * 3600 * 1000).toISOString(),
	}));

/** @param {string} collection one of SEEDED_COLLECTIONS @param {number} count @returns {SeededRecord[]} */
const seedCollection = (collection, count) =>
	seed(count, SEEDED[collection].prefix, (i) => ({
		object: collection,
		amount: (i * 1237) % 100000,
		currency: ['EUR', 'USD', 'GBP'][i % 3],
		status: SEEDED[collection].statuses[i % SEEDED[collection].statuses.length],
		created_at: new Date(Date.UTC(2024, 1, 1) + i * 60 * 1000).toISOString(),
	}));

/** How `GET /v1/<collection>` pages. @param {string} collection @returns {PaginationMode} */
const listingModeOf = (collection) =>
	Object.hasOwn(SEEDED, collection) ? SEEDED[collection].mode : 'cursor';

/** @param {number} offset */
const encodeCursor = (offset) => Buffer.from(`o:${offset}`).toString('base64url');

/** The offset a cursor holds (a cursor not of ours is a 400). @param {string} cursor */
function decodeCursor(cursor) {
	const text = Buffer.from(cursor, 'base64url').toString('utf8');
	const n = text.startsWith('o:') ? Number(text.slice(2)) : -1;
	if (!Number.isInteger(n) || n < 0) throw new SandboxOptionError('Unknown cursor');
	return n;
}

/**
 * The listing answer in the configured mode: 200 with the page, or 400 for a query parameter that cannot work.
 * Records are filtered by equality on any non-paging query parameter that names one of their fields.
 * @param {object[]} all the records, in listing order @param {URLSearchParams} q @param {PaginationConfig} cfg
 * @param {string} origin e.g. http://127.0.0.1:4010 (for absolute next URLs)
 * @param {string} [path] the listing's path, for next URLs @returns {{ status: number, body: unknown }}
 */
function listRecords(all, q, cfg, origin, path = '/v1/accounts') {
	try {
		return { status: 200, body: page(all, q, cfg, `${origin}${path}`) };
	} catch (err) {
		if (!(err instanceof SandboxOptionError)) throw err;
		return { status: 400, body: { error: { code: 'invalid_parameter', message: err.message } } };
	}
}

/** @param {object[]} all @param {URLSearchParams} q @param {PaginationConfig} cfg @param {string} listingUrl */
function page(all, q, cfg, listingUrl) {
	const sample = /** @type {Record<string, unknown>} */ (all[0] ?? {});
	const filters = [...q].filter(([k]) => !PAGING_PARAMS.has(k) && Object.hasOwn(sample, k));
	const items = all.filter((record) =>
		filters.every(([k, v]) => String(/** @type {Record<string, unknown>} */ (record)[k]) === v),
	);
	/** A whole-number query parameter of at least `min`. @param {string} name @param {number} fallback @param {number} min */
	const int = (name, fallback, min) =>
		numberOption(q.get(name) || undefined, fallback, `Query parameter "${name}"`, min, true);
	const limit = Math.min(int('limit', cfg.defaultPageSize, 1), cfg.maxPageSize);
	const from = (/** @type {number} */ start, size = limit) => items.slice(start, start + size);
	switch (cfg.mode) {
		case 'cursor': {
			const offset = q.get('cursor') ? decodeCursor(String(q.get('cursor'))) : 0;
			const hasMore = offset + limit < items.length;
			return {
				data: from(offset),
				has_more: hasMore,
				next_cursor: hasMore ? encodeCursor(offset + limit) : null,
			};
		}
		case 'page': {
			const pageNo = int('page', 1, 1);
			const perPage = Math.min(int('per_page', limit, 1), cfg.maxPageSize);
			return {
				items: from((pageNo - 1) * perPage, perPage),
				page: pageNo,
				total_pages: Math.ceil(items.length / perPage),
			};
		}
		case 'pageNoTotals': // page numbers without any end marker: only an empty page says the listing is over
			return { data: from((int('page', 1, 1) - 1) * limit), page: int('page', 1, 1) };
		case 'nextUrl': {
			const offset = int('offset', 0, 0);
			const end = offset + limit;
			const next = new URLSearchParams([...q].filter(([k]) => k !== 'offset' && k !== 'limit'));
			next.set('offset', String(end));
			next.set('limit', String(limit));
			return { results: from(offset), next: end < items.length ? `${listingUrl}?${next}` : null };
		}
		case 'array':
			return from((int('page', 1, 1) - 1) * limit);
		default:
			throw new Error(`unknown pagination mode ${String(cfg.mode)}`);
	}
}

/** `mode` if it is a pagination mode. @param {unknown} mode @returns {PaginationMode} */
function paginationMode(mode) {
	const known = PAGINATION_MODES.find((m) => m === mode);
	if (known === undefined) throw new SandboxOptionError(`unknown pagination mode: ${String(mode)}`);
	return known;
}

module.exports = {
	seedAccounts,
	seedCollection,
	listRecords,
	listingModeOf,
	paginationMode,
	PAGINATION_MODES,
	SEEDED_COLLECTIONS,
};
