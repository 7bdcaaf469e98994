'use strict';

const { sendJson, sendError, readBody, parseJson } = require('./http-util');
const { FaultConfigError } = require('./faults');
const { WebhookConfigError } = require('./webhooks');
const { InvalidOptionError } = require('./state');
const { HoldIdsError } = require('./hold');
const { PAGINATION_MODES } = require('./accounts');
const { RateLimitConfigError } = require('./rateLimit');

/**
 * Unauthenticated control endpoints under /_sandbox, so a separate process (a real n8n, a
 * benchmark) can steer the sandbox exactly like in-process tests do.
 *
 * @import { IncomingMessage, ServerResponse } from 'node:http'
 * @import { SandboxState } from './state'
 */

const ENDPOINTS = {
	'GET /_sandbox/stats':
		'counters: requests, byRoute, records, distinctIdempotencyKeys, replays, conflicts, answersCutShort, postsInProgress, inFlight, peakInFlight, faultsInjected, rateLimited, deliveries',
	'GET /_sandbox/records': 'records created by POSTs',
	'POST /_sandbox/reset': 'forget records, idempotency keys, stats and faults',
	'GET|POST /_sandbox/faults':
		'read / replace fault rules (body: array of rules, or {random:{...}})',
	'GET|POST /_sandbox/pagination': 'read / set {mode}: ' + PAGINATION_MODES.join('|'),
	'GET|POST /_sandbox/rate-limit':
		'read / set the per-key token bucket {perSecond, burst, headers: false|ietf|x} (null: off)',
	'GET|POST /_sandbox/latency': 'read / set the delay before every answer {fixedMs, jitterMs}',
	'GET|POST /_sandbox/webhook':
		'read / replace webhook config {url, secrets, scheme, timestamp, bodyFormat, maxAttempts, retryDelayMs, timeoutMs}',
	'POST /_sandbox/deliver':
		'send one delivery now (optional body {event} or {payload}, and config overrides); answers with the outcome: ok, attempts, and the last answer (status, contentType, body)',
	'GET /_sandbox/deliveries': 'recent delivery attempts and their answers',
	'GET /_sandbox/held':
		'requests held by the fault action {hold: true}: id, method, path, idempotencyKey, body, processed, recordId, clientGone',
	'POST /_sandbox/held/commit':
		'process held requests now (commit their records), keep holding the answers (body {ids}, default all)',
	'POST /_sandbox/held/release':
		'answer held requests whose client is still connected and forget them (body {ids}, default all)',
};

/**
 * Read an optional JSON body; an empty body is `undefined`.
 * @param {IncomingMessage} req
 * @returns {Promise<{ ok: true, value: unknown } | { ok: false }>}
 */
async function optionalJson(req) {
	const raw = await readBody(req, 16 * 1024 * 1024);
	if (raw.length === 0) return { ok: true, value: undefined };
	return parseJson(raw);
}

/**
 * Whether a delivery has somewhere to go: `overrides.url`, or the configured one.
 * @param {SandboxState} state
 * @param {Record<string, unknown>} overrides
 */
function hasUrl(state, overrides) {
	return Boolean(overrides.url ?? state.webhooks.config.url);
}

/** @param {ServerResponse} res */
function noUrl(res) {
	return sendError(
		res,
		409,
		'webhook_not_configured',
		'No webhook url configured (POST /_sandbox/webhook first, or pass {url})',
	);
}

/**
 * @param {SandboxState} state
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {string} path
 */
async function handleControl(state, req, res, path) {
	const route = `${req.method} ${path.endsWith('/') ? path.slice(0, -1) : path}`;
	/** @type {unknown} */
	let body;
	if (req.method === 'POST') {
		const parsed = await optionalJson(req);
		if (!parsed.ok)
			return sendError(res, 400, 'invalid_json', 'The request body is not valid JSON');
		body = parsed.value;
	}
	const obj = /** @type {Record<string, unknown>} */ (body && typeof body === 'object' ? body : {});
	try {
		switch (route) {
			case 'GET /_sandbox':
				return sendJson(res, 200, { endpoints: ENDPOINTS });
			case 'GET /_sandbox/stats':
				return sendJson(res, 200, state.stats());
			case 'GET /_sandbox/records':
				return sendJson(res, 200, { data: state.records, count: state.records.length });
			case 'POST /_sandbox/reset':
				state.reset();
				return sendJson(res, 200, { ok: true });
			case 'GET /_sandbox/faults':
				return sendJson(res, 200, { rules: state.faults.source });
			case 'POST /_sandbox/faults':
				state.faults.set(body);
				return sendJson(res, 200, { ok: true, rules: state.faults.compiled.length });
			case 'GET /_sandbox/pagination':
				return sendJson(res, 200, state.pagination);
			case 'POST /_sandbox/pagination':
				state.setPagination(/** @type {import('./accounts').PaginationMode} */ (obj.mode));
				return sendJson(res, 200, { ok: true, mode: state.pagination.mode });
			case 'GET /_sandbox/rate-limit':
				return sendJson(res, 200, { rateLimit: state.rateLimit.config });
			case 'POST /_sandbox/rate-limit':
				state.rateLimit.configure(body ?? null);
				return sendJson(res, 200, { ok: true, rateLimit: state.rateLimit.config });
			case 'GET /_sandbox/latency':
				return sendJson(res, 200, state.latency.config);
			case 'POST /_sandbox/latency':
				state.latency.configure(body ?? null);
				return sendJson(res, 200, { ok: true, latency: state.latency.config });
			case 'GET /_sandbox/webhook':
				return sendJson(res, 200, state.webhooks.config);
			case 'POST /_sandbox/webhook':
				state.webhooks.configure(
					/** @type {import('./webhooks').WebhookOptions|null} */ (body ?? null),
				);
				return sendJson(res, 200, { ok: true, config: state.webhooks.config });
			case 'POST /_sandbox/deliver': {
				const { event, payload, ...overrides } = obj;
				if (!hasUrl(state, overrides)) return noUrl(res);
				const input = /** @type {import('./webhooks').DeliveryInput} */ (
					payload === undefined ? event : { payload }
				);
				const result = await state.webhooks.deliver(
					input,
					Object.keys(overrides).length ? overrides : undefined,
				);
				return sendJson(res, 200, result);
			}
			case 'GET /_sandbox/deliveries':
				return sendJson(res, 200, { data: state.webhooks.log });
			case 'GET /_sandbox/held':
				return sendJson(res, 200, { data: state.held.list() });
			case 'POST /_sandbox/held/commit':
				return sendJson(res, 200, { committed: state.held.commit(obj.ids) });
			case 'POST /_sandbox/held/release':
				return sendJson(res, 200, { released: state.held.release(obj.ids) });
			default:
				return sendError(res, 404, 'not_found', `No control endpoint ${route}`);
		}
	} catch (err) {
		if (
			err instanceof FaultConfigError ||
			err instanceof InvalidOptionError ||
			err instanceof HoldIdsError ||
			err instanceof RateLimitConfigError
		) {
			return sendError(res, 400, 'invalid_config', err.message);
		}
		if (err instanceof WebhookConfigError)
			return sendError(res, 400, 'invalid_webhook', err.message);
		throw err;
	}
}

module.exports = { handleControl, ENDPOINTS };
