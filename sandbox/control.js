'use strict';

const { sendJson, sendError, readObject } = require('./http-util');
const { SandboxOptionError } = require('./options');

/**
 * Unauthenticated control endpoints under /_sandbox, for another process: the counters (a real n8n's
 * tests read them) and a delivery sent now (`npm start` prints the command).
 *
 * @import { IncomingMessage, ServerResponse } from 'node:http'
 * @import { SandboxState } from './state'
 */

const ENDPOINTS = {
	'GET /_sandbox/stats':
		'counters: requests, byRoute, records, distinctIdempotencyKeys, replays, conflicts, answersCutShort, inFlight, peakInFlight, faultsInjected, rateLimited, deliveries',
	'POST /_sandbox/deliver':
		'send one delivery now (optional body {event} or {payload}, and overrides of the webhook settings); answers with the outcome: ok, attempts, and the last answer (status, contentType, body)',
};

/** @param {SandboxState} state @param {IncomingMessage} req @param {ServerResponse} res @param {string} path */
async function handleControl(state, req, res, path) {
	const route = `${req.method} ${path.replace(/\/$/, '')}`;
	if (route === 'GET /_sandbox') return sendJson(res, 200, { endpoints: ENDPOINTS });
	if (route === 'GET /_sandbox/stats') return sendJson(res, 200, state.stats());
	if (route !== 'POST /_sandbox/deliver')
		return sendError(res, 404, 'not_found', `No control endpoint ${route}`);
	const body = await readObject(req, res, true);
	if (body === undefined) return;
	const { event, payload, ...overrides } = body;
	const noUrl = 'No webhook url configured (start the sandbox with one, or pass {url})';
	if (!(overrides.url ?? state.webhooks.config.url))
		return sendError(res, 409, 'webhook_not_configured', noUrl);
	try {
		const input = /** @type {import('./webhooks').DeliveryInput} */ (
			payload === undefined ? event : { payload }
		);
		sendJson(res, 200, await state.webhooks.deliver(input, overrides));
	} catch (err) {
		if (!(err instanceof SandboxOptionError)) throw err;
		sendError(res, 400, 'invalid_webhook', err.message);
	}
}

module.exports = { handleControl, ENDPOINTS };
