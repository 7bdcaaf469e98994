'use strict';

const { seedAccounts, seedCollection, paginationMode, SEEDED_COLLECTIONS } = require('./accounts');
const { FaultInjector } = require('./faults');
const { WebhookDispatcher } = require('./webhooks');
const { KeyRateLimit, Latency } = require('./rateLimit');
const { HeldRequests } = require('./hold');
const { numberOption } = require('./options');

/** Fields a request body can never set or change. */
const PROTECTED_FIELDS = new Set(['id', 'object', 'endpoint', 'idempotency_key', 'created_at']);

/**
 * Everything the sandbox remembers, shared by the API handler, the control endpoints and the in-process handle.
 *
 * @import { Account, PaginationConfig, PaginationMode, SeededRecord } from './accounts'
 * @import { WebhookOptions } from './webhooks'
 * @typedef {Record<string, unknown> & { id: string, object: string, endpoint: string, idempotency_key: string, created_at: string }} CreatedRecord
 * @typedef {{ apiKey?: string, tenantId?: string, accounts?: number, transfers?: number, payouts?: number,
 *   pagination?: PaginationMode, maxPageSize?: number, webhook?: WebhookOptions|null,
 *   rateLimit?: import('./rateLimit').RateLimitOptions|null, latency?: import('./rateLimit').LatencyOptions|null }} StateOptions
 */

/** Keeps only the fields a body may set. @param {Record<string, unknown>} target @param {Record<string, unknown>} fields */
function assignFields(target, fields) {
	for (const k of Object.keys(fields)) if (!PROTECTED_FIELDS.has(k)) target[k] = fields[k];
}

class SandboxState {
	/** @type {CreatedRecord[]} */
	records = [];
	/** @type {Map<string, CreatedRecord>} */
	recordsById = new Map();
	recordSeq = 0;
	/** @type {Map<string, { fingerprint: string, status: number, body: string, recordId: string }>} answers by (tenant, Idempotency-Key), written at the commit */
	idempotency = new Map();
	faults = new FaultInjector();
	/** requests parked by the fault action `hold` until released */
	held = new HeldRequests();
	/** @type {Map<string, { status: number, text: string }>} listing texts; valid because accounts never change */
	listingCache = new Map();
	requests = 0;
	/** @type {Record<string, number>} */
	byRoute = {};
	replays = 0;
	conflicts = 0;
	/** answers the client closed before they were complete (drip-fed, gzip bombs) */
	answersCutShort = 0;
	/** API requests being answered now, and the most at once since the last reset */
	inFlight = 0;
	peakInFlight = 0;

	/** @param {StateOptions} options */
	constructor(options) {
		this.apiKey = options.apiKey ?? 'sk_test_sandbox';
		this.tenantId = options.tenantId ?? 'tenant_demo';
		/** @type {Account[]} */
		this.accounts = seedAccounts(numberOption(options.accounts, 120, 'accounts', 0, true));
		this.accountsById = new Map(this.accounts.map((a) => [a.id, a]));
		/** @type {Record<string, SeededRecord[]>} read-only records listed before the created ones */
		this.seeded = Object.fromEntries(
			SEEDED_COLLECTIONS.map((c) => {
				const count = options[/** @type {'transfers'|'payouts'} */ (c)];
				return [c, seedCollection(c, numberOption(count, 0, c, 0, true))];
			}),
		);
		const maxPageSize = numberOption(options.maxPageSize, 100, 'maxPageSize', 1, true);
		/** @type {PaginationConfig} */
		this.pagination = {
			mode: paginationMode(options.pagination ?? 'cursor'),
			defaultPageSize: Math.min(25, maxPageSize),
			maxPageSize,
		};
		/** per-key token bucket; off unless configured */
		this.rateLimit = new KeyRateLimit(options.rateLimit);
		/** delay before every /v1 answer */
		this.latency = new Latency(options.latency);
		this.webhooks = new WebhookDispatcher(options.webhook);
	}

	/**
	 * Stores a new record (the commit point for POSTs).
	 * @param {string} collection @param {string} endpoint path after /v1 @param {string} idempotencyKey
	 * @param {Record<string, unknown>} body
	 */
	createRecord(collection, endpoint, idempotencyKey, body) {
		const id = `rec_${++this.recordSeq}`;
		/** @type {Record<string, unknown>} */
		const rec = { id, object: collection, endpoint, idempotency_key: idempotencyKey };
		assignFields(rec, body);
		rec.created_at = new Date().toISOString();
		const record = /** @type {CreatedRecord} */ (rec);
		this.records.push(record);
		this.recordsById.set(id, record);
		return record;
	}

	/**
	 * Merges fields into a record, or replaces them; its identity fields stay.
	 * @param {string} id @param {Record<string, unknown>} fields @param {boolean} replace
	 */
	updateRecord(id, fields, replace) {
		const record = /** @type {CreatedRecord} */ (this.recordsById.get(id));
		if (replace)
			for (const k of Object.keys(record)) if (!PROTECTED_FIELDS.has(k)) delete record[k];
		assignFields(record, fields);
		return record;
	}

	/** @param {string} id */
	deleteRecord(id) {
		this.recordsById.delete(id);
		this.records = this.records.filter((r) => r.id !== id);
	}

	/**
	 * Forgets records, idempotency keys, stats and faults, drops held requests without an answer and refills the
	 * rate-limit buckets (pagination mode, webhook config, rate-limit and latency settings stay).
	 */
	reset() {
		this.held.dropAll();
		this.rateLimit.reset();
		this.records = [];
		this.recordsById.clear();
		this.recordSeq = 0;
		this.idempotency.clear();
		this.faults.clear();
		this.requests = 0;
		this.byRoute = {};
		this.replays = 0;
		this.conflicts = 0;
		this.answersCutShort = 0;
		this.peakInFlight = this.inFlight;
		this.webhooks.resetCounters();
	}

	stats() {
		return {
			requests: this.requests,
			byRoute: { ...this.byRoute },
			records: this.records.length,
			distinctIdempotencyKeys: this.idempotency.size,
			replays: this.replays,
			conflicts: this.conflicts,
			answersCutShort: this.answersCutShort,
			inFlight: this.inFlight,
			peakInFlight: this.peakInFlight,
			faultsInjected: this.faults.injected,
			rateLimited: this.rateLimit.refused,
			deliveries: { ...this.webhooks.stats, pending: this.webhooks.inFlight.size },
		};
	}
}

module.exports = { SandboxState };
