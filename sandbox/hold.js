'use strict';

const { sendRaw } = require('./http-util');
const { SandboxOptionError } = require('./options');

/**
 * POSTs held by the fault action `hold` until the test releases them (README "Holding requests until the test
 * releases them"), read whole and parked before the service looked at them, so that a test makes a state happen on
 * purpose ("a client waits on a POST the service has committed") instead of hoping a delay is long enough.
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
	/** @type {Map<number, Entry>} */
	entries = new Map();
	seq = 0;

	/** Parks a request; `process` runs on `commit()` or `release()`. @param {ServerResponse} res @param {HeldRequestInfo} info @param {() => HeldAnswer} process */
	hold(res, info, process) {
		const heldAt = new Date().toISOString();
		/** @type {Entry} */
		const entry = { info, heldAt, res, answer: null, process, clientGone: false };
		res.on('close', () => (entry.clientGone ||= !res.writableFinished));
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
	 * Processes held requests now, whether or not the client is still connected (the test decides what reached the
	 * service), and keeps holding their answers; the ids processed now. @param {number[]} [ids] all when omitted
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
	 * Answers held requests whose client is still connected (processing them first if needed) and forgets them all.
	 * One whose client went away is discarded if never processed (as if it never reached the service), else its
	 * record stays. @param {number[]} [ids] all when omitted @returns {ReleaseOutcome[]}
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

	/** @param {number[]} [ids] @returns {[number, Entry][]} */
	select(ids) {
		if (ids === undefined) return [...this.entries];
		const unknown = ids.filter((id) => !this.entries.has(id));
		if (unknown.length)
			throw new SandboxOptionError(`no held request with id ${unknown.join(', ')}`);
		return ids.map((id) => [id, /** @type {Entry} */ (this.entries.get(id))]);
	}
}

module.exports = { HeldRequests };
