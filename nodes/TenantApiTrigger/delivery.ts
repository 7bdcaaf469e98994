import type { IDataObject } from 'n8n-workflow';

import type { HeaderBag } from './verification';

export type BodyParseResult =
	| { ok: true; body: IDataObject }
	| { ok: false; reason: 'empty_body' | 'not_utf8' | 'invalid_json' | 'not_an_object' };

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Buffer): string | undefined {
	try {
		return STRICT_UTF8.decode(bytes);
	} catch {
		return undefined;
	}
}

/** Parses the verified raw bytes as UTF-8 JSON; the output is built from these bytes, not from n8n's parsed body. */
export function parseJsonBody(rawBody: Buffer): BodyParseResult {
	// JSON is UTF-8 (RFC 8259): bytes that are not would silently turn into U+FFFD in the output.
	let text = decodeUtf8(rawBody);
	if (text === undefined) return { ok: false, reason: 'not_utf8' };
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	if (text.trim() === '') return { ok: false, reason: 'empty_body' };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { ok: false, reason: 'invalid_json' };
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, reason: 'not_an_object' };
	return { ok: true, body: parsed as IDataObject };
}

/** Reads a dot path (`data.object.type`); a key containing dots can be reached as a whole first. */
export function valueAtPath(body: IDataObject, path: string): unknown {
	const trimmed = path.trim();
	if (trimmed === '') return undefined;
	if (Object.prototype.hasOwnProperty.call(body, trimmed)) return body[trimmed];
	let current: unknown = body;
	for (const key of trimmed.split('.')) {
		if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
		if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
		current = (current as IDataObject)[key];
	}
	return current;
}

export const DEFAULT_EVENT_PATH = 'event';
export const FALLBACK_EVENT_PATH = 'type';

/** The event type at `eventPath`, else at `type`; undefined when neither is a non-empty string. */
export function eventType(body: IDataObject, eventPath: string): string | undefined {
	for (const path of [eventPath || DEFAULT_EVENT_PATH, FALLBACK_EVENT_PATH]) {
		const value = valueAtPath(body, path);
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	}
	return undefined;
}

/** Accepted event types from free text: comma or newline separated, blanks dropped. */
export function parseEventList(text: string | undefined): string[] {
	if (typeof text !== 'string') return [];
	return text
		.split(/[,\n\r]+/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/**
 * True when the delivery passes the filter. Empty list = everything. An entry ending in `*` matches by
 * prefix (`transfers.*`), `*` alone matches everything; otherwise the match is exact and case-sensitive.
 * A delivery without an event type passes only an empty filter or `*`.
 */
export function eventAccepted(accepted: string[], type: string | undefined): boolean {
	if (accepted.length === 0 || accepted.includes('*')) return true;
	if (type === undefined) return false;
	return accepted.some((entry) => (entry.endsWith('*') ? type.startsWith(entry.slice(0, -1)) : entry === type));
}

/** Headers never copied into the output: they can carry credentials. */
const ALWAYS_REDACTED = ['authorization', 'proxy-authorization', 'cookie'];

/** A copy of the headers without credential-bearing ones (and without the secret-in-header header). */
export function safeHeaders(headers: HeaderBag, extraRedacted: string[]): IDataObject {
	const redacted = new Set([...ALWAYS_REDACTED, ...extraRedacted.map((h) => h.trim().toLowerCase()).filter((h) => h !== '')]);
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(headers)) {
		if (value === undefined || redacted.has(key.toLowerCase())) continue;
		out[key] = value;
	}
	return out;
}
