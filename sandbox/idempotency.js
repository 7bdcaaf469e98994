'use strict';

/**
 * Idempotency store: one entry per (tenant, Idempotency-Key). An entry is written the moment a
 * POST is accepted, so a retry that arrives while (or after) the first answer is lost replays it.
 */

/**
 * @typedef {{ fingerprint: string, status: number, body: string, recordId: string }} IdempotencyEntry
 * @typedef {{ kind: 'new' } | { kind: 'replay', entry: IdempotencyEntry } | { kind: 'conflict', entry: IdempotencyEntry }} LookupResult
 */

/**
 * JSON with object keys sorted at every level, so {a,b} and {b,a} compare equal.
 * @param {unknown} value
 * @returns {string}
 */
function canonicalJson(value) {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
	const obj = /** @type {Record<string, unknown>} */ (value);
	const keys = Object.keys(obj)
		.filter((k) => obj[k] !== undefined)
		.sort();
	return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(obj[k])).join(',') + '}';
}

class IdempotencyStore {
	constructor() {
		/** @type {Map<string, IdempotencyEntry>} */
		this.entries = new Map();
	}

	/**
	 * @param {string} tenant
	 * @param {string} key
	 */
	static scope(tenant, key) {
		return tenant + '\u0000' + key;
	}

	/**
	 * @param {string} scopedKey from IdempotencyStore.scope
	 * @param {string} fingerprint from fingerprint()
	 * @returns {LookupResult}
	 */
	lookup(scopedKey, fingerprint) {
		const entry = this.entries.get(scopedKey);
		if (!entry) return { kind: 'new' };
		return entry.fingerprint === fingerprint
			? { kind: 'replay', entry }
			: { kind: 'conflict', entry };
	}

	/**
	 * @param {string} scopedKey
	 * @param {IdempotencyEntry} entry
	 */
	commit(scopedKey, entry) {
		this.entries.set(scopedKey, entry);
	}

	get size() {
		return this.entries.size;
	}

	clear() {
		this.entries.clear();
	}
}

/**
 * What "the same request" means: same method, same path, same canonical body.
 * @param {string} method
 * @param {string} path
 * @param {unknown} body
 */
function fingerprint(method, path, body) {
	return method + ' ' + path + '\n' + canonicalJson(body);
}

module.exports = { IdempotencyStore, canonicalJson, fingerprint };
