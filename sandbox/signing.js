'use strict';

const crypto = require('node:crypto');

/**
 * Webhook signing schemes. Every scheme signs the exact bytes that are sent; with a timestamp
 * the signed payload is `<timestamp>.<raw body>` and the timestamp travels in `x-timestamp`.
 *
 * @typedef {'hmac-sha256-hex'|'hmac-sha256-base64'|'hmac-sha256-prefixed'|'hmac-sha512-hex'|'secret-header'|'none'} SigningScheme
 */

/** @type {readonly SigningScheme[]} */
const SCHEMES = ['hmac-sha256-hex', 'hmac-sha256-base64', 'hmac-sha256-prefixed', 'hmac-sha512-hex', 'secret-header', 'none'];

const SIGNATURE_HEADER = 'x-signature';
const TIMESTAMP_HEADER = 'x-timestamp';
const SECRET_HEADER = 'x-webhook-secret';

/**
 * @param {unknown} scheme
 * @returns {scheme is SigningScheme}
 */
function isScheme(scheme) {
	return typeof scheme === 'string' && /** @type {readonly string[]} */ (SCHEMES).includes(scheme);
}

/**
 * The bytes that get signed.
 * @param {Buffer|string} body
 * @param {number|string|undefined} timestamp
 * @returns {Buffer}
 */
function signedPayload(body, timestamp) {
	const raw = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
	return timestamp === undefined ? raw : Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), raw]);
}

/**
 * Compute the signature headers for one delivery.
 * `timestamp: true` means "now" (unix seconds); a number/string is used as given.
 * @param {{ secret: string, scheme?: SigningScheme, body: Buffer|string, timestamp?: number|string|boolean }} opts
 * @returns {Record<string, string>} lower-case header names
 */
function sign({ secret, scheme = 'hmac-sha256-hex', body, timestamp }) {
	if (!isScheme(scheme)) throw new Error(`unknown signing scheme: ${String(scheme)}`);
	/** @type {number|string|undefined} */
	let ts;
	if (timestamp === true) ts = Math.floor(Date.now() / 1000);
	else if (timestamp === false || timestamp === undefined || timestamp === null) ts = undefined;
	else ts = timestamp;

	/** @type {Record<string, string>} */
	const headers = {};
	if (ts !== undefined) headers[TIMESTAMP_HEADER] = String(ts);
	if (scheme === 'none') return headers;
	if (scheme === 'secret-header') {
		headers[SECRET_HEADER] = secret;
		return headers;
	}
	if (typeof secret !== 'string' || secret === '') throw new Error('a secret is required for HMAC schemes');
	const payload = signedPayload(body, ts);
	const algo = scheme === 'hmac-sha512-hex' ? 'sha512' : 'sha256';
	const mac = crypto.createHmac(algo, secret).update(payload);
	if (scheme === 'hmac-sha256-base64') headers[SIGNATURE_HEADER] = mac.digest('base64');
	else if (scheme === 'hmac-sha256-prefixed') headers[SIGNATURE_HEADER] = 'sha256=' + mac.digest('hex');
	else headers[SIGNATURE_HEADER] = mac.digest('hex');
	return headers;
}

/**
 * Check a delivery the way a receiver would; accepts any of `secrets` (rotation).
 * Header names are matched case-insensitively.
 * @param {{ secrets: string[], scheme?: SigningScheme, body: Buffer|string, headers: Record<string, string|string[]|undefined>, toleranceSeconds?: number, now?: number }} opts
 * @returns {boolean}
 */
function verify({ secrets, scheme = 'hmac-sha256-hex', body, headers, toleranceSeconds, now }) {
	/** @type {Record<string, string>} */
	const h = {};
	for (const [k, v] of Object.entries(headers)) if (v !== undefined) h[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
	if (scheme === 'none') return true;
	const ts = h[TIMESTAMP_HEADER];
	if (toleranceSeconds !== undefined) {
		const t = Number(ts);
		const current = now ?? Math.floor(Date.now() / 1000);
		if (!Number.isFinite(t) || Math.abs(current - t) > toleranceSeconds) return false;
	}
	const header = scheme === 'secret-header' ? SECRET_HEADER : SIGNATURE_HEADER;
	const got = h[header];
	if (typeof got !== 'string') return false;
	return secrets.some((secret) => {
		const expected = sign({ secret, scheme, body, timestamp: ts })[header];
		const a = Buffer.from(got);
		const b = Buffer.from(expected);
		return a.length === b.length && crypto.timingSafeEqual(a, b);
	});
}

module.exports = { sign, verify, signedPayload, isScheme, SCHEMES, SIGNATURE_HEADER, TIMESTAMP_HEADER, SECRET_HEADER };
