'use strict';

const { setTimeout: sleep } = require('node:timers/promises');
const zlib = require('node:zlib');

/** @import { IncomingMessage, ServerResponse } from 'node:http' */

const JSON_TYPE = 'application/json; charset=utf-8';
/** Request bodies above this close the connection unanswered. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MIB = 1024 * 1024;

/** @param {ServerResponse} res @param {number} status @param {string|Buffer} body @param {string} contentType @param {Record<string, string>} [headers] */
function sendRaw(res, status, body, contentType, headers) {
	res.writeHead(status, {
		'content-type': contentType,
		'content-length': String(Buffer.byteLength(body)),
		...headers,
	});
	res.end(body);
}

/** The standard error body. @param {string} code @param {string} message */
const errorBody = (code, message) => ({ error: { code, message } });

/** @param {ServerResponse} res @param {number} status @param {unknown} payload @param {Record<string, string>} [headers] */
const sendJson = (res, status, payload, headers) =>
	sendRaw(res, status, JSON.stringify(payload), JSON_TYPE, headers);

/** @param {ServerResponse} res @param {number} status @param {string} code @param {string} message @param {Record<string, string>} [headers] */
const sendError = (res, status, code, message, headers) =>
	sendJson(res, status, errorBody(code, message), headers);

/**
 * The request's body as a JSON object (`{}` for an empty body where `emptyOk`), or undefined once the request has
 * been refused: 400 when it is no JSON object, the connection closed when it is too large or breaks off.
 * @param {IncomingMessage} req @param {ServerResponse} res @returns {Promise<Record<string, unknown>|undefined>}
 */
async function readObject(req, res, emptyOk = false) {
	/** @type {Buffer[]} */
	const chunks = [];
	let size = 0;
	try {
		for await (const chunk of req) {
			if ((size += chunk.length) > MAX_BODY_BYTES) throw new Error('body too large');
			chunks.push(chunk);
		}
	} catch {
		return void req.socket.destroy();
	}
	const text = Buffer.concat(chunks).toString('utf8');
	if (emptyOk && text === '') return {};
	try {
		const value = JSON.parse(text);
		if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
	} catch {
		// answered below
	}
	sendError(res, 400, 'invalid_body', 'The request body must be a JSON object');
	return undefined;
}

/** Counts an answer the client closed before its end. @param {ServerResponse} res @param {() => void} onCutShort */
const whenCutShort = (res, onCutShort) =>
	res.on('close', () => res.writableFinished || onCutShort());

/**
 * Writes `body` one byte every `intervalMs` after the headers went out at once: the answer a client with a
 * headers-only timeout waits for forever. With `endless`, spaces (valid trailing JSON whitespace) follow until the
 * client goes away, or the server closes (`stop`).
 * @param {ServerResponse} res @param {number} status @param {string} body
 * @param {{ intervalMs: number, endless: boolean }} how @param {AbortSignal} stop
 * @param {() => void} onCutShort
 */
function sendDripping(res, status, body, how, stop, onCutShort) {
	const bytes = Buffer.from(body, 'utf8');
	res.writeHead(status, {
		'content-type': JSON_TYPE,
		...(how.endless ? {} : { 'content-length': String(bytes.length) }),
	});
	res.flushHeaders();
	whenCutShort(res, onCutShort);
	let offset = 0;
	const tick = () => {
		if (res.destroyed) return;
		if (offset < bytes.length) res.write(bytes.subarray(offset, ++offset));
		else if (how.endless) res.write(' ');
		else return void res.end();
		void sleep(how.intervalMs, undefined, { signal: stop }).then(tick, () => {});
	};
	tick();
}

/** One gzip member of 1 MiB of spaces (about 1 KiB compressed), built once. @type {Buffer|null} */
let spacesMember = null;

/**
 * A gzip bomb that is valid JSON once inflated: `[`, `inflatedMiB` MiB of spaces, `]`, as concatenated gzip members
 * (about 1 KiB on the wire per MiB inflated; with `endless`, until the client goes away), written with backpressure.
 * @param {ServerResponse} res @param {{ inflatedMiB: number, endless: boolean }} how @param {() => void} onCutShort
 */
function sendGzipBomb(res, how, onCutShort) {
	const member = (spacesMember ??= zlib.gzipSync(Buffer.alloc(MIB, 0x20), { level: 9 }));
	res.writeHead(200, { 'content-type': JSON_TYPE, 'content-encoding': 'gzip' });
	whenCutShort(res, onCutShort);
	let written = 0;
	res.write(zlib.gzipSync(Buffer.from('[')));
	const pump = () => {
		while (!res.destroyed) {
			if (!how.endless && written >= how.inflatedMiB)
				return void res.end(zlib.gzipSync(Buffer.from(']')));
			written++;
			if (!res.write(member)) return void res.once('drain', pump);
		}
	};
	pump();
}

module.exports = {
	sendJson,
	sendRaw,
	sendError,
	errorBody,
	readObject,
	sendDripping,
	sendGzipBomb,
	JSON_TYPE,
};
