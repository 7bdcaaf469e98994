'use strict';

const { sendRaw } = require('./http-util');
const { SandboxOptionError } = require('./options');

/**
 * POSTs held by the fault action `hold` until the test releases them, read whole and parked before the service
 * looked at them. A test can then make a state happen on purpose, e.g. "the client is waiting on a POST the
 * service has committed" or "... on one the service has not processed yet", and act on it (kill the client),
 * instead of hoping a delay is long enough.
 *
 * `commit()` processes parked requests (commits their record, or replays / refuses them as a conflict) and keeps
 * holding their answers. `release()` answers the ones whose client is still connected (processing them first if
 * needed). A request whose client went away is not answered: if it was never processed it is discarded, as if it
 * had never reached the service; if it was, its record stays.
 *
 * @import { ServerResponse } from 'node:http'
 * @typedef {{ status: number, body: string, contentType: string, headers?: Record<string, string>, recordId?: string|null }} HeldAnswer
 * @typedef {{ method: string, path: string, idempotencyKey: string|null, body?: unknown }} HeldRequestInfo
 * @typedef {HeldRequestInfo & { id: number, heldAt: string, processed: boolean, recordId: string|null, clientGone: boolean }} HeldRequest
 * @typedef {{ id: number, outcome: 'answered' | 'discarded' | 'clientGone' }} ReleaseOutcome
 * @typedef {{ info: HeldRequestInfo, heldAt: string, res: ServerResponse, answer: HeldAnswer|null,
 *   process: () => HeldAnswer, clientGone: boolean }} Entry
 */

class HeldRequests {
	constructor() {
		/** @type {Map<number, Entry>} */
		this.entries = new Map();
		this.seq = 0;
	}

	/**
	 * Park a request; `process` runs on `commit()` or `release()`.
	 * @param {ServerResponse} res
	 * @param {HeldRequestInfo} info
	 * @param {() => HeldAnswer} process
	 */
	hold(res, info, process) {
		/** @type {Entry} */
		const entry = {
			info,
			heldAt: new Date().toISOString(),
			res,
			answer: null,
			process,
			clientGone: false,
		};
		res.on('close', () => {
			if (!res.writableFinished) entry.clientGone = true;
		});
		this.entries.set(++this.seq, entry);
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
	 * Process held requests now, whether or not the client is still connected (the test decides what reached
	 * the service), and keep holding their answers. Returns the ids processed now.
	 * @param {number[]} [ids] all held requests when omitted
	 */
	commit(ids) {
		const done = [];
		for (const [id, e] of this.select(ids)) {
			if (e.answer !== null) continue;
			e.answer = e.process();
			done.push(id);
		}
		return done;
	}

	/**
	 * Answer held requests and forget them.
	 * @param {number[]} [ids] all held requests when omitted
	 * @returns {ReleaseOutcome[]}
	 */
	release(ids) {
		return this.select(ids).map(([id, e]) => {
			this.entries.delete(id);
			if (e.clientGone || e.res.destroyed)
				return { id, outcome: e.answer === null ? 'discarded' : 'clientGone' };
			const answer = e.answer ?? e.process();
			sendRaw(e.res, answer.status, answer.body, answer.contentType, answer.headers);
			return { id, outcome: 'answered' };
		});
	}

	/** Close every held connection without an answer and forget them (reset, close). */
	dropAll() {
		for (const e of this.entries.values()) e.res.destroy();
		this.entries.clear();
	}

	/**
	 * @param {number[]} [ids]
	 * @returns {[number, Entry][]}
	 */
	select(ids) {
		if (ids === undefined) return [...this.entries];
		const unknown = ids.filter((id) => !this.entries.has(id));
		if (unknown.length)
			throw new SandboxOptionError(`no held request with id ${unknown.join(', ')}`);
		return ids.map((id) => [id, /** @type {Entry} */ (this.entries.get(id))]);
	}
}

module.exports = { HeldRequests };
