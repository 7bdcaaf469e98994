'use strict';

const http = require('node:http');
const { SandboxState } = require('./state');
const { handleApi } = require('./api');
const { handleControl } = require('./control');
const { sendError } = require('./http-util');

/**
 * The sandbox: a real local HTTP server implementing the Tenant API as we interpret it.
 *
 * @typedef {import('./state').StateOptions & { port?: number }} SandboxOptions
 * @typedef {import('./state').StatsSnapshot} StatsSnapshot
 * @typedef {import('./state').CreatedRecord} CreatedRecord
 * @typedef {import('./accounts').PaginationMode} PaginationMode
 * @typedef {import('./accounts').Account} Account
 * @typedef {import('./faults').FaultRule} FaultRule
 * @typedef {import('./faults').RandomFaults} RandomFaults
 * @typedef {import('./webhooks').WebhookOptions} WebhookOptions
 * @typedef {import('./signing').WebhookEvent} WebhookEvent
 * @typedef {import('./webhooks').DeliveryResult} DeliveryResult
 * @typedef {import('./webhooks').AttemptLog} AttemptLog
 * @typedef {import('./webhooks').DeliveryInput} DeliveryInput
 * @typedef {import('./hold').HeldRequest} HeldRequest
 * @typedef {import('./hold').ReleaseOutcome} ReleaseOutcome
 *
 * The in-process handle (README): `setRateLimit` replaces the limit (buckets start full; null turns it off);
 * `deliver()` sends an event, or a payload as given
 * (`{ payload }`), and retries it until a 2xx or the attempts run out; `deliveries()` holds the last 1000 attempts; `settle()` resolves
 * once no delivery is in flight; `webhookConfig()` has the defaults filled in; `held()` lists held requests
 * oldest first, `commitHeld()` processes them and keeps holding their answers (returns the ids processed),
 * `releaseHeld()` answers those whose client is still there and forgets them (all of them without ids).
 * @typedef {{
 *   url: string, baseUrl: string, port: number, apiKey: string, tenantId: string,
 *   close(): Promise<void>,
 *   reset(): void,
 *   setFaults(rules: FaultRule[]|null): void,
 *   setPagination(mode: PaginationMode): void,
 *   setRateLimit(cfg: import('./rateLimit').RateLimitOptions|null): void,
 *   setLatency(cfg: import('./rateLimit').LatencyOptions|null): void,
 *   configureWebhook(cfg: WebhookOptions|null): void,
 *   deliver(input?: DeliveryInput, overrides?: WebhookOptions): Promise<DeliveryResult>,
 *   stats(): StatsSnapshot,
 *   records(): CreatedRecord[],
 *   deliveries(): AttemptLog[],
 *   settle(): Promise<void>,
 *   webhookConfig(): import('./webhooks').WebhookConfig,
 *   held(): HeldRequest[],
 *   commitHeld(ids?: number[]): number[],
 *   releaseHeld(ids?: number[]): ReleaseOutcome[],
 * }} Sandbox
 */

/**
 * Start a sandbox server. Resolves once it is listening.
 * @param {SandboxOptions} [options]
 */
async function startSandbox(options = {}) {
	const state = new SandboxState(options);
	/** @type {Set<NodeJS.Timeout>} */
	const delayTimers = new Set();
	const ctx = { delayTimers, origin: '', state, held: state.held };

	const server = http.createServer((req, res) => {
		const url = req.url ?? '/';
		const q = url.indexOf('?');
		const path = q === -1 ? url : url.slice(0, q);
		const query = q === -1 ? '' : url.slice(q + 1);
		try {
			if (path === '/v1' || path.startsWith('/v1/'))
				return handleApi(state, ctx, req, res, path, query);
			if (path === '/_sandbox' || path.startsWith('/_sandbox/')) {
				handleControl(state, req, res, path).catch((err) => internalError(res, err));
				return;
			}
			sendError(
				res,
				404,
				'not_found',
				'No such route (the API lives under /v1, controls under /_sandbox)',
			);
		} catch (err) {
			internalError(res, err);
		}
	});
	server.on('clientError', (_err, socket) => socket.destroy());

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve(undefined);
		});
	});

	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	const url = `http://127.0.0.1:${port}`;
	ctx.origin = url;

	let closing = /** @type {Promise<void>|null} */ (null);

	/** @type {Sandbox} */
	const sandbox = {
		url,
		baseUrl: url + '/v1',
		port,
		apiKey: state.apiKey,
		tenantId: state.tenantId,
		close() {
			if (!closing) {
				closing = new Promise((resolve) => {
					for (const t of delayTimers) clearTimeout(t);
					delayTimers.clear();
					state.held.dropAll();
					state.webhooks.close();
					server.close(() => resolve());
					server.closeAllConnections();
				});
			}
			return closing;
		},
		reset: () => state.reset(),
		setFaults: (rules) => state.faults.set(rules),
		setPagination: (mode) => state.setPagination(mode),
		setRateLimit: (cfg) => state.rateLimit.configure(cfg),
		setLatency: (cfg) => state.latency.configure(cfg),
		configureWebhook: (cfg) => state.webhooks.configure(cfg),
		deliver: (input, overrides) => state.webhooks.deliver(input, overrides),
		stats: () => state.stats(),
		records: () => state.records.map((r) => ({ ...r })),
		deliveries: () => state.webhooks.log.slice(),
		settle: () => state.webhooks.settle(),
		webhookConfig: () => ({
			...state.webhooks.config,
			secrets: state.webhooks.config.secrets.slice(),
		}),
		held: () => state.held.list(),
		commitHeld: (ids) => state.held.commit(ids),
		releaseHeld: (ids) => state.held.release(ids),
	};
	return sandbox;
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {unknown} err
 */
function internalError(res, err) {
	if (res.headersSent) {
		res.destroy();
		return;
	}
	sendError(res, 500, 'sandbox_error', err instanceof Error ? err.message : String(err));
}

module.exports = { startSandbox };
