'use strict';

const { setTimeout: sleep } = require('node:timers/promises');
const { listRecords, listingModeOf } = require('./accounts');
const http = require('./http-util');

const { sendRaw, sendError, errorBody, JSON_TYPE } = http;

/**
 * The /v1 API: latency, auth, tenant check, rate limit, fault injection, listings, idempotent POSTs.
 *
 * @import { IncomingMessage, ServerResponse } from 'node:http'
 * @import { SandboxState } from './state'
 * @import { CompiledAction } from './faults'
 * @import { HeldAnswer } from './hold'
 * @typedef {{ stop: AbortSignal, origin: string, state: SandboxState, held: import('./hold').HeldRequests }} ApiContext
 * @typedef {{ ctx: ApiContext, state: SandboxState, req: IncomingMessage, res: ServerResponse, method: string,
 *   path: string, segs: string[], query: string, idemKey: string|undefined, fault: CompiledAction|null }} Call
 *   one request: `segs` are the path's segments after /v1, `query` the text after '?'
 */

const LISTING_CACHE_MAX = 512;

/** What "the same request" means: method, path, and the body as JSON with object keys sorted at every level. */
const fingerprint = (
	/** @type {string} */ method,
	/** @type {string} */ path,
	/** @type {unknown} */ body,
) =>
	`${method} ${path}\n${JSON.stringify(body, (_, value) =>
		value !== null && typeof value === 'object' && !Array.isArray(value)
			? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
			: value,
	)}`;

/**
 * Answers a processed request, honouring the faults that act after the commit: the request echoed in the answer
 * (headers included, so the Api-Key too: a debugging echo some APIs really send), a body drip-fed, a delay, or the
 * connection dropped.
 * @param {Call} call @param {number} status @param {string} body JSON text @param {Record<string, string>} [headers]
 */
function respond({ ctx, req, res, fault }, status, body, headers) {
	const type = fault?.type;
	if (type === 'echoRequest') {
		const parsed = JSON.parse(body);
		const request = { method: req.method, url: req.url, headers: req.headers };
		const echoed = Array.isArray(parsed) ? { data: parsed, request } : { ...parsed, request };
		sendRaw(res, status, JSON.stringify(echoed), JSON_TYPE, headers);
	} else if (fault?.type === 'drip')
		http.sendDripping(res, status, body, fault, ctx.stop, () => ctx.state.answersCutShort++);
	else if (fault?.type === 'delay')
		later(ctx, fault.ms, () => {
			if (!res.destroyed && !res.writableEnded) sendRaw(res, status, body, JSON_TYPE, headers);
		});
	else if (type === 'dropAfterCommit') req.socket.destroy();
	else sendRaw(res, status, body, JSON_TYPE, headers);
}

/** Runs `then` in `ms`, unless the sandbox closes first. @param {ApiContext} ctx @param {number} ms @param {() => void} then */
function later(ctx, ms, then) {
	void sleep(ms, undefined, { signal: ctx.stop }).then(then, () => {});
}

/**
 * @param {SandboxState} state @param {ApiContext} ctx @param {IncomingMessage} req @param {ServerResponse} res
 * @param {string} rawPath pathname as received, starting with /v1 @param {string} query text after '?', or ''
 */
function handleApi(state, ctx, req, res, rawPath, query) {
	const path = rawPath.length > 3 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
	const method = /** @type {string} */ (req.method);
	const segs = path.length > 4 ? path.slice(4).split('/') : [];
	// Stats key: ids in GET /v1/<collection>/<id> (and PUT, PATCH, DELETE) folded to ":id".
	const key =
		method !== 'POST' && segs.length === 2 ? `${method} /v1/${segs[0]}/:id` : `${method} ${path}`;
	state.requests++;
	state.byRoute[key] = (state.byRoute[key] ?? 0) + 1;
	state.peakInFlight = Math.max(state.peakInFlight, ++state.inFlight);
	res.on('close', () => state.inFlight--);

	// The rate limit decides when the request arrives; the answer, whatever it is, comes after the latency.
	const apiKey = req.headers['api-key'];
	const verdict = apiKey === state.apiKey ? state.rateLimit.take(apiKey) : null;
	for (const [name, value] of Object.entries(verdict?.headers ?? {})) res.setHeader(name, value);
	const header = req.headers['idempotency-key'];
	const idemKey = typeof header === 'string' ? header : undefined;
	/** @type {Call} */
	const call = { ctx, state, req, res, method, path, segs, query, idemKey, fault: null };
	const delayMs = state.latency.nextMs();
	if (delayMs === 0) return answerApi(call, verdict);
	later(ctx, delayMs, () => {
		if (!res.destroyed) answerApi(call, verdict);
	});
}

/** @param {Call} call @param {import('./rateLimit').Verdict|null} verdict the rate limit's decision, null without a limit */
function answerApi(call, verdict) {
	const { state, req, res, method, segs } = call;
	if (req.headers['api-key'] !== state.apiKey)
		return sendError(res, 401, 'unauthorized', 'Invalid or missing API key');
	const tenant = req.headers['x-tenant-id'];
	if (tenant !== undefined && tenant !== state.tenantId)
		return sendError(res, 403, 'tenant_mismatch', 'Unknown tenant');
	if (verdict && !verdict.ok) {
		const message = `Too many requests: ${state.rateLimit.config?.perSecond} per second are allowed for this key`;
		return sendError(res, 429, 'rate_limited', message, {
			'retry-after': String(verdict.retryAfterSeconds),
		});
	}
	const fault = state.faults.match(method, call.path, call.idemKey);
	if (fault?.type === 'status')
		return sendRaw(res, fault.status, fault.body, fault.contentType, fault.headers);
	if (fault?.type === 'gzipBomb')
		return http.sendGzipBomb(res, fault, () => state.answersCutShort++);
	call.fault = fault;
	if (method === 'GET') return handleGet(call);
	if (method === 'POST') return void handlePost(call);
	if ((method === 'PUT' || method === 'PATCH' || method === 'DELETE') && segs.length === 2)
		return void handleChange(call);
	sendError(res, 405, 'method_not_allowed', `Method ${method} is not supported`, {
		allow: 'GET, POST, PUT, PATCH, DELETE',
	});
}

/** @param {Call} call */
function handleGet(call) {
	const { state, req, segs, query } = call;
	const origin = req.headers.host ? `http://${req.headers.host}` : call.ctx.origin;
	const [collection, id] = segs;
	if (segs.length === 1 && collection === 'accounts') {
		// Accounts never change, so a listing is a pure function of (mode, sizes, host, query): cache the text.
		const p = state.pagination;
		const cacheKey = `${p.mode}|${p.defaultPageSize}|${p.maxPageSize}|${origin}|${query}`;
		let hit = state.listingCache.get(cacheKey);
		if (hit === undefined) {
			const out = listRecords(state.accounts, new URLSearchParams(query), p, origin);
			hit = { status: out.status, text: JSON.stringify(out.body) };
			if (state.listingCache.size >= LISTING_CACHE_MAX) state.listingCache.clear();
			state.listingCache.set(cacheKey, hit);
		}
		return respond(call, hit.status, hit.text);
	}
	if (segs.length === 2) {
		const found =
			collection === 'accounts' ? state.accountsById.get(id) : state.recordsById.get(id);
		if (found && (collection === 'accounts' || found.object === collection))
			return respond(call, 200, JSON.stringify(found));
		return respond(
			call,
			404,
			JSON.stringify(errorBody('not_found', `No such ${collection}: ${id}`)),
		);
	}
	if (segs.length === 1 && collection !== '') {
		const records = [
			...(state.seeded[collection] ?? []),
			...state.records.filter((r) => r.object === collection),
		];
		const cfg = { ...state.pagination, mode: listingModeOf(collection) };
		const out = listRecords(records, new URLSearchParams(query), cfg, origin, `/v1/${collection}`);
		return respond(call, out.status, JSON.stringify(out.body));
	}
	respond(call, 404, JSON.stringify(errorBody('not_found', 'No such route')));
}

/** @param {Call} call */
async function handlePost(call) {
	const { ctx, state, res, segs, path, idemKey, fault } = call;
	if (segs.length === 0 || segs[0] === '') return sendError(res, 404, 'not_found', 'No such route');
	const missing = 'The Idempotency-Key header is required for POST requests';
	if (!idemKey) return sendError(res, 400, 'idempotency_key_missing', missing);
	const body = await http.readObject(call.req, res);
	if (body === undefined) return;
	const scoped = `${state.tenantId}\u0000${idemKey}`;
	const fp = fingerprint('POST', path, body);
	const processPost = () =>
		answerKnownKey(state, scoped, fp) ??
		commitPost(state, segs[0], path, scoped, idemKey, fp, body);
	if (fault?.type === 'hold')
		return ctx.held.hold(res, { method: 'POST', path, idempotencyKey: idemKey, body }, processPost);
	const answer = processPost();
	// A conflict is answered at once: it changed nothing, so post-commit faults do not apply.
	if (answer.status === 409)
		sendRaw(res, answer.status, answer.body, answer.contentType, answer.headers);
	else respond(call, answer.status, answer.body, answer.headers);
}

/**
 * The answer for a key the service already knows: the stored answer (same request), or a refusal (another
 * request); null for a new key.
 * @param {SandboxState} state @param {string} scoped the key in its tenant @param {string} fp
 * @returns {HeldAnswer|null}
 */
function answerKnownKey(state, scoped, fp) {
	const seen = state.idempotency.get(scoped);
	if (seen === undefined) return null;
	if (seen.fingerprint !== fp) {
		state.conflicts++;
		const message = 'This Idempotency-Key was already used with a different request';
		const body = JSON.stringify(errorBody('idempotency_key_reuse', message));
		return { status: 409, body, contentType: JSON_TYPE, recordId: null };
	}
	state.replays++;
	const { status, body, recordId } = seen;
	const headers = { 'idempotent-replayed': 'true' };
	return { status, body, contentType: JSON_TYPE, headers, recordId };
}

/**
 * Commits a new record: from here on, a retry with the same key replays this answer.
 * @param {SandboxState} state @param {string} collection @param {string} path @param {string} scoped
 * @param {string} idemKey @param {string} fp @param {Record<string, unknown>} body @returns {HeldAnswer}
 */
function commitPost(state, collection, path, scoped, idemKey, fp, body) {
	const record = state.createRecord(collection, path.slice(3), idemKey, body);
	const text = JSON.stringify(record);
	state.idempotency.set(scoped, { fingerprint: fp, status: 201, body: text, recordId: record.id });
	state.webhooks.recordCreated(collection, record);
	return { status: 201, body: text, contentType: JSON_TYPE, recordId: record.id };
}

/**
 * PUT replaces a created record's fields, PATCH merges into them, DELETE removes the record. All are naturally
 * idempotent, so they need no Idempotency-Key (one is accepted and ignored).
 * @param {Call} call
 */
async function handleChange(call) {
	const { state, segs, method } = call;
	const [collection, id] = segs;
	if (state.recordsById.get(id)?.object !== collection)
		return sendError(call.res, 404, 'not_found', `No such ${collection}: ${id}`);
	if (method === 'DELETE') {
		state.deleteRecord(id);
		return respond(call, 200, JSON.stringify({ id, object: collection, deleted: true }));
	}
	const fields = await http.readObject(call.req, call.res);
	if (fields !== undefined)
		respond(call, 200, JSON.stringify(state.updateRecord(id, fields, method === 'PUT')));
}

module.exports = { handleApi };
