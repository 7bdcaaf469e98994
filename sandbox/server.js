'use strict';

const { setMaxListeners } = require('node:events');
const http = require('node:http');
const { SandboxState } = require('./state');
const { paginationMode } = require('./accounts');
const { handleApi } = require('./api');
const { handleControl } = require('./control');
const { sendError } = require('./http-util');

/**
 * The sandbox: a real local HTTP server implementing the Tenant API as we interpret it (README).
 *
 * @typedef {import('./state').StateOptions & { port?: number }} SandboxOptions
 * @typedef {import('./state').CreatedRecord} CreatedRecord
 * @typedef {import('./accounts').PaginationMode} PaginationMode
 * @typedef {import('./faults').FaultRule} FaultRule
 * @typedef {import('./faults').RandomFaults} RandomFaults
 * @typedef {import('./webhooks').WebhookOptions} WebhookOptions
 * @typedef {import('./webhooks').DeliveryResult} DeliveryResult
 * @typedef {import('./webhooks').AttemptLog} AttemptLog
 * @typedef {import('./hold').HeldRequest} HeldRequest
 * @typedef {Awaited<ReturnType<typeof startSandbox>>} Sandbox the in-process handle
 */

/**
 * Start a sandbox server on 127.0.0.1. Resolves once it is listening.
 * @param {SandboxOptions} [options]
 */
async function startSandbox(options = {}) {
	const state = new SandboxState(options);
	/** ends the delayed and drip-fed answers on close: one listener each, as many as are in flight */
	const stop = new AbortController();
	setMaxListeners(0, stop.signal);
	const ctx = { stop: stop.signal, origin: '', state, held: state.held };

	const server = http.createServer((req, res) => {
		const [pathname, query = ''] = (req.url ?? '/').split(/\?(.*)/s);
		const internalError = (/** @type {unknown} */ err) => {
			if (res.headersSent) return void res.destroy();
			sendError(res, 500, 'sandbox_error', err instanceof Error ? err.message : String(err));
		};
		try {
			if (pathname === '/v1' || pathname.startsWith('/v1/'))
				return handleApi(state, ctx, req, res, pathname, query);
			if (pathname === '/_sandbox' || pathname.startsWith('/_sandbox/'))
				return void handleControl(state, req, res, pathname).catch(internalError);
			const message = 'No such route (the API lives under /v1, controls under /_sandbox)';
			sendError(res, 404, 'not_found', message);
		} catch (err) {
			internalError(err);
		}
	});
	server.on('clientError', (_err, socket) => socket.destroy());
	await new Promise((resolve, reject) =>
		server.once('error', reject).listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined)),
	);
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	const url = `http://127.0.0.1:${port}`;
	ctx.origin = url;

	/** @type {Promise<void>|null} */
	let closing = null;
	const { webhooks, held } = state;
	return {
		url,
		baseUrl: url + '/v1',
		port,
		apiKey: state.apiKey,
		tenantId: state.tenantId,
		/** Stops listening and closes every connection (keep-alive ones, held requests, deliveries' sockets). */
		close() {
			closing ??= new Promise((resolve) => {
				stop.abort();
				held.dropAll();
				webhooks.close();
				server.close(() => resolve());
				server.closeAllConnections();
			});
			return closing;
		},
		reset: () => state.reset(),
		/** @param {FaultRule[]|null} rules */
		setFaults: (rules) => state.faults.set(rules),
		/** @param {PaginationMode} mode */
		setPagination: (mode) => void (state.pagination.mode = paginationMode(mode)),
		/** Replaces the limit (buckets start full; null turns it off). @param {import('./rateLimit').RateLimitOptions|null} cfg */
		setRateLimit: (cfg) => state.rateLimit.configure(cfg),
		/** @param {import('./rateLimit').LatencyOptions|null} cfg */
		setLatency: (cfg) => state.latency.configure(cfg),
		/** @param {WebhookOptions|null} cfg */
		configureWebhook: (cfg) => webhooks.configure(cfg),
		/** Sends an event (or `{ payload }` as given) now, retried until a 2xx or the attempts run out. */
		deliver: webhooks.deliver.bind(webhooks),
		stats: () => state.stats(),
		/** @returns {CreatedRecord[]} */
		records: () => state.records.map((r) => ({ ...r })),
		/** The last 1000 delivery attempts. */
		deliveries: () => webhooks.log.slice(),
		/** Resolves once no delivery is in flight. */
		settle: () => webhooks.settle(),
		/** The webhook settings with the defaults filled in. */
		webhookConfig: () => ({ ...webhooks.config, secrets: webhooks.config.secrets.slice() }),
		/** Held requests, oldest first. */
		held: () => held.list(),
		/** Processes held requests and keeps holding their answers; the ids processed. @param {number[]} [ids] */
		commitHeld: (ids) => held.commit(ids),
		/** Answers held requests whose client is still there and forgets them (all without ids). @param {number[]} [ids] */
		releaseHeld: (ids) => held.release(ids),
	};
}

module.exports = { startSandbox };
