'use strict';

/**
 * Requests held by the fault action `hold` until the test releases them. A test can then make a state
 * happen on purpose, e.g. "the client is waiting on a POST the service has committed" or "... on one
 * the service has not processed yet", and act on it (kill the client), instead of hoping a delay is
 * long enough.
 *
 * A held request is in one of two states:
 * - not processed: read whole and parked before the service looked at it (`{hold: true}`);
 * - processed: committed (or replayed / refused as a conflict), only the answer is parked
 *   (`{hold: true, commit: true}`, or after `commit()`).
 * `release()` answers the ones whose client is still connected (processing them first if needed). A
 * request whose client went away is not answered: if it was never processed it is discarded, as if it
 * had never reached the service; if it was, its record stays.
 *
 * @import { ServerResponse } from 'node:http'
 * @typedef {{ status: number, body: string|Buffer, contentType: string, headers?: Record<string, string>, recordId?: string|null }} HeldAnswer
 * @typedef {{ method: string, path: string, idempotencyKey: string|null, body?: unknown }} HeldRequestInfo
 * @typedef {HeldRequestInfo & { id: number, heldAt: string, processed: boolean, recordId: string|null, clientGone: boolean }} HeldRequest
 * @typedef {{ id: number, outcome: 'answered' | 'discarded' | 'clientGone' }} ReleaseOutcome
 * @typedef {{ info: HeldRequestInfo, heldAt: string, res: ServerResponse, answer: HeldAnswer|null,
 *   process: (() => HeldAnswer)|null, clientGone: boolean }} Entry
 */

const { sendRaw } = require('./http-util');

class HoldIdsError extends Error {}

class HeldRequests {
	constructor() {
		/** @type {Map<number, Entry>} */
		this.entries = new Map();
		this.seq = 0;
	}

	/**
	 * Park a request. Give `answer` when it was processed already, `process` when not (it runs on
	 * `commit()` or `release()`). Returns the held request's id.
	 * @param {ServerResponse} res
	 * @param {HeldRequestInfo} info
	 * @param {{ answer: HeldAnswer } | { process: () => HeldAnswer }} how
	 */
	hold(res, info, how) {
		const id = ++this.seq;
		/** @type {Entry} */
		const entry = {
			info,
			heldAt: new Date().toISOString(),
			res,
			answer: 'answer' in how ? how.answer : null,
			process: 'process' in how ? how.process : null,
			clientGone: false,
		};
		res.on('close', () => {
			if (!res.writableFinished) entry.clientGone = true;
		});
		this.entries.set(id, entry);
		return id;
	}

	/** @returns {HeldRequest[]} oldest first */
	list() {
		return [...this.entries].map(([id, e]) => ({
			id,
			...e.info,
			heldAt: e.heldAt,
			processed: e.answer !== null,
			recordId: e.answer?.recordId ?? null,
			clientGone: e.clientGone,
		}));
	}

	/**
	 * Process held requests now (commit their record) and keep holding their answers. Works whether
	 * or not the client is still connected: the test decides what reached the service. Returns the ids processed
	 * now (already processed ones are left as they are).
	 * @param {unknown} [ids] ids to process; all held requests when omitted
	 */
	commit(ids) {
		const done = [];
		for (const [id, e] of this.select(ids)) {
			if (e.answer !== null || e.process === null) continue;
			e.answer = e.process();
			done.push(id);
		}
		return done;
	}

	/**
	 * Answer held requests and forget them.
	 * @param {unknown} [ids] ids to release; all held requests when omitted
	 */
	release(ids) {
		/** @type {ReleaseOutcome[]} */
		const out = [];
		for (const [id, e] of this.select(ids)) {
			this.entries.delete(id);
			const gone = e.clientGone || e.res.destroyed;
			if (gone) {
				out.push({ id, outcome: e.answer === null ? 'discarded' : 'clientGone' });
				continue;
			}
			const answer = e.answer ?? /** @type {() => HeldAnswer} */ (e.process)();
			sendRaw(e.res, answer.status, answer.body, answer.contentType, answer.headers);
			out.push({ id, outcome: 'answered' });
		}
		return out;
	}

	/** Close every held connection without an answer and forget them (reset, close). */
	dropAll() {
		for (const e of this.entries.values()) e.res.destroy();
		this.entries.clear();
	}

	/**
	 * @param {unknown} ids
	 * @returns {[number, Entry][]}
	 */
	select(ids) {
		if (ids === undefined || ids === null) return [...this.entries];
		if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id)))
			throw new HoldIdsError('ids must be an array of held request ids');
		const unknown = ids.filter((id) => !this.entries.has(id));
		if (unknown.length) throw new HoldIdsError(`no held request with id ${unknown.join(', ')}`);
		return ids.map((id) => [id, /** @type {Entry} */ (this.entries.get(id))]);
	}

	get size() {
		return this.entries.size;
	}
}

module.exports = { HeldRequests, HoldIdsError };
