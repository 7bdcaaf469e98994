'use strict';

const http = require('node:http');
const https = require('node:https');
const { signedDelivery, demoSecret, isScheme } = require('./signing');

/**
 * Outgoing webhook deliveries: one event per created record, signed, retried with backoff.
 *
 * @typedef {import('./signing').SigningScheme} SigningScheme
 * @typedef {{ url?: string|null, secrets?: string[], secret?: string, scheme?: SigningScheme, timestamp?: boolean,
 *   signedUrl?: string|null, bodyFormat?: 'json'|'form'|null, maxAttempts?: number, retryDelayMs?: number, timeoutMs?: number }} WebhookOptions
 * @typedef {{ url: string|null, secrets: string[], scheme: SigningScheme, timestamp: boolean, signedUrl: string|null,
 *   bodyFormat: 'json'|'form'|null, maxAttempts: number, retryDelayMs: number, timeoutMs: number }} WebhookConfig
 * @typedef {{ id: string, event: string, created_at: number, data: { object: unknown } }} WebhookEvent
 * @typedef {{ attempts: number, succeeded: number, failed: number }} DeliveryStats
 * @typedef {{ eventId: string, attempt: number, status: number|null, error?: string, at: string }} AttemptLog
 * @typedef {{ eventId: string, ok: boolean, status: number|null, attempts: number, error?: string }} DeliveryResult
 */

const USER_AGENT = 'tenant-api-sandbox';
const LOG_LIMIT = 1000;

class WebhookConfigError extends Error {}

/**
 * Validate and fill defaults.
 * @param {WebhookOptions|null|undefined} cfg
 * @param {WebhookConfig} [base] values to keep for fields not given
 * @returns {WebhookConfig}
 */
function normalizeWebhookConfig(cfg, base) {
	const c = cfg ?? {};
	if (typeof c !== 'object' || Array.isArray(c)) throw new WebhookConfigError('webhook config must be an object');
	const url = c.url === undefined ? base?.url ?? null : c.url;
	if (url !== null) {
		if (typeof url !== 'string') throw new WebhookConfigError('webhook url must be a string');
		let parsed;
		try {
			parsed = new URL(url);
		} catch {
			throw new WebhookConfigError('webhook url is not a valid URL');
		}
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new WebhookConfigError('webhook url must be http(s)');
	}
	const scheme = c.scheme ?? base?.scheme ?? 'hmac-sha256-hex';
	if (!isScheme(scheme)) throw new WebhookConfigError(`unknown scheme: ${String(scheme)}`);
	const secrets = c.secrets ?? (c.secret !== undefined ? [c.secret] : base?.secrets ?? [demoSecret(scheme)]);
	if (!Array.isArray(secrets) || secrets.some((s) => typeof s !== 'string')) throw new WebhookConfigError('secrets must be an array of strings');
	if (secrets.length === 0 && scheme !== 'none') throw new WebhookConfigError('at least one secret is required');
	const num = (/** @type {unknown} */ v, /** @type {number} */ d, /** @type {string} */ name, /** @type {number} */ min) => {
		const n = v === undefined ? d : Number(v);
		if (!Number.isFinite(n) || n < min) throw new WebhookConfigError(`${name} must be a number >= ${min}`);
		return n;
	};
	const signedUrl = c.signedUrl === undefined ? base?.signedUrl ?? null : c.signedUrl;
	if (signedUrl !== null && typeof signedUrl !== 'string') throw new WebhookConfigError('signedUrl must be a string');
	const bodyFormat = c.bodyFormat === undefined ? base?.bodyFormat ?? null : c.bodyFormat;
	if (bodyFormat !== null && bodyFormat !== 'json' && bodyFormat !== 'form') throw new WebhookConfigError('bodyFormat must be "json" or "form"');
	return {
		url,
		secrets: secrets.slice(),
		scheme,
		timestamp: c.timestamp === undefined ? base?.timestamp ?? false : c.timestamp === true,
		signedUrl,
		bodyFormat,
		maxAttempts: Math.floor(num(c.maxAttempts, base?.maxAttempts ?? 3, 'maxAttempts', 1)),
		retryDelayMs: num(c.retryDelayMs, base?.retryDelayMs ?? 50, 'retryDelayMs', 0),
		timeoutMs: num(c.timeoutMs, base?.timeoutMs ?? 5000, 'timeoutMs', 1),
	};
}

/**
 * POST bytes once. Never rejects: network errors come back as `{ status: null, error }`.
 * @param {{ url: string, body: Buffer, headers: Record<string, string>, timeoutMs: number, agent?: http.Agent }} o
 * @returns {Promise<{ status: number|null, error?: string }>}
 */
function postOnce({ url, body, headers, timeoutMs, agent }) {
	return new Promise((resolve) => {
		let done = false;
		const finish = (/** @type {{ status: number|null, error?: string }} */ r) => {
			if (!done) {
				done = true;
				resolve(r);
			}
		};
		try {
			const u = new URL(url);
			const lib = u.protocol === 'https:' ? https : http;
			const req = lib.request(
				u,
				{ method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, agent },
				(res) => {
					res.resume();
					res.on('end', () => finish({ status: res.statusCode ?? null }));
					res.on('error', (err) => finish({ status: res.statusCode ?? null, error: err.message }));
				},
			);
			req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
			req.on('error', (err) => finish({ status: null, error: err.message }));
			req.end(body);
		} catch (err) {
			finish({ status: null, error: err instanceof Error ? err.message : String(err) });
		}
	});
}

/**
 * Body, headers and URL of one attempt (re-signed per attempt, so a signed timestamp is fresh; the body bytes
 * are the same every time).
 * @param {WebhookConfig} cfg
 * @param {WebhookEvent} event
 * @param {number} attempt
 */
function attemptRequest(cfg, event, attempt) {
	const url = /** @type {string} */ (cfg.url);
	const delivery = signedDelivery({
		secret: cfg.secrets[0] ?? '',
		scheme: cfg.scheme,
		event,
		url,
		signedUrl: cfg.signedUrl ?? undefined,
		timestamp: cfg.timestamp || undefined,
		bodyFormat: cfg.bodyFormat ?? undefined,
	});
	return {
		url: delivery.url,
		body: delivery.body,
		headers: { 'user-agent': USER_AGENT, 'x-event-id': event.id, 'x-delivery-attempt': String(attempt), ...delivery.headers },
	};
}

class WebhookDispatcher {
	/**
	 * @param {WebhookOptions|null|undefined} cfg
	 * @param {DeliveryStats} stats counters updated in place
	 */
	constructor(cfg, stats) {
		/** @type {WebhookConfig} */
		this.config = normalizeWebhookConfig(cfg);
		this.stats = stats;
		this.eventSeq = 0;
		/** @type {AttemptLog[]} */
		this.log = [];
		this.closed = false;
		/** bumped by resetCounters(): deliveries started before a reset stop touching the counters */
		this.generation = 0;
		/** @type {Set<Promise<DeliveryResult>>} */
		this.inFlight = new Set();
		/** @type {Map<NodeJS.Timeout, () => void>} pending backoff sleeps, resolved early on close */
		this.timers = new Map();
		this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
		this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 16 });
	}

	/** @param {WebhookOptions|null} cfg replaces the configuration (unspecified fields get defaults) */
	configure(cfg) {
		this.config = normalizeWebhookConfig(cfg);
	}

	resetCounters() {
		this.generation++;
		this.eventSeq = 0;
		this.log = [];
	}

	/** Number of events still being delivered (including backoff waits). */
	get pending() {
		return this.inFlight.size;
	}

	/**
	 * Resolve once no delivery is in flight (deliveries started meanwhile are awaited too).
	 * @returns {Promise<void>}
	 */
	async settle() {
		while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
	}

	/**
	 * @param {string} type e.g. "transfers.created"
	 * @param {unknown} object
	 * @returns {WebhookEvent}
	 */
	makeEvent(type, object) {
		return { id: `evt_${++this.eventSeq}`, event: type, created_at: Math.floor(Date.now() / 1000), data: { object } };
	}

	/**
	 * Fire-and-forget delivery for a freshly created record (no-op when no url is configured).
	 * @param {string} collection
	 * @param {unknown} record
	 */
	recordCreated(collection, record) {
		if (this.closed || !this.config.url) return;
		const event = this.makeEvent(`${collection}.created`, record);
		void this.send(event, this.config);
	}

	/**
	 * Send one event now. `event` may be a type string, a partial event, or nothing (a ping).
	 * @param {string|Partial<WebhookEvent>|undefined} event
	 * @param {WebhookOptions} [overrides] e.g. { url, maxAttempts } for this delivery only
	 * @returns {Promise<DeliveryResult>}
	 */
	deliver(event, overrides) {
		const cfg = overrides ? normalizeWebhookConfig(overrides, this.config) : this.config;
		if (!cfg.url) throw new WebhookConfigError('no webhook url configured');
		/** @type {WebhookEvent} */
		let evt;
		if (typeof event === 'string') evt = this.makeEvent(event, samplePayload());
		else if (event && typeof event === 'object') {
			const base = this.makeEvent(event.event ?? 'sandbox.ping', samplePayload());
			evt = { ...base, ...event };
		} else evt = this.makeEvent('sandbox.ping', samplePayload());
		return this.send(evt, cfg);
	}

	/**
	 * Serialize once, then try up to maxAttempts times with exponential backoff.
	 * @param {WebhookEvent} event
	 * @param {WebhookConfig} cfg
	 * @returns {Promise<DeliveryResult>}
	 */
	send(event, cfg) {
		const p = this.attemptAll(event, cfg);
		this.inFlight.add(p);
		p.finally(() => this.inFlight.delete(p)).catch(() => {});
		return p;
	}

	/**
	 * @param {WebhookEvent} event
	 * @param {WebhookConfig} cfg
	 * @returns {Promise<DeliveryResult>}
	 */
	async attemptAll(event, cfg) {
		const generation = this.generation;
		const counting = () => generation === this.generation;
		const agent = /** @type {string} */ (cfg.url).startsWith('https:') ? this.httpsAgent : this.agent;
		/** @type {{ status: number|null, error?: string }} */
		let last = { status: null, error: 'not attempted' };
		let attempt = 0;
		while (attempt < cfg.maxAttempts && !this.closed) {
			attempt++;
			if (attempt > 1) await this.sleep(cfg.retryDelayMs * 2 ** (attempt - 2));
			if (this.closed) break;
			if (counting()) this.stats.attempts++;
			last = await postOnce({ ...attemptRequest(cfg, event, attempt), timeoutMs: cfg.timeoutMs, agent });
			if (counting()) this.pushLog({ eventId: event.id, attempt, status: last.status, ...(last.error ? { error: last.error } : {}), at: new Date().toISOString() });
			if (last.status !== null && last.status >= 200 && last.status < 300) {
				if (counting()) this.stats.succeeded++;
				return { eventId: event.id, ok: true, status: last.status, attempts: attempt };
			}
		}
		if (counting()) this.stats.failed++;
		return { eventId: event.id, ok: false, status: last.status, attempts: attempt, ...(last.error ? { error: last.error } : {}) };
	}

	/** @param {AttemptLog} entry */
	pushLog(entry) {
		this.log.push(entry);
		if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
	}

	/**
	 * @param {number} ms
	 * @returns {Promise<void>}
	 */
	sleep(ms) {
		return new Promise((resolve) => {
			const t = setTimeout(() => {
				this.timers.delete(t);
				resolve();
			}, ms);
			this.timers.set(t, resolve);
		});
	}

	close() {
		this.closed = true;
		for (const [t, resolve] of this.timers) {
			clearTimeout(t);
			resolve();
		}
		this.timers.clear();
		this.agent.destroy();
		this.httpsAgent.destroy();
	}
}

/** @returns {Record<string, unknown>} a record-shaped object for hand-made deliveries */
function samplePayload() {
	return { id: 'rec_sample', object: 'sample', created_at: new Date().toISOString() };
}

module.exports = { WebhookDispatcher, WebhookConfigError, normalizeWebhookConfig, postOnce, attemptRequest, USER_AGENT };
