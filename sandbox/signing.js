'use strict';

const crypto = require('node:crypto');

/**
 * Signs webhook deliveries the way each signing scheme the trigger offers does (sandbox/README.md: the sender's side
 * only; the tests check the product's verification against it).
 *
 * @typedef {'hmac-sha256-hex'|'hmac-sha256-base64'|'hmac-sha256-prefixed'|'hmac-sha512-hex'|'timestamped'
 *   |'standard-webhooks'|'custom-hmac'|'secret-header'|'none'} SigningScheme
 * @typedef {{ id: string, event: string, created_at: number, data: { object: unknown } }} WebhookEvent
 */

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
		customSignatureHeader: 'x-custom-signature',
		customSignatureFormat: 'prefixed',
		customSignatureLabel: 'v0=',
		customSignatureEncoding: 'hex',
		customTimestampHeader: 'x-custom-timestamp',
	},
	'secret-header': { verification: 'secretHeader' },
	none: { verification: 'none' },
};
const SCHEMES = /** @type {SigningScheme[]} */ (Object.keys(TRIGGER_SETTINGS));

/** @param {unknown} scheme @returns {scheme is SigningScheme} */
const isScheme = (scheme) => typeof scheme === 'string' && Object.hasOwn(TRIGGER_SETTINGS, scheme);

/** @param {'sha1'|'sha256'|'sha512'} algorithm @param {Buffer|string} key @param {Array<Buffer|string>} parts */
function hmac(algorithm, key, parts) {
	const mac = crypto.createHmac(algorithm, key);
	for (const part of parts) mac.update(part);
	return mac.digest();
}

/**
 * Signature headers (lower-case names) for one delivery. `timestamp: true` means now; schemes that always sign a
 * timestamp use now when none is given. `id` is the message id (Standard Webhooks).
 * @param {{ secret: string, scheme?: SigningScheme, body: Buffer|string, timestamp?: number|string|boolean, id?: string }} opts
 * @returns {Record<string, string>}
 */
function sign({ secret, scheme = 'hmac-sha256-hex', body, timestamp, id = 'msg_sandbox' }) {
	if (!isScheme(scheme)) throw new Error(`unknown signing scheme: ${String(scheme)}`);
	const raw = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
	if (scheme === 'none') return {};
	if (scheme === 'secret-header') return { 'x-webhook-secret': secret };
	if (typeof secret !== 'string' || secret === '')
		throw new Error('a secret is required for HMAC schemes');
	const now = String(
		timestamp === undefined || timestamp === true ? Math.floor(Date.now() / 1000) : timestamp,
	);
	const hex = (/** @type {string} */ prefix) =>
		hmac('sha256', secret, [prefix, raw]).toString('hex');
	if (scheme === 'standard-webhooks') {
		// The secret is `whsec_<base64>`: the HMAC key is the decoded bytes.
		const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
		const sig = hmac('sha256', key, [`${id}.${now}.`, raw]).toString('base64');
		return { 'webhook-id': id, 'webhook-timestamp': now, 'webhook-signature': `v1,${sig}` };
	}
	if (scheme === 'timestamped') return { 'x-signature': `t=${now},v1=${hex(`${now}.`)}` };
	if (scheme === 'custom-hmac')
		return { 'x-custom-timestamp': now, 'x-custom-signature': `v0=${hex(`v0:${now}:`)}` };
	// The hmac-* schemes sign a timestamp only when given one.
	const ts = timestamp === undefined || timestamp === false || timestamp === null ? undefined : now;
	const mac = hmac(
		scheme === 'hmac-sha512-hex' ? 'sha512' : 'sha256',
		secret,
		ts === undefined ? [raw] : [`${ts}.`, raw],
	);
	const signature =
		scheme === 'hmac-sha256-base64'
			? mac.toString('base64')
			: `${scheme === 'hmac-sha256-prefixed' ? 'sha256=' : ''}${mac.toString('hex')}`;
	return ts === undefined
		? { 'x-signature': signature }
		: { 'x-timestamp': ts, 'x-signature': signature };
}

/**
 * One whole delivery of `event` (any JSON object) in `scheme`: the JSON body bytes, the headers (content type
 * included) and the URL to post to. `id` is the message id of the schemes that sign one (default: the event's `id`).
 * @param {{ secret: string, scheme?: SigningScheme, event: Record<string, unknown>, id?: string, url: string, timestamp?: number|string|boolean }} opts
 * @returns {{ body: Buffer, headers: Record<string, string>, url: string }}
 */
function signedDelivery({ secret, scheme = 'hmac-sha256-hex', event, id, url, timestamp }) {
	const body = Buffer.from(JSON.stringify(event), 'utf8');
	id ??= typeof event.id === 'string' ? event.id : undefined;
	const headers = sign({ secret, scheme, body, timestamp, id });
	return { body, headers: { 'content-type': 'application/json', ...headers }, url };
}

/** A demo secret valid in `scheme`'s key format (base64 for Standard Webhooks). @param {SigningScheme} scheme */
const demoSecret = (scheme) =>
	scheme === 'standard-webhooks'
		? `whsec_${Buffer.from('tenant-api-sandbox-signing-key').toString('base64')}`
		: 'whsec_sandbox';

/**
 * The Tenant API Trigger settings that verify deliveries of `scheme` (what `npm start --scheme` and the tests use),
 * for bodies in `bodyFormat` (JSON by default; Standard Webhooks reads JSON only).
 * @param {SigningScheme} scheme @param {'json'|'form'} [bodyFormat] @returns {Record<string, unknown>}
 */
const triggerParameters = (scheme, bodyFormat) =>
	scheme !== 'standard-webhooks' && bodyFormat !== undefined
		? { ...TRIGGER_SETTINGS[scheme], bodyFormat }
		: { ...TRIGGER_SETTINGS[scheme] };

module.exports = { sign, hmac, signedDelivery, demoSecret, triggerParameters, isScheme, SCHEMES };
