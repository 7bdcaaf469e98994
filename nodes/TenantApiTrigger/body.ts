import type { IDataObject } from 'n8n-workflow';

/** The body kinds the trigger outputs; any other content type is answered 415 after verification. */
export type BodyKind = 'json' | 'form';

export type BodyParseResult =
	| { ok: true; body: IDataObject }
	| { ok: false; reason: 'empty_body' | 'not_utf8' | 'invalid_json' | 'not_an_object' | 'invalid_form' };

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Form fields above this count are refused (n8n's own form parser stops at 1,000 as well). */
export const MAX_FORM_FIELDS = 1000;

function decodeUtf8(bytes: Buffer): string | undefined {
	try {
		return STRICT_UTF8.decode(bytes);
	} catch {
		return undefined;
	}
}

/** Lower-case media type without parameters (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(contentType: unknown): string {
	const value = Array.isArray(contentType) ? contentType[0] : contentType;
	return typeof value === 'string' ? value.split(';')[0].trim().toLowerCase() : '';
}

/**
 * Which parser a content type gets. No content type, JSON (`application/json`, `+json`) and `text/plain` are read
 * as JSON (JSON stays the default); `application/x-www-form-urlencoded` as form fields; anything else is not read.
 */
export function bodyKind(type: string): BodyKind | undefined {
	if (type === '' || type === 'application/json' || type.endsWith('+json') || type === 'text/plain') return 'json';
	if (type === 'application/x-www-form-urlencoded') return 'form';
	return undefined;
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

/** A run of percent-encoded bytes (`%C3%A9%20`). A `%` without two hex digits is not part of one and stays as it is. */
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** One run of escaped bytes as UTF-8 text; bytes that are not UTF-8 become U+FFFD, as URLSearchParams has them. */
function decodeRun(run: string): string {
	try {
		return decodeURIComponent(run);
	} catch {
		return Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8');
	}
}

/**
 * One form component decoded exactly as URLSearchParams decodes it (`+` is a space, then percent-decoding). Only
 * the escaped runs are decoded: decodeURIComponent over a whole large field is several times slower.
 */
function decodeFormComponent(text: string): string {
	const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
	return spaced.includes('%') ? spaced.replace(PERCENT_RUN, decodeRun) : spaced;
}

/**
 * Form fields in order of appearance; a repeated name keeps every value. Same result as URLSearchParams, several
 * times faster on large fields. Undefined when not UTF-8 or more than MAX_FORM_FIELDS fields.
 */
export function formFields(rawBody: Buffer): Map<string, string[]> | undefined {
	const text = decodeUtf8(rawBody);
	if (text === undefined) return undefined;
	const fields = new Map<string, string[]>();
	let count = 0;
	for (const pair of text.split('&')) {
		if (pair === '') continue;
		if (++count > MAX_FORM_FIELDS) return undefined;
		const at = pair.indexOf('=');
		const name = decodeFormComponent(at === -1 ? pair : pair.slice(0, at));
		const value = at === -1 ? '' : decodeFormComponent(pair.slice(at + 1));
		const values = fields.get(name);
		if (values) values.push(value);
		else fields.set(name, [value]);
	}
	return fields;
}

/** Form fields as an output object: one value as a string, a repeated name as an array of strings. */
export function parseFormBody(rawBody: Buffer): BodyParseResult {
	const fields = formFields(rawBody);
	if (fields === undefined) return { ok: false, reason: decodeUtf8(rawBody) === undefined ? 'not_utf8' : 'invalid_form' };
	if (fields.size === 0) return { ok: false, reason: 'empty_body' };
	const body: IDataObject = {};
	for (const [name, values] of fields) {
		// defineProperty: a field named __proto__ must stay a plain field.
		Object.defineProperty(body, name, { value: values.length === 1 ? values[0] : values, enumerable: true, writable: true, configurable: true });
	}
	return { ok: true, body };
}

export function parseBody(kind: BodyKind, rawBody: Buffer): BodyParseResult {
	return kind === 'form' ? parseFormBody(rawBody) : parseJsonBody(rawBody);
}

function child(current: unknown, key: string): unknown {
	if (Array.isArray(current)) return /^\d+$/.test(key) ? current[Number(key)] : undefined;
	if (current === null || typeof current !== 'object') return undefined;
	return Object.prototype.hasOwnProperty.call(current, key) ? (current as IDataObject)[key] : undefined;
}

/** Reads a dot path (`data.object.type`, `items.0.id`); a key containing dots can be reached as a whole first. */
export function valueAtPath(body: unknown, path: string): unknown {
	const trimmed = path.trim();
	if (trimmed === '') return undefined;
	const whole = child(body, trimmed);
	if (whole !== undefined) return whole;
	let current: unknown = body;
	for (const key of trimmed.split('.')) {
		current = child(current, key);
		if (current === undefined) return undefined;
	}
	return current;
}

/** Every value a path with `*` segments reaches (`notificationItems.*.NotificationRequestItem`). */
export function valuesAtPath(body: unknown, path: string): unknown[] {
	let current: unknown[] = [body];
	for (const key of path.trim().split('.')) {
		current = current.flatMap((value) => (key === '*' ? (Array.isArray(value) ? value : []) : [child(value, key)]));
		current = current.filter((value) => value !== undefined);
	}
	return current;
}
