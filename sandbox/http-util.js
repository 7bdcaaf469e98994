'use strict';

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Send a JSON response.
 * @param {ServerResponse} res
 * @param {number} status
 * @param {unknown} payload
 * @param {Record<string, string>} [headers]
 */
function sendJson(res, status, payload, headers) {
	const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
	sendRaw(res, status, body, JSON_TYPE, headers);
}

/**
 * Send arbitrary bytes.
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string|Buffer} body
 * @param {string} contentType
 * @param {Record<string, string>} [headers]
 */
function sendRaw(res, status, body, contentType, headers) {
	/** @type {Record<string, string>} */
	const out = {
		'content-type': contentType,
		'content-length': String(Buffer.byteLength(body)),
	};
	if (headers) {
		for (const name of Object.keys(headers)) out[name.toLowerCase()] = String(headers[name]);
	}
	res.writeHead(status, out);
	res.end(body);
}

/**
 * Build the standard error body.
 * @param {string} code
 * @param {string} message
 * @returns {{error: {code: string, message: string}}}
 */
function errorBody(code, message) {
	return { error: { code, message } };
}

/**
 * Send the standard error body.
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [headers]
 */
function sendError(res, status, code, message, headers) {
	sendJson(res, status, errorBody(code, message), headers);
}

class BodyTooLargeError extends Error {}

/**
 * Read the whole request body, up to `limit` bytes.
 * @param {IncomingMessage} req
 * @param {number} limit
 * @returns {Promise<Buffer>}
 */
function readBody(req, limit) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size > limit) {
				reject(new BodyTooLargeError('body too large'));
				req.removeAllListeners('data');
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/**
 * Parse a JSON body; returns undefined for an empty body.
 * @param {Buffer} buf
 * @returns {{ ok: true, value: unknown } | { ok: false }}
 */
function parseJson(buf) {
	try {
		return { ok: true, value: JSON.parse(buf.toString('utf8')) };
	} catch {
		return { ok: false };
	}
}

module.exports = { sendJson, sendRaw, sendError, errorBody, readBody, parseJson, BodyTooLargeError, JSON_TYPE };
