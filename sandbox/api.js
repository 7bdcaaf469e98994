'use strict';

const { listRecords } = require('./accounts');
const { listingModeOf } = require('./collections');
const { IdempotencyStore, fingerprint } = require('./idempotency');
const http = require('./http-util');

const { sendRaw, sendError, errorBody, JSON_TYPE } = http;

/**
 * The /v1 API: latency, auth, tenant check, rate limit, fault injection, listings, idempotent POSTs.
 *
 * @import { IncomingMessage, ServerResponse } from 'node:http'
 * @import { SandboxState } from './state'
 * @import { CompiledAction } from './faults'
 * @import { HeldAnswer } from './hold'
 * @typedef {{ delayTimers: Set<NodeJS.Timeout>, origin: string, state: SandboxState, held: import('./hold').HeldRequests }} ApiContext
 */

const REPLAY_HEADERS = { 'idempotent-replayed': 'true' };
const IN_PROGRESS_MESSAGE =
	'There is currently another in-progress request using this Idempotency-Key (that probably means you submitted twice, and the other request is still going through). Please try again later.';
const LISTING_CACHE_MAX = 512;

/**
 * Destroy the connection without an answer.
 * @param {IncomingMessage} req
 */
function drop(req) {
	req.socket.destroy();
}

/**
 * The answer with what the request carried (headers included, so the Api-Key too): a debugging echo
 * some APIs really send.
 * @param {IncomingMessage} req
 * @param {string} body JSON text
 */
function withEcho(req, body) {
	const parsed = JSON.parse(body);
	const echo = { method: req.method, url: req.url, headers: req.headers };
	return JSON.stringify(
		Array.isArray(parsed) ? { data: parsed, request: echo } : { ...parsed, request: echo },
	);
}

/**
 * Answer a processed request, honouring the faults that act after the commit.
 * @param {ApiContext} ctx
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {CompiledAction|null} fault
 * @param {number} status
 * @param {string} body JSON text
 * @param {Record<string, string>} [headers]
 */
function respond(ctx, req, res, fault, status, body, headers) {
	if (fault?.type === 'echoRequest') body = withEcho(req, body);
	if (fault === null || fault.type === 'echoRequest' || fault.type === 'hold') {
		sendRaw(res, status, body, JSON_TYPE, headers);
	} else if (fault.type === 'drip') {
		http.sendDripping(res, status, body, fault, ctx.delayTimers, () => ctx.state.answersCutShort++);
	} else if (fault.type === 'delay' || fault.type === 'slowCommit') {
		const t = setTimeout(() => {
			ctx.delayTimers.delete(t);
			if (!res.destroyed && !res.writableEnded) sendRaw(res, status, body, JSON_TYPE, headers);
		}, fault.ms);
		ctx.delayTimers.add(t);
	} else {
		drop(req);
	}
}

/**
 * Stats key: method + path, with ids in GET /v1/<collection>/<id> folded to ":id".
 * @param {string} method
 * @param {string[]} segs path segments after /v1
 * @param {string} path
 */
function routeKey(method, segs, path) {
	if (method !== 'POST' && segs.length === 2) return `${method} /v1/${segs[0]}/:id`;
	return method + ' ' + path;
}

/**
 * @param {SandboxState} state
 * @param {ApiContext} ctx
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {string} rawPath pathname as received, starting with /v1
 * @param {string} query text after '?', or ''
 */
function handleApi(state, ctx, req, res, rawPath, query) {
	const path = rawPath.length > 3 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
	const method = /** @type {string} */ (req.method);
	const segs = path.length > 4 ? path.slice(4).split('/') : [];
	const key = routeKey(method, segs, path);
	state.requests++;
	state.byRoute[key] = (state.byRoute[key] ?? 0) + 1;
	state.inFlight++;
	state.peakInFlight = Math.max(state.peakInFlight, state.inFlight);
	res.on('close', () => state.inFlight--);

	// The rate limit decides when the request arrives; the answer, whatever it is, comes after the latency.
	const apiKey = req.headers['api-key'];
	const verdict = apiKey === state.apiKey ? state.rateLimit.take(apiKey) : null;
	if (verdict)
		for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
	const answer = () => answerApi(state, ctx, req, res, method, segs, path, query, verdict);
	const delayMs = state.latency.nextMs();
	if (delayMs === 0) return answer();
	const timer = setTimeout(() => {
		ctx.delayTimers.delete(timer);
		if (!res.destroyed) answer();
	}, delayMs);
	ctx.delayTimers.add(timer);
}

/**
 * @param {SandboxState} state
 * @param {ApiContext} ctx
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {string} method
 * @param {string[]} segs path segments after /v1
 * @param {string} path
 * @param {string} query
 * @param {import('./rateLimit').Verdict|null} verdict the rate limit's decision, null without a limit
 */
function answerApi(state, ctx, req, res, method, segs, path, query, verdict) {
	const headers = req.headers;
	if (headers['api-key'] !== state.apiKey) {
		sendError(res, 401, 'unauthorized', 'Invalid or missing API key');
		return;
	}
	const tenantHeader = headers['x-tenant-id'];
	if (tenantHeader !== undefined && tenantHeader !== state.tenantId) {
		sendError(res, 403, 'tenant_mismatch', 'Unknown tenant');
		return;
	}
	if (verdict && !verdict.ok) {
		const limit = /** @type {import('./rateLimit').RateLimitConfig} */ (state.rateLimit.config);
		sendError(
			res,
			429,
			'rate_limited',
			`Too many requests: ${limit.perSecond} per second are allowed for this key`,
			{
				'retry-after': String(verdict.retryAfterSeconds),
			},
		);
		return;
	}
	const idemKey =
		typeof headers['idempotency-key'] === 'string' ? headers['idempotency-key'] : undefined;

	const fault =
		state.faults.compiled.length === 0 ? null : state.faults.match(method, path, idemKey);
	if (fault?.type === 'status')
		return sendRaw(res, fault.status, fault.body, fault.contentType, fault.headers);
	if (fault?.type === 'gzipBomb')
		return http.sendGzipBomb(res, fault, () => state.answersCutShort++);

	if (method === 'GET') return handleGet(state, ctx, req, res, fault, segs, query);
	if (method === 'POST')
		return void handlePost(state, ctx, req, res, fault, segs, path, idemKey, state.tenantId);
	if ((method === 'PUT' || method === 'PATCH' || method === 'DELETE') && segs.length === 2)
		return void handleChange(state, ctx, req, res, fault, method, segs);
	sendError(res, 405, 'method_not_allowed', `Method ${method} is not supported`, {
		allow: 'GET, POST, PUT, PATCH, DELETE',
	});
}

/**
 * @param {SandboxState} state
 * @param {ApiContext} ctx
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {CompiledAction|null} fault
 * @param {string[]} segs
 * @param {string} query
 */
function handleGet(state, ctx, req, res, fault, segs, query) {
	if (segs.length === 1 && segs[0] === 'accounts') {
		// Accounts never change, so a listing is a pure function of (mode, sizes, host, query): cache the text.
		const host = req.headers.host;
		const p = state.pagination;
		const cacheKey = `${p.mode}|${p.defaultPageSize}|${p.maxPageSize}|${host}|${query}`;
		const listingCache = state.listingCache;
		let hit = listingCache.get(cacheKey);
		if (hit === undefined) {
			const out = listRecords(
				state.accounts,
				new URLSearchParams(query),
				p,
				host ? `http://${host}` : ctx.origin,
			);
			hit = { status: out.status, text: JSON.stringify(out.body) };
			if (listingCache.size >= LISTING_CACHE_MAX) listingCache.clear();
			listingCache.set(cacheKey, hit);
		}
		return respond(ctx, req, res, fault, hit.status, hit.text);
	}
	if (segs.length === 2) {
		const [collection, id] = segs;
		const found =
			collection === 'accounts'
				? state.accountsById.get(id)
				: (state.recordsById.get(id) ?? state.seededById.get(id));
		if (found && (collection === 'accounts' || found.object === collection)) {
			return respond(ctx, req, res, fault, 200, JSON.stringify(found));
		}
		return respond(
			ctx,
			req,
			res,
			fault,
			404,
			JSON.stringify({ error: { code: 'not_found', message: `No such ${collection}: ${id}` } }),
		);
	}
	if (segs.length === 1 && segs[0] !== '') {
		const collection = segs[0];
		const records = [
			...(state.seeded[collection] ?? []),
			...state.records.filter((r) => r.object === collection),
		];
		const host = req.headers.host;
		const cfg = { ...state.pagination, mode: listingModeOf(collection) };
		const out = listRecords(
			records,
			new URLSearchParams(query),
			cfg,
			host ? `http://${host}` : ctx.origin,
			`/v1/${collection}`,
		);
		return respond(ctx, req, res, fault, out.status, JSON.stringify(out.body));
	}
	respond(
		ctx,
		req,
		res,
		fault,
		404,
		JSON.stringify({ error: { code: 'not_found', message: 'No such route' } }),
	);
}

/**
 * @param {SandboxState} state
 * @param {ApiContext} ctx
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {CompiledAction|null} fault
 * @param {string[]} segs
 * @param {string} path
 * @param {string|undefined} idemKey
 * @param {string} tenant
 */
async function handlePost(state, ctx, req, res, fault, segs, path, idemKey, tenant) {
	if (segs.length === 0 || segs[0] === '') {
		sendError(res, 404, 'not_found', 'No such route');
		return;
	}
	if (!idemKey) {
		sendError(
			res,
			400,
			'idempotency_key_missing',
			'The Idempotency-Key header is required for POST requests',
		);
		return;
	}
	const body = await http.readObject(req, res);
	if (body === undefined) return;

	const processPost = () => commitPost(state, segs, path, idemKey, tenant, body);
	if (fault?.type === 'hold')
		return ctx.held.hold(res, { method: 'POST', path, idempotencyKey: idemKey, body }, processPost);
	const scoped = IdempotencyStore.scope(tenant, idemKey);
	const known =
		fault?.type === 'slowCommit'
			? answerKnownKey(state, scoped, fingerprint('POST', path, body))
			: null;
	if (fault?.type === 'slowCommit' && known === null) {
		// A slow commit: meanwhile the key is "in progress" and a retry with it gets a 409 (as some payment APIs answer).
		// The commit happens even when the client has gone away.
		state.inProgress.add(scoped);
		const timer = setTimeout(() => {
			ctx.delayTimers.delete(timer);
			state.inProgress.delete(scoped);
			const answer = processPost();
			if (!res.destroyed && !res.writableEnded)
				sendRaw(res, answer.status, answer.body, answer.contentType, answer.headers);
		}, fault.ms);
		ctx.delayTimers.add(timer);
		return;
	}
	const answer = known ?? processPost();
	// A conflict is answered at once: it changed nothing, so post-commit faults do not apply.
	if (answer.status === 409)
		sendRaw(res, answer.status, answer.body, answer.contentType, answer.headers);
	else respond(ctx, req, res, fault, answer.status, String(answer.body), answer.headers);
}

/**
 * The answer for a key the service already knows: "still in progress", the stored answer (same
 * request), or a refusal (another request); null for a new key.
 * @param {SandboxState} state
 * @param {string} scoped
 * @param {string} fp
 * @returns {HeldAnswer|null}
 */
function answerKnownKey(state, scoped, fp) {
	if (state.inProgress.has(scoped)) {
		state.conflicts++;
		return {
			status: 409,
			body: JSON.stringify(errorBody('idempotency_key_in_use', IN_PROGRESS_MESSAGE)),
			contentType: JSON_TYPE,
			recordId: null,
		};
	}
	const seen = state.idempotency.lookup(scoped, fp);
	if (seen.kind === 'replay') {
		state.replays++;
		return {
			status: seen.entry.status,
			body: seen.entry.body,
			contentType: JSON_TYPE,
			headers: REPLAY_HEADERS,
			recordId: seen.entry.recordId,
		};
	}
	if (seen.kind === 'conflict') {
		state.conflicts++;
		const refusal = errorBody(
			'idempotency_key_reuse',
			'This Idempotency-Key was already used with a different request',
		);
		return { status: 409, body: JSON.stringify(refusal), contentType: JSON_TYPE, recordId: null };
	}
	return null;
}

/**
 * What the service does with a valid POST: answer a known key (see answerKnownKey), or commit a new record.
 * @param {SandboxState} state
 * @param {string[]} segs
 * @param {string} path
 * @param {string} idemKey
 * @param {string} tenant
 * @param {Record<string, unknown>} body
 * @returns {HeldAnswer}
 */
function commitPost(state, segs, path, idemKey, tenant, body) {
	const scoped = IdempotencyStore.scope(tenant, idemKey);
	const fp = fingerprint('POST', path, body);
	const known = answerKnownKey(state, scoped, fp);
	if (known !== null) return known;

	// Commit point: from here on, a retry with the same key replays this answer.
	const collection = segs[0];
	const record = state.createRecord(collection, path.slice(3), idemKey, body);
	const text = JSON.stringify(record);
	state.idempotency.commit(scoped, {
		fingerprint: fp,
		status: 201,
		body: text,
		recordId: record.id,
	});
	state.webhooks.recordCreated(collection, record);
	return { status: 201, body: text, contentType: JSON_TYPE, recordId: record.id };
}

/**
 * PUT replaces a created record's fields, PATCH merges into them, DELETE removes the record. All are
 * naturally idempotent, so they need no Idempotency-Key (one is accepted and ignored).
 * @param {SandboxState} state
 * @param {ApiContext} ctx
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {CompiledAction|null} fault
 * @param {'PUT'|'PATCH'|'DELETE'} method
 * @param {string[]} segs
 */
async function handleChange(state, ctx, req, res, fault, method, segs) {
	const [collection, id] = segs;
	const found = state.recordsById.get(id);
	if (!found || found.object !== collection) {
		sendError(res, 404, 'not_found', `No such ${collection}: ${id}`);
		return;
	}
	if (method === 'DELETE') {
		state.deleteRecord(id);
		return respond(
			ctx,
			req,
			res,
			fault,
			200,
			JSON.stringify({ id, object: collection, deleted: true }),
		);
	}
	const fields = await http.readObject(req, res);
	if (fields === undefined) return;
	const record = state.updateRecord(id, fields, method === 'PUT');
	respond(ctx, req, res, fault, 200, JSON.stringify(record));
}

module.exports = { handleApi };
