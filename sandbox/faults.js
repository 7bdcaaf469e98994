'use strict';

const { createPrng } = require('./prng');
const { errorBody } = require('./http-util');

/**
 * Fault injection rules. First matching rule wins; a rule whose `times` are used up, whose
 * `firstAttemptPerKey` already saw the key, whose `maxPerKey` faults were already injected for the
 * request's Idempotency-Key, or whose probability roll fails is skipped.
 *
 * What a rule asks for (README "Fault rules"): an HTTP status with a body; dropping the connection after
 * the commit; a delay; a slow commit (`commitDelayMs`: the key stays "in progress" meanwhile, a
 * retry with it gets 409 idempotency_key_in_use); the request echoed in the answer (Api-Key included); a
 * body drip-fed `bytesPerTick` bytes every `intervalMs` (default 1 byte/s; `endless` adds spaces forever);
 * a gzip bomb of `inflatedMiB` MiB (default 1024; `endless` never ends); a request held until released
 * (`hold`, processed first with `commit`); an HTML error page; raw bytes.
 *
 * @typedef {{ status: number, body?: unknown, headers?: Record<string, string>, contentType?: string, commit?: boolean }
 *   | { dropAfterCommit: true }
 *   | { delayMs: number }
 *   | { commitDelayMs: number }
 *   | { echoRequest: true }
 *   | { drip: { intervalMs?: number, bytesPerTick?: number, endless?: boolean } }
 *   | { gzipBomb: { inflatedMiB?: number, endless?: boolean }, status?: number }
 *   | { hold: true, commit?: boolean }
 *   | { htmlError: number, headers?: Record<string, string>, commit?: boolean }
 *   | { rawBody: string|Buffer, repeat?: number, contentType?: string, status?: number, headers?: Record<string, string>, commit?: boolean }
 *   | { rawBodyBase64: string, repeat?: number, contentType?: string, status?: number, headers?: Record<string, string>, commit?: boolean }} FaultAction
 *
 * @typedef {{ seed?: number|string, p500?: number, pDropAfterCommit?: number, p429?: number,
 *   retryAfterSeconds?: number, pSlow?: number, slowMs?: number }} RandomFaults
 *
 * `maxPerKey`: at most that many faults from the rule per Idempotency-Key (requests without a key are not limited).
 * @typedef {{ method?: string, path?: string, times?: number, firstAttemptPerKey?: boolean,
 *   maxPerKey?: number, probability?: number, seed?: number|string, action?: FaultAction,
 *   random?: RandomFaults }} FaultRule
 *
 * @typedef {FaultRule[] | { random: RandomFaults } | { rules: FaultRule[] }} FaultRules what `set()` takes
 *
 * @typedef {{ type: 'status', status: number, body: string|Buffer, contentType: string, headers: Record<string,string>, commit: boolean }
 *   | { type: 'dropAfterCommit' }
 *   | { type: 'delay', ms: number }
 *   | { type: 'drip', intervalMs: number, bytesPerTick: number, endless: boolean }
 *   | { type: 'gzipBomb', status: number, inflatedMiB: number, endless: boolean }
 *   | { type: 'slowCommit', ms: number }
 *   | { type: 'echoRequest' }
 *   | { type: 'hold', commit: boolean }} CompiledAction
 *
 * @typedef {{ method: string|null, path: string|null, times: number, firstAttemptPerKey: boolean,
 *   probability: number|null, prng: () => number, matched: number, seenKeys: Set<string>|null,
 *   maxPerKey: number, faultsPerKey: Map<string, number>,
 *   action: CompiledAction|null, random: { prng: () => number, table: [number, CompiledAction][] }|null }} CompiledRule
 */

class FaultConfigError extends Error {}

const STATUS_CODES = /** @type {Record<number, string>} */ ({
	400: 'bad_request',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'not_found',
	409: 'conflict',
	413: 'payload_too_large',
	422: 'unprocessable_entity',
	429: 'rate_limited',
	500: 'internal_error',
	502: 'bad_gateway',
	503: 'service_unavailable',
	504: 'gateway_timeout',
});

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * @param {number} status
 */
function htmlPage(status) {
	return `<!DOCTYPE html>\n<html><head><title>${status} Error</title></head><body><center><h1>${status} Error</h1></center><hr><center>sandbox-proxy</center></body></html>\n`;
}

/**
 * @param {unknown} v
 * @param {string} what
 */
function statusOf(v, what) {
	const n = Number(v);
	if (!Number.isInteger(n) || n < 100 || n > 599)
		throw new FaultConfigError(`${what}: status must be an HTTP status code`);
	return n;
}

/**
 * @param {unknown} h
 */
function headersOf(h) {
	/** @type {Record<string, string>} */
	const out = {};
	if (h && typeof h === 'object') {
		for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
	}
	return out;
}

/**
 * Turn one action as a rule gives it (FaultAction, unchecked) into what match() returns.
 * @param {Record<string, unknown>} a
 * @returns {CompiledAction}
 */
function compileAction(a) {
	if (a.dropAfterCommit) return { type: 'dropAfterCommit' };
	if (a.hold !== undefined) {
		if (a.hold !== true) throw new FaultConfigError('hold must be true');
		return { type: 'hold', commit: a.commit === true };
	}
	if (a.delayMs !== undefined) return { type: 'delay', ms: numberAtLeast(a.delayMs, 0, 'delayMs') };
	if (a.commitDelayMs !== undefined)
		return { type: 'slowCommit', ms: numberAtLeast(a.commitDelayMs, 0, 'commitDelayMs') };
	if (a.echoRequest) return { type: 'echoRequest' };
	if (a.drip !== undefined) {
		const drip = /** @type {Record<string, unknown>} */ (
			a.drip && typeof a.drip === 'object' ? a.drip : {}
		);
		return {
			type: 'drip',
			intervalMs: numberAtLeast(drip.intervalMs ?? 1000, 1, 'drip.intervalMs'),
			bytesPerTick: numberAtLeast(drip.bytesPerTick ?? 1, 1, 'drip.bytesPerTick'),
			endless: drip.endless === true,
		};
	}
	if (a.gzipBomb !== undefined) {
		const bomb = /** @type {Record<string, unknown>} */ (
			a.gzipBomb && typeof a.gzipBomb === 'object' ? a.gzipBomb : {}
		);
		return {
			type: 'gzipBomb',
			status: a.status === undefined ? 200 : statusOf(a.status, 'gzipBomb'),
			inflatedMiB: numberAtLeast(bomb.inflatedMiB ?? 1024, 1, 'gzipBomb.inflatedMiB'),
			endless: bomb.endless === true,
		};
	}
	const commit = a.commit === true;
	if (a.htmlError !== undefined) {
		const status = statusOf(a.htmlError, 'htmlError');
		return {
			type: 'status',
			status,
			body: htmlPage(status),
			contentType: 'text/html; charset=utf-8',
			headers: headersOf(a.headers),
			commit,
		};
	}
	if (a.rawBody !== undefined || a.rawBodyBase64 !== undefined) {
		/** @type {Buffer} */
		let bytes;
		if (a.rawBodyBase64 !== undefined) bytes = Buffer.from(String(a.rawBodyBase64), 'base64');
		else if (Buffer.isBuffer(a.rawBody)) bytes = a.rawBody;
		else if (a.rawBody instanceof Uint8Array) bytes = Buffer.from(a.rawBody);
		else bytes = Buffer.from(String(a.rawBody), 'utf8');
		if (a.repeat !== undefined) {
			const n = Number(a.repeat);
			if (!Number.isInteger(n) || n < 0 || n * bytes.length > 512 * 1024 * 1024)
				throw new FaultConfigError('repeat must be an integer >= 0 (max 512 MiB total)');
			bytes = Buffer.alloc(bytes.length * n, bytes);
		}
		return {
			type: 'status',
			status: a.status === undefined ? 200 : statusOf(a.status, 'rawBody'),
			body: bytes,
			contentType: a.contentType === undefined ? JSON_TYPE : String(a.contentType),
			headers: headersOf(a.headers),
			commit,
		};
	}
	if (a.status !== undefined) {
		const status = statusOf(a.status, 'status');
		/** @type {string} */
		let body;
		let contentType = JSON_TYPE;
		if (a.body === undefined)
			body = JSON.stringify(
				errorBody(STATUS_CODES[status] ?? 'injected_fault', `Injected fault (HTTP ${status})`),
			);
		else if (typeof a.body === 'string') body = a.body;
		else body = JSON.stringify(a.body);
		if (a.contentType !== undefined) contentType = String(a.contentType);
		return { type: 'status', status, body, contentType, headers: headersOf(a.headers), commit };
	}
	throw new FaultConfigError(
		'action must have one of: status, dropAfterCommit, delayMs, commitDelayMs, hold, drip, gzipBomb, echoRequest, htmlError, rawBody, rawBodyBase64',
	);
}

/**
 * @param {unknown} v
 * @param {number} min
 * @param {string} name
 */
function numberAtLeast(v, min, name) {
	const n = Number(v);
	if (!Number.isFinite(n) || n < min)
		throw new FaultConfigError(`${name} must be a number >= ${min}`);
	return n;
}

/**
 * @param {unknown} p
 * @param {string} name
 */
function probabilityOf(p, name) {
	if (p === undefined) return 0;
	const n = Number(p);
	if (!Number.isFinite(n) || n < 0 || n > 1)
		throw new FaultConfigError(`${name} must be between 0 and 1`);
	return n;
}

/**
 * @param {RandomFaults} spec
 */
function compileRandom(spec) {
	if (!spec || typeof spec !== 'object') throw new FaultConfigError('random must be an object');
	const retryAfter = String(spec.retryAfterSeconds ?? 1);
	/** @type {[number, CompiledAction][]} */
	const table = [];
	let acc = 0;
	const add = (/** @type {number} */ p, /** @type {CompiledAction} */ action) => {
		if (p > 0) {
			acc += p;
			table.push([acc, action]);
		}
	};
	add(probabilityOf(spec.p500, 'p500'), compileAction({ status: 500 }));
	add(probabilityOf(spec.pDropAfterCommit, 'pDropAfterCommit'), { type: 'dropAfterCommit' });
	add(
		probabilityOf(spec.p429, 'p429'),
		compileAction({ status: 429, headers: { 'retry-after': retryAfter } }),
	);
	add(probabilityOf(spec.pSlow, 'pSlow'), { type: 'delay', ms: Number(spec.slowMs ?? 200) });
	if (acc > 1 + 1e-9) throw new FaultConfigError('random probabilities add up to more than 1');
	return { prng: createPrng(spec.seed ?? 1), table };
}

/**
 * @param {FaultRule} rule
 * @param {number} index
 * @returns {CompiledRule}
 */
function compileRule(rule, index) {
	if (!rule || typeof rule !== 'object' || Array.isArray(rule))
		throw new FaultConfigError(`rule ${index} must be an object`);
	const times = rule.times === undefined ? Infinity : Number(rule.times);
	if (!(times >= 0)) throw new FaultConfigError(`rule ${index}: times must be a number >= 0`);
	const maxPerKey = rule.maxPerKey === undefined ? Infinity : Number(rule.maxPerKey);
	if (!(maxPerKey >= 0))
		throw new FaultConfigError(`rule ${index}: maxPerKey must be a number >= 0`);
	const compiled = {
		method: rule.method ? String(rule.method).toUpperCase() : null,
		path: rule.path ? String(rule.path) : null,
		times,
		firstAttemptPerKey: rule.firstAttemptPerKey === true,
		probability:
			rule.probability === undefined
				? null
				: probabilityOf(rule.probability, `rule ${index}: probability`),
		prng: createPrng(rule.seed ?? 1),
		matched: 0,
		seenKeys: rule.firstAttemptPerKey === true ? new Set() : null,
		maxPerKey,
		faultsPerKey: new Map(),
		action: /** @type {CompiledAction|null} */ (null),
		random: /** @type {CompiledRule['random']} */ (null),
	};
	try {
		if (rule.random !== undefined) compiled.random = compileRandom(rule.random);
		else
			compiled.action = compileAction(
				rule.action && typeof rule.action === 'object' ? rule.action : rule,
			);
	} catch (err) {
		if (err instanceof FaultConfigError)
			throw new FaultConfigError(`rule ${index}: ${err.message}`);
		throw err;
	}
	return compiled;
}

class FaultInjector {
	constructor() {
		/** @type {CompiledRule[]} */
		this.compiled = [];
		/** @type {unknown} */
		this.source = [];
		this.injected = 0;
	}

	/**
	 * Replace the rules. Accepts an array of rules, `{ rules: [...] }`, or a single `{ random: {...} }`.
	 * Throws FaultConfigError (nothing changes) when invalid.
	 * @param {unknown} input
	 */
	set(input) {
		/** @type {unknown} */
		let rules = input;
		if (rules === null || rules === undefined) rules = [];
		else if (!Array.isArray(rules) && typeof rules === 'object') {
			const obj = /** @type {Record<string, unknown>} */ (rules);
			rules = Array.isArray(obj.rules) ? obj.rules : [obj];
		}
		if (!Array.isArray(rules)) throw new FaultConfigError('faults must be an array of rules');
		this.compiled = rules.map((r, i) => compileRule(r, i));
		this.source = input ?? [];
	}

	clear() {
		this.compiled = [];
		this.source = [];
		this.injected = 0;
	}

	/**
	 * Find the fault to inject for this request, if any.
	 * @param {string} method upper-case
	 * @param {string} path pathname
	 * @param {string|undefined} idempotencyKey
	 */
	match(method, path, idempotencyKey) {
		const rules = this.compiled;
		for (let i = 0; i < rules.length; i++) {
			const r = rules[i];
			if (r.method !== null && r.method !== method) continue;
			if (r.path !== null && !path.startsWith(r.path)) continue;
			if (r.seenKeys !== null) {
				if (!idempotencyKey || r.seenKeys.has(idempotencyKey)) continue;
				r.seenKeys.add(idempotencyKey);
			}
			if (r.matched >= r.times) continue;
			const keyFaults = idempotencyKey ? (r.faultsPerKey.get(idempotencyKey) ?? 0) : 0;
			if (keyFaults >= r.maxPerKey) continue;
			r.matched++;
			if (r.probability !== null && r.prng() >= r.probability) continue;
			/** @type {CompiledAction|null} */
			let action = r.action;
			if (r.random !== null) {
				action = null;
				const roll = r.random.prng();
				for (const [upTo, a] of r.random.table) {
					if (roll < upTo) {
						action = a;
						break;
					}
				}
				if (action === null) continue;
			}
			if (idempotencyKey && r.maxPerKey !== Infinity)
				r.faultsPerKey.set(idempotencyKey, keyFaults + 1);
			this.injected++;
			return action;
		}
		return null;
	}
}

module.exports = { FaultInjector, FaultConfigError };
