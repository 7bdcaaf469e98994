'use strict';

const crypto = require('node:crypto');

/**
 * Signs webhook deliveries the way each signing scheme the trigger offers does (the sender's side only:
 * checking is the product's job, in nodes/TenantApiTrigger, and the tests check one against the other).
 *
 * Schemes:
 * - `hmac-sha256-hex` (default), `hmac-sha256-base64`, `hmac-sha256-prefixed` (`sha256=<hex>`), `hmac-sha512-hex`:
 *   HMAC of the raw body in `x-signature`; with `timestamp`, of `<timestamp>.<body>`, the timestamp in `x-timestamp`.
 * - `timestamped`: `x-signature: t=<ts>,v1=<hex of "<ts>.<body>">`.
 * - `standard-webhooks`: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` of
 *   `<id>.<timestamp>.<body>`; the secret is `whsec_<base64 key>`.
 * - `custom-hmac`: `x-custom-signature: v0=<hex of "v0:<ts>:<body>">` and `x-custom-timestamp` (a Custom HMAC set-up).
 * - `secret-header`: the secret itself in `x-webhook-secret`. `none`: nothing.
 *
 * @typedef {'hmac-sha256-hex'|'hmac-sha256-base64'|'hmac-sha256-prefixed'|'hmac-sha512-hex'|'timestamped'
 *   |'standard-webhooks'|'custom-hmac'|'secret-header'|'none'} SigningScheme
 * @typedef {{ id: string, event: string, created_at: number, data: { object: unknown } }} WebhookEvent
 */

const SIGNATURE_HEADER = 'x-signature';
const TIMESTAMP_HEADER = 'x-timestamp';
const SECRET_HEADER = 'x-webhook-secret';
const CUSTOM_SIGNATURE_HEADER = 'x-custom-signature';
const CUSTOM_TIMESTAMP_HEADER = 'x-custom-timestamp';

/**
 * Each scheme, and the Tenant API Trigger settings that verify its deliveries.
 * @type {Record<SigningScheme, Record<string, unknown>>}
 */
const TRIGGER_SETTINGS = {
	'hmac-sha256-hex': { verification: 'hmacSha256' },
	'hmac-sha256-base64': { verification: 'hmacSha256' },
	'hmac-sha256-prefixed': { verification: 'hmacSha256' },
	'hmac-sha512-hex': { verification: 'hmacSha512' },
	timestamped: { verification: 'timestampedSignatures' },
	'standard-webhooks': { verification: 'standardWebhooks' },
	'custom-hmac': {
		verification: 'customHmac',
		customSignedContent: 'v0:{timestamp}:{body}',
		customSignatureHeader: CUSTOM_SIGNATURE_HEADER,
		customSignatureFormat: 'prefixed',
		customSignatureLabel: 'v0=',
		customSignatureEncoding: 'hex',
		customTimestampHeader: CUSTOM_TIMESTAMP_HEADER,
	},
	'secret-header': { verification: 'secretHeader' },
	none: { verification: 'none' },
};
const SCHEMES = /** @type {SigningScheme[]} */ (Object.keys(TRIGGER_SETTINGS));

/**
 * @param {unknown} scheme
 * @returns {scheme is SigningScheme}
 */
function isScheme(scheme) {
	return typeof scheme === 'string' && Object.hasOwn(TRIGGER_SETTINGS, scheme);
}

/** @param {Buffer|string} body */
const bytes = (body) => (Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'));

/**
 * @param {'sha1'|'sha256'|'sha512'} algorithm
 * @param {Buffer|string} key
 * @param {Array<Buffer|string>} parts
 */
function hmac(algorithm, key, parts) {
	const mac = crypto.createHmac(algorithm, key);
	for (const part of parts) mac.update(part);
	return mac.digest();
}

/** Standard Webhooks keys are `whsec_<base64>`: the HMAC key is the decoded bytes. @param {string} secret */
function base64Key(secret) {
	return Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
}

/** @param {number|string|boolean|undefined|null} timestamp */
function timestampText(timestamp) {
	if (timestamp === true) return String(Math.floor(Date.now() / 1000));
	if (timestamp === false || timestamp === undefined || timestamp === null) return undefined;
	return String(timestamp);
}

/**
 * Signature headers (lower-case names) for one delivery. `timestamp: true` means now; schemes that always sign a
 * timestamp use now when none is given. `id` is the message id (Standard Webhooks).
 * @param {{ secret: string, scheme?: SigningScheme, body: Buffer|string, timestamp?: number|string|boolean, id?: string }} opts
 * @returns {Record<string, string>}
 */
function sign({ secret, scheme = 'hmac-sha256-hex', body, timestamp, id = 'msg_sandbox' }) {
	if (!isScheme(scheme)) throw new Error(`unknown signing scheme: ${String(scheme)}`);
	const raw = bytes(body);
	if (scheme === 'none') return {};
	if (scheme === 'secret-header') return { [SECRET_HEADER]: secret };
	if (typeof secret !== 'string' || secret === '')
		throw new Error('a secret is required for HMAC schemes');
	const now = timestampText(timestamp ?? true);
	switch (scheme) {
		case 'standard-webhooks': {
			const sig = hmac('sha256', base64Key(secret), [`${id}.${now}.`, raw]).toString('base64');
			return {
				'webhook-id': id,
				'webhook-timestamp': String(now),
				'webhook-signature': `v1,${sig}`,
			};
		}
		case 'timestamped':
			return {
				[SIGNATURE_HEADER]: `t=${now},v1=${hmac('sha256', secret, [`${now}.`, raw]).toString('hex')}`,
			};
		case 'custom-hmac':
			return {
				[CUSTOM_TIMESTAMP_HEADER]: String(now),
				[CUSTOM_SIGNATURE_HEADER]: `v0=${hmac('sha256', secret, [`v0:${now}:`, raw]).toString('hex')}`,
			};
		default: {
			const ts = timestampText(timestamp);
			const payload = ts === undefined ? [raw] : [`${ts}.`, raw];
			const mac = hmac(scheme === 'hmac-sha512-hex' ? 'sha512' : 'sha256', secret, payload);
			/** @type {Record<string, string>} */
			const headers = ts === undefined ? {} : { [TIMESTAMP_HEADER]: ts };
			if (scheme === 'hmac-sha256-base64') headers[SIGNATURE_HEADER] = mac.toString('base64');
			else if (scheme === 'hmac-sha256-prefixed')
				headers[SIGNATURE_HEADER] = 'sha256=' + mac.toString('hex');
			else headers[SIGNATURE_HEADER] = mac.toString('hex');
			return headers;
		}
	}
}

/**
 * The form fields of an event: its scalar fields as they are, objects as JSON text.
 * @param {Record<string, unknown>} event
 */
function eventAsForm(event) {
	const form = new URLSearchParams();
	for (const [name, value] of Object.entries(event))
		form.append(
			name,
			value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value),
		);
	return Buffer.from(form.toString(), 'utf8');
}

/**
 * One whole delivery of `event` (a WebhookEvent, or any JSON object) in `scheme`: the body bytes (JSON unless
 * `bodyFormat: 'form'`), the headers (content type included) and the URL to post to. `id` is the message id of the
 * schemes that sign one (default: the event's `id`).
 * @param {{ secret: string, scheme?: SigningScheme, event: Record<string, unknown>, id?: string, url: string, timestamp?: number|string|boolean, bodyFormat?: 'json'|'form' }} opts
 * @returns {{ body: Buffer, headers: Record<string, string>, url: string }}
 */
function signedDelivery({
	secret,
	scheme = 'hmac-sha256-hex',
	event,
	id = typeof event.id === 'string' ? event.id : undefined,
	url,
	timestamp,
	bodyFormat,
}) {
	const form = bodyFormat === 'form';
	const contentType = form ? 'application/x-www-form-urlencoded' : 'application/json';
	const body = form ? eventAsForm(event) : Buffer.from(JSON.stringify(event), 'utf8');
	const headers = sign({ secret, scheme, body, timestamp, id });
	return { body, headers: { 'content-type': contentType, ...headers }, url };
}

/**
 * Demo secrets that are valid for every scheme's key format (base64 for Standard Webhooks).
 * @param {SigningScheme} scheme
 */
function demoSecret(scheme) {
	if (scheme === 'standard-webhooks')
		return `whsec_${Buffer.from('tenant-api-sandbox-signing-key').toString('base64')}`;
	return 'whsec_sandbox';
}

/**
 * The Tenant API Trigger settings that verify deliveries of `scheme` (what `npm start --scheme` and the tests use),
 * for bodies in `bodyFormat` (JSON by default; Standard Webhooks reads JSON only).
 * @param {SigningScheme} scheme
 * @param {'json'|'form'} [bodyFormat]
 * @returns {Record<string, unknown>}
 */
function triggerParameters(scheme, bodyFormat) {
	return scheme !== 'standard-webhooks' && bodyFormat !== undefined
		? { ...TRIGGER_SETTINGS[scheme], bodyFormat }
		: { ...TRIGGER_SETTINGS[scheme] };
}

module.exports = { sign, hmac, signedDelivery, demoSecret, triggerParameters, isScheme, SCHEMES };
