'use strict';

const { setMaxListeners } = require('node:events');
const http = require('node:http');
const { setTimeout: sleep } = require('node:timers/promises');
const { signedDelivery, demoSecret, isScheme } = require('./signing');
const { SandboxOptionError, numberOption } = require('./options');

/**
 * Outgoing webhook deliveries, signed (signing.js) and retried with backoff (sandbox/README.md "Webhook deliveries").
 *
 * @import { SigningScheme, WebhookEvent } from './signing'
 * @typedef {{ url?: string|null, secrets?: string[], scheme?: SigningScheme, timestamp?: boolean,
 *   maxAttempts?: number, retryDelayMs?: number, timeoutMs?: number }} WebhookOptions
 * @typedef {Required<WebhookOptions>} WebhookConfig
 * @typedef {{ status: number|null, contentType: string|null, body: string, error?: string }} Answer what came back
 *   (`status` null: no answer, `error` says why; `body`: its first BODY_EXCERPT characters)
 * @typedef {{ eventId: string, attempt: number, at: string } & Answer} AttemptLog
 * @typedef {{ eventId: string, ok: boolean, attempts: number } & Answer} DeliveryResult `ok`: an answer was a 2xx
 * @typedef {string|Partial<WebhookEvent>|{ payload: Record<string, unknown> }|undefined} DeliveryInput an event
 *   type, a partial event (the rest filled in), a payload sent exactly as given, or nothing (a ping)
 * @typedef {{ eventId: string, body: Record<string, unknown> }} Delivery `eventId` names it in the log, the
 *   `x-event-id` header and the message id of schemes that sign one
 */

const LOG_LIMIT = 1000;
const BODY_EXCERPT = 256;
/** How much of an answer is read (UTF-8 takes at most 4 bytes a character; the rest is drained unread). */
const ANSWER_LIMIT = BODY_EXCERPT * 4;

/**
 * Validates `cfg` and fills in the defaults (or the values of `base` for the fields not given).
 * @param {WebhookOptions|null|undefined} cfg @param {WebhookConfig} [base] @returns {WebhookConfig}
 */
function normalizeWebhookConfig(cfg, base) {
	const given = Object.entries(cfg ?? {}).filter(([, value]) => value !== undefined);
	const c = { ...base, ...Object.fromEntries(given) };
	const url = c.url ?? null;
	if (url !== null && !/^http:\/\/[^/]/.test(String(url)))
		throw new SandboxOptionError('webhook url must be an http:// URL');
	const scheme = c.scheme ?? 'hmac-sha256-hex';
	if (!isScheme(scheme)) throw new SandboxOptionError(`unknown scheme: ${String(scheme)}`);
	const secrets = c.secrets ?? [demoSecret(scheme)];
	if (!Array.isArray(secrets) || (secrets.length === 0 && scheme !== 'none'))
		throw new SandboxOptionError('secrets must be an array of strings, one at least');
	return {
		url,
		secrets: secrets.slice(),
		scheme,
		timestamp: c.timestamp === true,
		maxAttempts: numberOption(c.maxAttempts, 3, 'maxAttempts', 1, true),
		retryDelayMs: numberOption(c.retryDelayMs, 50, 'retryDelayMs', 0),
		timeoutMs: numberOption(c.timeoutMs, 5000, 'timeoutMs', 1),
	};
}

/**
 * POSTs bytes once; resolves with the answer, never rejects (no answer: `{ status: null, error }`).
 * @param {{ url: string, body: Buffer, headers: Record<string, string>, timeoutMs: number, agent: http.Agent }} o
 * @returns {Promise<Answer>}
 */
function postOnce({ url, body, headers, timeoutMs, agent }) {
	return new Promise((resolve) => {
		const failed = (/** @type {unknown} */ err) =>
			resolve({ status: null, contentType: null, body: '', error: String(err) });
		try {
			const options = {
				method: 'POST',
				headers: { ...headers, 'content-length': String(body.length) },
				agent,
			};
			const req = http.request(url, options, (res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				let kept = 0;
				res.on('data', (/** @type {Buffer} */ chunk) => {
					if (kept < ANSWER_LIMIT) chunks.push(chunk.subarray(0, ANSWER_LIMIT - kept));
					kept += chunk.length;
				});
				const answer = () => ({
					status: res.statusCode ?? null,
					contentType: res.headers['content-type'] ?? null,
					body: Buffer.concat(chunks).toString('utf8').slice(0, BODY_EXCERPT),
				});
				res.on('end', () => resolve(answer()));
				res.on('error', (err) => resolve({ ...answer(), error: err.message }));
			});
			req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
			req.on('error', (err) => failed(err.message));
			req.end(body);
		} catch (err) {
			failed(err);
		}
	});
}

class WebhookDispatcher {
	stats = { attempts: 0, succeeded: 0, failed: 0 };
	eventSeq = 0;
	/** @type {AttemptLog[]} */
	log = [];
	generation = 0;

	/** @param {WebhookOptions|null|undefined} cfg */
	constructor(cfg) {
		this.config = normalizeWebhookConfig(cfg);
		this.closed = false;
		/** @type {Set<Promise<DeliveryResult>>} events being delivered (backoff waits included) */
		this.inFlight = new Set();
		/** ends the backoff waits on close: one listener each, as many as are in flight */
		this.stop = new AbortController();
		setMaxListeners(0, this.stop.signal);
		this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
	}

	/** @param {WebhookOptions|null} cfg replaces the configuration (unspecified fields get defaults) */
	configure(cfg) {
		this.config = normalizeWebhookConfig(cfg);
	}

	/** Deliveries started before a reset stop touching the counters. */
	resetCounters() {
		this.generation++;
		this.stats = { attempts: 0, succeeded: 0, failed: 0 };
		this.eventSeq = 0;
		this.log = [];
	}

	/** Resolves once no delivery is in flight (deliveries started meanwhile are awaited too). */
	async settle() {
		while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
	}

	/**
	 * What `input` sends: a payload exactly as given, else an event with the next id (`evt_1`, …), its `created_at`
	 * and a sample object, under the fields `input` gives.
	 * @param {DeliveryInput} input @param {unknown} [object] @returns {Delivery}
	 */
	toDelivery(
		input,
		object = { id: 'rec_sample', object: 'sample', created_at: new Date().toISOString() },
	) {
		const eventId = `evt_${++this.eventSeq}`;
		if (input !== null && typeof input === 'object' && 'payload' in input) {
			const { payload } = input;
			if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
				throw new SandboxOptionError('payload must be a JSON object');
			return { eventId, body: payload };
		}
		const partial = typeof input === 'string' ? { event: input } : (input ?? {});
		const created_at = Math.floor(Date.now() / 1000);
		/** @type {WebhookEvent} */
		const event = { id: eventId, event: 'sandbox.ping', created_at, data: { object }, ...partial };
		return { eventId: event.id, body: event };
	}

	/** A delivery for a freshly created record, fire and forget (none without a url). @param {string} collection @param {unknown} record */
	recordCreated(collection, record) {
		if (!this.closed && this.config.url)
			void this.send(this.toDelivery(`${collection}.created`, record), this.config);
	}

	/**
	 * Sends one delivery now (README "Webhook deliveries"); `overrides` for this delivery only.
	 * @param {DeliveryInput} [input] @param {WebhookOptions} [overrides]
	 */
	deliver(input, overrides) {
		const cfg = overrides ? normalizeWebhookConfig(overrides, this.config) : this.config;
		if (!cfg.url) throw new SandboxOptionError('no webhook url configured');
		return this.send(this.toDelivery(input), cfg);
	}

	/** @param {Delivery} delivery @param {WebhookConfig} cfg */
	send(delivery, cfg) {
		const p = this.attemptAll(delivery, cfg);
		this.inFlight.add(p);
		p.finally(() => this.inFlight.delete(p)).catch(() => {});
		return p;
	}

	/**
	 * Attempts with exponential backoff until an answer is a 2xx, the attempts run out or the dispatcher closes. Each
	 * attempt is signed anew (a signed timestamp is fresh) over the same body bytes.
	 * @param {Delivery} delivery @param {WebhookConfig} cfg @returns {Promise<DeliveryResult>}
	 */
	async attemptAll({ eventId, body }, cfg) {
		const generation = this.generation;
		const counting = () => generation === this.generation;
		/** @type {Answer} */
		let last = { status: null, contentType: null, body: '', error: 'not attempted' };
		let attempt = 0;
		while (attempt < cfg.maxAttempts && !this.closed) {
			const { signal } = this.stop;
			if (++attempt > 1)
				await sleep(cfg.retryDelayMs * 2 ** (attempt - 2), undefined, { signal }).catch(() => {});
			if (this.closed) break;
			if (counting()) this.stats.attempts++;
			const signed = signedDelivery({
				secret: cfg.secrets[0] ?? '',
				scheme: cfg.scheme,
				event: body,
				id: eventId,
				url: /** @type {string} */ (cfg.url),
				timestamp: cfg.timestamp || undefined,
			});
			const headers = {
				'user-agent': 'tenant-api-sandbox',
				'x-event-id': eventId,
				'x-delivery-attempt': String(attempt),
				...signed.headers,
			};
			last = await postOnce({ ...signed, headers, timeoutMs: cfg.timeoutMs, agent: this.agent });
			if (counting()) {
				this.log.push({ eventId, attempt, ...last, at: new Date().toISOString() });
				if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
			}
			if (last.status !== null && last.status >= 200 && last.status < 300) {
				if (counting()) this.stats.succeeded++;
				return { eventId, ok: true, attempts: attempt, ...last };
			}
		}
		if (counting()) this.stats.failed++;
		return { eventId, ok: false, attempts: attempt, ...last };
	}

	close() {
		this.closed = true;
		this.stop.abort();
		this.agent.destroy();
	}
}

/**
 * A delivery's outcome in one line: `evt_1: delivered after 1 attempt(s) [answer: 200, no Content-Type, empty body]`.
 * @param {DeliveryResult} result
 */
function describeDelivery(result) {
	const { status, contentType, body, error } = result;
	const excerpt =
		body === '' ? 'empty body' : JSON.stringify(body.length > 80 ? `${body.slice(0, 80)}…` : body);
	const answer =
		status === null
			? `no answer (${error ?? 'unknown error'})`
			: `${status}, ${contentType ?? 'no Content-Type'}, ${excerpt}`;
	return `${result.eventId}: ${result.ok ? 'delivered' : 'not delivered'} after ${result.attempts} attempt(s) [answer: ${answer}]`;
}

module.exports = { WebhookDispatcher, describeDelivery };
