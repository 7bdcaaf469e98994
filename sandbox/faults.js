'use strict';

const { createPrng } = require('./prng');
const { errorBody, JSON_TYPE } = require('./http-util');
const { SandboxOptionError, numberOption } = require('./options');

/**
 * Fault injection rules (sandbox/README.md "Fault rules").
 *
 * @typedef {{ status: number, body?: unknown, headers?: Record<string, string>, contentType?: string }
 *   | { dropAfterCommit: true } | { delayMs: number } | { echoRequest: true }
 *   | { drip: { intervalMs?: number, endless?: boolean } } | { gzipBomb: { inflatedMiB?: number, endless?: boolean } }
 *   | { hold: true } | { htmlError: number } | { rawBody: string, contentType?: string, status?: number }
 *   | { rawBodyBase64: string, contentType?: string, status?: number }} FaultAction
 * @typedef {{ seed?: number, p500?: number, pDropAfterCommit?: number, p429?: number,
 *   retryAfterSeconds?: number, pSlow?: number, slowMs?: number }} RandomFaults
 * @typedef {{ method?: string, path?: string, times?: number, maxPerKey?: number, action?: FaultAction,
 *   random?: RandomFaults }} FaultRule
 * @typedef {{ type: 'status', status: number, body: string|Buffer, contentType: string, headers: Record<string,string> }
 *   | { type: 'dropAfterCommit' } | { type: 'delay', ms: number }
 *   | { type: 'drip', intervalMs: number, endless: boolean } | { type: 'gzipBomb', inflatedMiB: number, endless: boolean }
 *   | { type: 'echoRequest' } | { type: 'hold' }} CompiledAction what match() returns
 */

/** @param {number} status */
const htmlPage = (status) =>
	`<!DOCTYPE html>\n<html><head><title>${status} Error</title></head><body><center><h1>${status} Error</h1></center><hr><center>sandbox-proxy</center></body></html>\n`;

/** @param {unknown} value @param {string} name */
const statusOf = (value, name) => numberOption(value, 200, `${name}: status`, 100, true);

/** An answer given before the request is processed. @param {number} status @param {string|Buffer} body @param {unknown} contentType @param {unknown} [headers] @returns {CompiledAction} */
const answer = (status, body, contentType, headers) => ({
	type: 'status',
	status,
	body,
	contentType: contentType === undefined ? JSON_TYPE : String(contentType),
	headers: /** @type {Record<string, string>} */ (headers ?? {}),
});

/** One action as a rule gives it (FaultAction, unchecked), checked. @param {Record<string, any>} a @returns {CompiledAction} */
function compileAction(a) {
	if (a.dropAfterCommit) return { type: 'dropAfterCommit' };
	if (a.hold) return { type: 'hold' };
	if (a.echoRequest) return { type: 'echoRequest' };
	if (a.delayMs !== undefined)
		return { type: 'delay', ms: numberOption(a.delayMs, 0, 'delayMs', 0) };
	if (a.drip !== undefined)
		return {
			type: 'drip',
			intervalMs: numberOption(a.drip.intervalMs, 1000, 'drip.intervalMs', 1),
			endless: a.drip.endless === true,
		};
	if (a.gzipBomb !== undefined)
		return {
			type: 'gzipBomb',
			inflatedMiB: numberOption(a.gzipBomb.inflatedMiB, 1024, 'gzipBomb.inflatedMiB', 1),
			endless: a.gzipBomb.endless === true,
		};
	if (a.htmlError !== undefined) {
		const status = statusOf(a.htmlError, 'htmlError');
		return answer(status, htmlPage(status), 'text/html; charset=utf-8');
	}
	if (a.rawBody !== undefined || a.rawBodyBase64 !== undefined) {
		const bytes =
			a.rawBody === undefined
				? Buffer.from(a.rawBodyBase64, 'base64')
				: Buffer.from(String(a.rawBody));
		return answer(statusOf(a.status, 'rawBody'), bytes, a.contentType);
	}
	if (a.status !== undefined) {
		const status = statusOf(a.status, 'status');
		const body =
			a.body === undefined
				? errorBody('injected_fault', `Injected fault (HTTP ${status})`)
				: a.body;
		return answer(
			status,
			typeof body === 'string' ? body : JSON.stringify(body),
			a.contentType,
			a.headers,
		);
	}
	throw new SandboxOptionError(
		'action must have one of: status, dropAfterCommit, delayMs, hold, drip, gzipBomb, echoRequest, htmlError, rawBody, rawBodyBase64',
	);
}

/** @param {unknown} p @param {string} name */
function probabilityOf(p, name) {
	const n = numberOption(p, 0, name, 0);
	if (n > 1) throw new SandboxOptionError(`${name} must be between 0 and 1`);
	return n;
}

/** One action drawn from the `random` table at each match (none, for the rest of the probability). @param {RandomFaults} spec @returns {() => CompiledAction|null} */
function randomPick(spec) {
	/** @type {[number, CompiledAction][]} */
	const table = [];
	let upTo = 0;
	const retryAfter = {
		'retry-after': String(numberOption(spec.retryAfterSeconds, 1, 'retryAfterSeconds', 0, true)),
	};
	/** @type {Array<[keyof RandomFaults, CompiledAction]>} */
	const kinds = [
		['p500', compileAction({ status: 500 })],
		['pDropAfterCommit', { type: 'dropAfterCommit' }],
		['p429', compileAction({ status: 429, headers: retryAfter })],
		['pSlow', { type: 'delay', ms: numberOption(spec.slowMs, 200, 'slowMs', 0) }],
	];
	for (const [name, action] of kinds) {
		const p = probabilityOf(spec[name], name);
		if (p > 0) table.push([(upTo += p), action]);
	}
	if (upTo > 1 + 1e-9) throw new SandboxOptionError('random probabilities add up to more than 1');
	const prng = createPrng(spec.seed);
	return () => {
		const roll = prng();
		return table.find(([until]) => roll < until)?.[1] ?? null;
	};
}

/** @param {FaultRule} rule */
function compileRule(rule) {
	const action = rule.random === undefined ? compileAction(rule.action ?? {}) : null;
	return {
		method: rule.method ? rule.method.toUpperCase() : null,
		path: rule.path ?? null,
		times: numberOption(rule.times, Infinity, 'times', 0),
		matched: 0,
		maxPerKey: numberOption(rule.maxPerKey, Infinity, 'maxPerKey', 0),
		/** @type {Map<string, number>} */
		faultsPerKey: new Map(),
		pick: rule.random === undefined ? () => action : randomPick(rule.random),
	};
}

class FaultInjector {
	/** @type {ReturnType<typeof compileRule>[]} */
	compiled = [];
	injected = 0;

	/** Replaces the rules (null: none); nothing changes when one is invalid. @param {FaultRule[]|null} rules */
	set(rules) {
		this.compiled = (rules ?? []).map((rule, index) => {
			try {
				return compileRule(rule);
			} catch (err) {
				throw err instanceof SandboxOptionError
					? new SandboxOptionError(`rule ${index}: ${err.message}`)
					: err;
			}
		});
	}

	clear() {
		this.compiled = [];
		this.injected = 0;
	}

	/** The fault to inject for this request, if any. @param {string} method @param {string} path @param {string|undefined} idempotencyKey */
	match(method, path, idempotencyKey) {
		for (const r of this.compiled) {
			if (r.method !== null && r.method !== method) continue;
			if (r.path !== null && !path.startsWith(r.path)) continue;
			if (r.matched >= r.times) continue;
			const keyFaults = idempotencyKey ? (r.faultsPerKey.get(idempotencyKey) ?? 0) : 0;
			if (keyFaults >= r.maxPerKey) continue;
			r.matched++;
			const action = r.pick();
			if (action === null) continue;
			if (idempotencyKey && r.maxPerKey !== Infinity)
				r.faultsPerKey.set(idempotencyKey, keyFaults + 1);
			this.injected++;
			return action;
		}
		return null;
	}
}

module.exports = { FaultInjector };
