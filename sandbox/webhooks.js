'use strict';

const http = require('node:http');
const { signedDelivery, demoSecret, isScheme } = require('./signing');
const { SandboxOptionError, numberOption } = require('./options');

/**
 * Outgoing webhook deliveries: one event per created record, signed (signing.js), and delivered again with backoff
 * until an answer is a 2xx or the attempts run out. Every attempt is logged with what came back.
 *
 * @import { SigningScheme, WebhookEvent } from './signing'
 * @typedef {{ url?: string|null, secrets?: string[], scheme?: SigningScheme, timestamp?: boolean,
 *   bodyFormat?: 'json'|'form'|null, maxAttempts?: number, retryDelayMs?: number, timeoutMs?: number }} WebhookOptions
 * @typedef {Required<WebhookOptions>} WebhookConfig the options with the defaults filled in
 * @typedef {{ attempts: number, succeeded: number, failed: number }} DeliveryStats
 * @typedef {{ status: number|null, contentType: string|null, body: string, error?: string }} Answer what came back
 *   (`status` null: no answer, `error` says why; `body`: its first BODY_EXCERPT characters, as text)
 * @typedef {{ eventId: string, attempt: number, at: string } & Answer} AttemptLog
 * @typedef {{ eventId: string, ok: boolean, attempts: number } & Answer} DeliveryResult `ok`: an answer was a 2xx
 * @typedef {{ payload: Record<string, unknown> }} Payload a body sent exactly as given (no field added)
 * @typedef {string|Partial<WebhookEvent>|Payload|undefined} DeliveryInput an event type, a partial event (the rest
 *   filled in), a payload, or nothing (a ping)
 * @typedef {{ eventId: string, body: Record<string, unknown> }} Delivery what is signed and sent: `eventId` names the
 *   delivery in the log, the `x-event-id` header and the message id of schemes that sign one (`webhook-id`)
 */

const USER_AGENT = 'tenant-api-sandbox';
const LOG_LIMIT = 1000;

/**
 * Validate and fill defaults.
 * @param {WebhookOptions|null|undefined} cfg
 * @param {WebhookConfig} [base] values to keep for fields not given
 * @returns {WebhookConfig}
 */
function normalizeWebhookConfig(cfg, base) {
	const c = cfg ?? {};
	const url = c.url === undefined ? (base?.url ?? null) : c.url;
	if (url !== null && !/^http:\/\/[^/]/.test(String(url)))
		throw new SandboxOptionError('webhook url must be an http:// URL');
	const scheme = c.scheme ?? base?.scheme ?? 'hmac-sha256-hex';
	if (!isScheme(scheme)) throw new SandboxOptionError(`unknown scheme: ${String(scheme)}`);
	const secrets = c.secrets ?? base?.secrets ?? [demoSecret(scheme)];
	if (!Array.isArray(secrets) || (secrets.length === 0 && scheme !== 'none'))
		throw new SandboxOptionError('secrets must be an array of strings, one at least');
	const bodyFormat = c.bodyFormat === undefined ? (base?.bodyFormat ?? null) : c.bodyFormat;
	if (bodyFormat !== null && bodyFormat !== 'json' && bodyFormat !== 'form')
		throw new SandboxOptionError('bodyFormat must be "json" or "form"');
	return {
		url,
		secrets: secrets.slice(),
		scheme,
		timestamp: c.timestamp === undefined ? (base?.timestamp ?? false) : c.timestamp === true,
		bodyFormat,
		maxAttempts: numberOption(c.maxAttempts, base?.maxAttempts ?? 3, 'maxAttempts', 1, true),
		retryDelayMs: numberOption(c.retryDelayMs, base?.retryDelayMs ?? 50, 'retryDelayMs', 0),
		timeoutMs: numberOption(c.timeoutMs, base?.timeoutMs ?? 5000, 'timeoutMs', 1),
	};
}

/** How much of an answer's body is kept in the attempt log and in results, in characters. */
const BODY_EXCERPT = 256;
/** How much of an answer is read (UTF-8 takes at most 4 bytes a character; the rest is drained unread). */
const ANSWER_LIMIT = BODY_EXCERPT * 4;

/**
 * POST bytes once; resolves with the answer: status, Content-Type and the body as text (its first BODY_EXCERPT
 * characters). Never rejects: network errors come back as `{ status: null, error }`.
 * @param {{ url: string, body: Buffer, headers: Record<string, string>, timeoutMs: number, agent?: http.Agent }} o
 * @returns {Promise<Answer>}
 */
function postOnce({ url, body, headers, timeoutMs, agent }) {
	return new Promise((resolve) => {
		let done = false;
		const finish = (/** @type {Answer} */ r) => {
			if (!done) {
				done = true;
				resolve(r);
			}
		};
		const failed = (/** @type {unknown} */ err) =>
			finish({ status: null, contentType: null, body: '', error: String(err) });
		try {
			const req = http.request(
				url,
				{ method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, agent },
				(res) => {
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
					res.on('end', () => finish(answer()));
					res.on('error', (err) => finish({ ...answer(), error: err.message }));
				},
			);
			req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
			req.on('error', (err) => failed(err.message));
			req.end(body);
		} catch (err) {
			failed(err);
		}
	});
}

/**
 * Body, headers and URL of one attempt (re-signed per attempt, so a signed timestamp is fresh; the body bytes
 * are the same every time, and so is the signature of a scheme that signs no timestamp).
 * @param {WebhookConfig} cfg
 * @param {Delivery} delivery
 * @param {number} attempt
 */
function attemptRequest(cfg, delivery, attempt) {
	const signed = signedDelivery({
		secret: cfg.secrets[0] ?? '',
		scheme: cfg.scheme,
		event: delivery.body,
		id: delivery.eventId,
		url: /** @type {string} */ (cfg.url),
		timestamp: cfg.timestamp || undefined,
		bodyFormat: cfg.bodyFormat ?? undefined,
	});
	return {
		url: signed.url,
		body: signed.body,
		headers: {
			'user-agent': USER_AGENT,
			'x-event-id': delivery.eventId,
			'x-delivery-attempt': String(attempt),
			...signed.headers,
		},
	};
}

class WebhookDispatcher {
	/** @param {WebhookOptions|null|undefined} cfg */
	constructor(cfg) {
		/** @type {WebhookConfig} */
		this.config = normalizeWebhookConfig(cfg);
		/** @type {DeliveryStats} */
		this.stats = { attempts: 0, succeeded: 0, failed: 0 };
		this.eventSeq = 0;
		/** @type {AttemptLog[]} */
		this.log = [];
		this.closed = false;
		/** bumped by resetCounters(): deliveries started before a reset stop touching the counters */
		this.generation = 0;
		/** @type {Set<Promise<DeliveryResult>>} events being delivered (backoff waits included) */
		this.inFlight = new Set();
		/** @type {Map<NodeJS.Timeout, () => void>} pending backoff sleeps, resolved early on close */
		this.timers = new Map();
		this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
	}

	/** @param {WebhookOptions|null} cfg replaces the configuration (unspecified fields get defaults) */
	configure(cfg) {
		this.config = normalizeWebhookConfig(cfg);
	}

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
	 * An event with the next delivery id (`evt_1`, `evt_2`, …).
	 * @param {string} type e.g. "transfers.created"
	 * @param {unknown} object
	 * @returns {WebhookEvent}
	 */
	makeEvent(type, object) {
		const id = `evt_${++this.eventSeq}`;
		return { id, event: type, created_at: Math.floor(Date.now() / 1000), data: { object } };
	}

	/**
	 * What `input` sends: a payload exactly as given, else an event (from a type, or a partial event with the rest
	 * filled in; its `id` names the delivery).
	 * @param {DeliveryInput} input
	 * @returns {Delivery}
	 */
	toDelivery(input) {
		if (input !== null && typeof input === 'object' && 'payload' in input) {
			const { payload } = input;
			if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
				throw new SandboxOptionError('payload must be a JSON object');
			return { eventId: `evt_${++this.eventSeq}`, body: payload };
		}
		const partial = typeof input === 'string' ? { event: input } : (input ?? {});
		const sample = { id: 'rec_sample', object: 'sample', created_at: new Date().toISOString() };
		const event = { ...this.makeEvent(partial.event ?? 'sandbox.ping', sample), ...partial };
		return { eventId: event.id, body: event };
	}

	/**
	 * Fire-and-forget delivery for a freshly created record (no-op when no url is configured).
	 * @param {string} collection
	 * @param {unknown} record
	 */
	recordCreated(collection, record) {
		if (this.closed || !this.config.url) return;
		const event = this.makeEvent(`${collection}.created`, record);
		void this.send({ eventId: event.id, body: event }, this.config);
	}

	/**
	 * Send one delivery now (README "Webhook deliveries").
	 * @param {DeliveryInput} [input]
	 * @param {WebhookOptions} [overrides] e.g. { url, maxAttempts } for this delivery only
	 * @returns {Promise<DeliveryResult>}
	 */
	deliver(input, overrides) {
		const cfg = overrides ? normalizeWebhookConfig(overrides, this.config) : this.config;
		if (!cfg.url) throw new SandboxOptionError('no webhook url configured');
		return this.send(this.toDelivery(input), cfg);
	}

	/**
	 * Serialize once, then try up to maxAttempts times with exponential backoff.
	 * @param {Delivery} delivery
	 * @param {WebhookConfig} cfg
	 * @returns {Promise<DeliveryResult>}
	 */
	send(delivery, cfg) {
		const p = this.attemptAll(delivery, cfg);
		this.inFlight.add(p);
		p.finally(() => this.inFlight.delete(p)).catch(() => {});
		return p;
	}

	/**
	 * Attempts until an answer is a 2xx, the attempts run out or the dispatcher closes.
	 * @param {Delivery} delivery
	 * @param {WebhookConfig} cfg
	 * @returns {Promise<DeliveryResult>}
	 */
	async attemptAll(delivery, cfg) {
		const generation = this.generation;
		const counting = () => generation === this.generation;
		const { eventId } = delivery;
		/** @type {Answer} */
		let last = { status: null, contentType: null, body: '', error: 'not attempted' };
		let attempt = 0;
		while (attempt < cfg.maxAttempts && !this.closed) {
			attempt++;
			if (attempt > 1) await this.sleep(cfg.retryDelayMs * 2 ** (attempt - 2));
			if (this.closed) break;
			if (counting()) this.stats.attempts++;
			last = await postOnce({
				...attemptRequest(cfg, delivery, attempt),
				timeoutMs: cfg.timeoutMs,
				agent: this.agent,
			});
			if (counting()) this.pushLog({ eventId, attempt, ...last, at: new Date().toISOString() });
			if (last.status !== null && last.status >= 200 && last.status < 300) {
				if (counting()) this.stats.succeeded++;
				return { eventId, ok: true, attempts: attempt, ...last };
			}
		}
		if (counting()) this.stats.failed++;
		return { eventId, ok: false, attempts: attempt, ...last };
	}

	/** @param {AttemptLog} entry */
	pushLog(entry) {
		this.log.push(entry);
		if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
	}

	/** @param {number} ms @returns {Promise<void>} */
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
	}
}

/**
 * An answer in one line: status, Content-Type and the start of the body.
 * @param {Answer} answer
 */
function describeAnswer(answer) {
	if (answer.status === null) return `no answer (${answer.error ?? 'unknown error'})`;
	const body =
		answer.body === ''
			? 'empty body'
			: JSON.stringify(answer.body.length > 80 ? `${answer.body.slice(0, 80)}…` : answer.body);
	return `${answer.status}, ${answer.contentType ?? 'no Content-Type'}, ${body}`;
}

/**
 * A delivery's outcome in one line: `evt_1: delivered after 1 attempt(s) [answer: 200, no Content-Type, empty body]`.
 * @param {DeliveryResult} result
 */
function describeDelivery(result) {
	const outcome = result.ok ? 'delivered' : 'not delivered';
	return `${result.eventId}: ${outcome} after ${result.attempts} attempt(s) [answer: ${describeAnswer(result)}]`;
}

module.exports = { WebhookDispatcher, describeDelivery };
