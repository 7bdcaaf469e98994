'use strict';

const zlib = require('node:zlib');

/** @import { IncomingMessage, ServerResponse } from 'node:http' */

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Send a JSON response.
 * @param {ServerResponse} res
 * @param {number} status
 * @param {unknown} payload
 * @param {Record<string, string>} [headers]
 */
function sendJson(res, status, payload, headers) {
	const body =
		typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
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
	res.writeHead(status, {
		'content-type': contentType,
		'content-length': String(Buffer.byteLength(body)),
		...lowerCaseKeys(headers),
	});
	res.end(body);
}

/**
 * Build the standard error body.
 * @param {string} code
 * @param {string} message
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

/**
 * Write `body` slowly, `bytesPerTick` bytes every `intervalMs`, after the headers went out at once:
 * the answer a client with a headers-only timeout waits for forever. With `endless`, spaces (valid
 * trailing JSON whitespace) follow the body until the client goes away. `timers` holds the pending
 * tick so the server can cancel it on close; `onCutShort` runs when the client closes first.
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string|Buffer} body
 * @param {{ intervalMs: number, bytesPerTick: number, endless: boolean, contentType: string, headers?: Record<string, string> }} how
 * @param {Set<NodeJS.Timeout>} timers
 * @param {() => void} onCutShort
 */
function sendDripping(res, status, body, how, timers, onCutShort) {
	const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
	/** @type {Record<string, string>} */
	const headers = { 'content-type': how.contentType, ...lowerCaseKeys(how.headers) };
	if (!how.endless) headers['content-length'] = String(bytes.length);
	res.writeHead(status, headers);
	res.flushHeaders();
	let offset = 0;
	whenCutShort(res, onCutShort);
	const tick = () => {
		if (res.destroyed) return;
		if (offset < bytes.length) {
			res.write(bytes.subarray(offset, offset + how.bytesPerTick));
			offset += how.bytesPerTick;
		} else if (how.endless) {
			res.write(' '.repeat(how.bytesPerTick));
		} else {
			res.end();
			return;
		}
		const timer = setTimeout(() => {
			timers.delete(timer);
			tick();
		}, how.intervalMs);
		timers.add(timer);
	};
	tick();
}

/** One gzip member of 1 MiB of spaces (about 1 KiB compressed), built once. */
let spacesMember = /** @type {Buffer|null} */ (null);
const MIB = 1024 * 1024;

/**
 * A gzip bomb that is valid JSON once inflated: `[`, `inflatedMiB` MiB of spaces, `]`, as concatenated
 * gzip members (about 1 KiB on the wire per MiB inflated). With `endless`, members follow until the
 * client goes away. Written with backpressure, so it costs the sandbox no memory.
 * @param {ServerResponse} res
 * @param {number} status
 * @param {{ inflatedMiB: number, endless: boolean }} how
 * @param {() => void} onCutShort
 */
function sendGzipBomb(res, status, how, onCutShort) {
	spacesMember ??= zlib.gzipSync(Buffer.alloc(MIB, 0x20), { level: 9 });
	const member = spacesMember;
	const open = zlib.gzipSync(Buffer.from('['));
	const close = zlib.gzipSync(Buffer.from(']'));
	res.writeHead(status, { 'content-type': JSON_TYPE, 'content-encoding': 'gzip' });
	whenCutShort(res, onCutShort);
	let written = 0;
	res.write(open);
	const pump = () => {
		while (!res.destroyed) {
			if (!how.endless && written >= how.inflatedMiB) {
				res.end(close);
				return;
			}
			written++;
			if (!res.write(member)) {
				res.once('drain', pump);
				return;
			}
		}
	};
	pump();
}

/**
 * @param {ServerResponse} res
 * @param {() => void} onCutShort
 */
function whenCutShort(res, onCutShort) {
	res.on('close', () => {
		if (!res.writableFinished) onCutShort();
	});
}

/**
 * @param {Record<string, string>|undefined} headers
 */
function lowerCaseKeys(headers) {
	/** @type {Record<string, string>} */
	const out = {};
	for (const name of Object.keys(headers ?? {}))
		out[name.toLowerCase()] = String(/** @type {Record<string, string>} */ (headers)[name]);
	return out;
}

module.exports = {
	sendJson,
	sendRaw,
	sendError,
	errorBody,
	readBody,
	parseJson,
	sendDripping,
	sendGzipBomb,
	BodyTooLargeError,
	JSON_TYPE,
};
