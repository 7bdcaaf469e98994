'use strict';

const http = require('node:http');
const https = require('node:https');
const { signedDelivery, demoSecret, isScheme } = require('./signing');
const { judgeAnswer, BODY_EXCERPT } = require('./senders');
const { handshakeOf, HANDSHAKE_SCHEMES } = require('./handshakes');

/**
 * Outgoing webhook deliveries: one event per created record, signed, retried with backoff, each answer taken the way
 * the scheme's sender takes it (senders.js); and the handshake a sender makes when a URL is registered (handshakes.js).
 *
 * @import { SigningScheme, WebhookEvent } from './signing'
 * @import { Answer } from './senders'
 * @import { HandshakeName } from './handshakes'
 * @typedef {{ url?: string|null, secrets?: string[], secret?: string, scheme?: SigningScheme, timestamp?: boolean,
 *   signedUrl?: string|null, bodyFormat?: 'json'|'form'|null, maxAttempts?: number, retryDelayMs?: number, timeoutMs?: number }} WebhookOptions
 * @typedef {Required<Omit<WebhookOptions, 'secret'>>} WebhookConfig the options with the defaults filled in
 * @typedef {{ attempts: number, succeeded: number, failed: number }} DeliveryStats
 * @typedef {{ status: number|null, contentType: string|null, body: string, verdict: string }} SenderView what the
 *   sender saw (`body`: the first BODY_EXCERPT characters) and made of it (senders.js)
 * @typedef {{ eventId: string, attempt: number, error?: string, at: string } & SenderView} AttemptLog
 * @typedef {{ eventId: string, ok: boolean, attempts: number, error?: string } & SenderView} DeliveryResult
 * @typedef {{ scheme: SigningScheme, handshake: HandshakeName, label: string, ok: boolean, error?: string, at: string } & SenderView} RegistrationResult
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
	if (typeof c !== 'object' || Array.isArray(c))
		throw new WebhookConfigError('webhook config must be an object');
	const url = c.url === undefined ? (base?.url ?? null) : c.url;
	if (url !== null) {
		if (typeof url !== 'string') throw new WebhookConfigError('webhook url must be a string');
		let parsed;
		try {
			parsed = new URL(url);
		} catch {
			throw new WebhookConfigError('webhook url is not a valid URL');
		}
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
			throw new WebhookConfigError('webhook url must be http(s)');
	}
	const scheme = c.scheme ?? base?.scheme ?? 'hmac-sha256-hex';
	if (!isScheme(scheme)) throw new WebhookConfigError(`unknown scheme: ${String(scheme)}`);
	const secrets =
		c.secrets ?? (c.secret !== undefined ? [c.secret] : (base?.secrets ?? [demoSecret(scheme)]));
	if (!Array.isArray(secrets) || secrets.some((s) => typeof s !== 'string'))
		throw new WebhookConfigError('secrets must be an array of strings');
	if (secrets.length === 0 && scheme !== 'none')
		throw new WebhookConfigError('at least one secret is required');
	const num = (
		/** @type {unknown} */ v,
		/** @type {number} */ d,
		/** @type {string} */ name,
		/** @type {number} */ min,
	) => {
		const n = v === undefined ? d : Number(v);
		if (!Number.isFinite(n) || n < min)
			throw new WebhookConfigError(`${name} must be a number >= ${min}`);
		return n;
	};
	const signedUrl = c.signedUrl === undefined ? (base?.signedUrl ?? null) : c.signedUrl;
	if (signedUrl !== null && typeof signedUrl !== 'string')
		throw new WebhookConfigError('signedUrl must be a string');
	const bodyFormat = c.bodyFormat === undefined ? (base?.bodyFormat ?? null) : c.bodyFormat;
	if (bodyFormat !== null && bodyFormat !== 'json' && bodyFormat !== 'form')
		throw new WebhookConfigError('bodyFormat must be "json" or "form"');
	return {
		url,
		secrets: secrets.slice(),
		scheme,
		timestamp: c.timestamp === undefined ? (base?.timestamp ?? false) : c.timestamp === true,
		signedUrl,
		bodyFormat,
		maxAttempts: Math.floor(num(c.maxAttempts, base?.maxAttempts ?? 3, 'maxAttempts', 1)),
		retryDelayMs: num(c.retryDelayMs, base?.retryDelayMs ?? 50, 'retryDelayMs', 0),
		timeoutMs: num(c.timeoutMs, base?.timeoutMs ?? 5000, 'timeoutMs', 1),
	};
}

/** How much of an answer is read (the rest is drained unread). */
const ANSWER_LIMIT = 64 * 1024;

/**
 * POST bytes once; resolves with the answer: status, Content-Type and the body as text (its first ANSWER_LIMIT
 * bytes). Never rejects: network errors come back as `{ status: null, error }`.
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
		try {
			const u = new URL(url);
			const lib = u.protocol === 'https:' ? https : http;
			const req = lib.request(
				u,
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
						body: Buffer.concat(chunks).toString('utf8'),
					});
					res.on('end', () => finish(answer()));
					res.on('error', (err) => finish({ ...answer(), error: err.message }));
				},
			);
			req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
			req.on('error', (err) =>
				finish({ status: null, contentType: null, body: '', error: err.message }),
			);
			req.end(body);
		} catch (err) {
			finish({
				status: null,
				contentType: null,
				body: '',
				error: err instanceof Error ? err.message : String(err),
			});
		}
	});
}

/**
 * What the sender saw of an answer, and its verdict.
 * @param {Answer} answer
 * @param {string} verdict
 * @returns {SenderView & { error?: string }}
 */
function senderView(answer, verdict) {
	return {
		status: answer.status,
		contentType: answer.contentType,
		body: answer.body.slice(0, BODY_EXCERPT),
		verdict,
		...(answer.error ? { error: answer.error } : {}),
	};
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
		headers: {
			'user-agent': USER_AGENT,
			'x-event-id': event.id,
			'x-delivery-attempt': String(attempt),
			...delivery.headers,
		},
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
		return {
			id: `evt_${++this.eventSeq}`,
			event: type,
			created_at: Math.floor(Date.now() / 1000),
			data: { object },
		};
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
		/** @type {SenderView & { error?: string }} */
		let seen = senderView(
			{ status: null, contentType: null, body: '', error: 'not attempted' },
			'not attempted',
		);
		let attempt = 0;
		while (attempt < cfg.maxAttempts && !this.closed) {
			attempt++;
			if (attempt > 1) await this.sleep(cfg.retryDelayMs * 2 ** (attempt - 2));
			if (this.closed) break;
			if (counting()) this.stats.attempts++;
			const answer = await postOnce({
				...attemptRequest(cfg, event, attempt),
				timeoutMs: cfg.timeoutMs,
				agent: this.agentFor(cfg.url),
			});
			const judgement = judgeAnswer(cfg.scheme, answer);
			seen = senderView(answer, judgement.verdict);
			if (counting())
				this.pushLog({ eventId: event.id, attempt, ...seen, at: new Date().toISOString() });
			if (judgement.accepted) {
				if (counting()) this.stats.succeeded++;
				return { eventId: event.id, ok: true, attempts: attempt, ...seen };
			}
			if (judgement.final) break;
		}
		if (counting()) this.stats.failed++;
		return { eventId: event.id, ok: false, attempts: attempt, ...seen };
	}

	/**
	 * Register the URL the way the scheme's sender does: its handshake (handshakes.js), once, and its verdict.
	 * @param {WebhookOptions} [overrides] e.g. { url, scheme } for this registration only
	 * @returns {Promise<RegistrationResult>}
	 */
	async register(overrides) {
		const cfg = overrides ? normalizeWebhookConfig(overrides, this.config) : this.config;
		if (!cfg.url) throw new WebhookConfigError('no webhook url configured');
		const handshake = handshakeOf(cfg.scheme);
		if (!handshake)
			throw new WebhookConfigError(
				`the ${cfg.scheme} sender makes no handshake (those that do: ${HANDSHAKE_SCHEMES.join(', ')}): send a delivery instead`,
			);
		const request = handshake.request({ secret: cfg.secrets[0] ?? '', url: cfg.url });
		const answer = await postOnce({
			url: request.url,
			body: request.body,
			headers: { 'user-agent': USER_AGENT, ...request.headers },
			timeoutMs: cfg.timeoutMs,
			agent: this.agentFor(cfg.url),
		});
		const { ok, verdict } = handshake.judge(answer, request);
		return {
			scheme: cfg.scheme,
			handshake: handshake.name,
			label: handshake.label,
			ok,
			...senderView(answer, verdict),
			at: new Date().toISOString(),
		};
	}

	/** @param {string|null} url */
	agentFor(url) {
		return url?.startsWith('https:') ? this.httpsAgent : this.agent;
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

module.exports = {
	WebhookDispatcher,
	WebhookConfigError,
	normalizeWebhookConfig,
	postOnce,
	attemptRequest,
	USER_AGENT,
};
