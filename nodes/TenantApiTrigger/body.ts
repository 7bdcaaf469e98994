/**
 * A verified delivery's bytes, read once in the Body Format the settings decide, never the one the
 * request names: Content-Type is not signed, so the same signed bytes must never be read another
 * way.
 */
import type { IDataObject } from 'n8n-workflow';

import { setOwn } from '../shared/ownProperty';

import { parseExactJson } from './exactJson';

export type BodyFormat = 'json' | 'form';

export type BodyFailure =
	| 'empty_body'
	| 'not_utf8'
	| 'invalid_json'
	| 'not_an_object'
	| 'invalid_form'
	| 'internal_error';

type BodyReading = { ok: true; object: IDataObject } | { ok: false; reason: BodyFailure };

/** Most fields a form body may have. */
const MAX_FORM_FIELDS = 1000;

/** JSON and form fields are UTF-8; a leading byte order mark is dropped. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether a request's media type fits the format. JSON: `application/json`, `+json` types,
 * `text/plain` and none (senders that label JSON loosely); form:
 * `application/x-www-form-urlencoded` only.
 */
export function mediaTypeFits(format: BodyFormat, type: string): boolean {
	if (format === 'form') return type === 'application/x-www-form-urlencoded';
	return (
		type === '' || type === 'application/json' || type.endsWith('+json') || type === 'text/plain'
	);
}

function readJson(text: string): BodyReading {
	let parsed: unknown;
	try {
		parsed = parseExactJson(text);
	} catch (error) {
		// Only a syntax error says the text is not JSON; any other (out of stack or memory) is ours.
		return { ok: false, reason: error instanceof SyntaxError ? 'invalid_json' : 'internal_error' };
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
		return { ok: false, reason: 'not_an_object' };
	return { ok: true, object: parsed as IDataObject };
}

/** One form field's name or value: `+` is a space, and a percent-escape must be UTF-8. */
function formText(text: string): string | undefined {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return undefined;
	}
}

/**
 * Form fields: one value as text, a repeated name as a list of texts. Empty segments (`a=1&&b=2`)
 * are skipped.
 */
function readForm(text: string): BodyReading {
	const fields = text.split('&').filter((field) => field !== '');
	if (fields.length === 0) return { ok: false, reason: 'empty_body' };
	if (fields.length > MAX_FORM_FIELDS) return { ok: false, reason: 'invalid_form' };
	const object: IDataObject = {};
	for (const field of fields) {
		const at = field.indexOf('=');
		const name = formText(at === -1 ? field : field.slice(0, at));
		const value = formText(at === -1 ? '' : field.slice(at + 1));
		if (name === undefined || name === '' || value === undefined)
			return { ok: false, reason: 'invalid_form' };
		const earlier = Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
		const values = earlier === undefined ? value : [earlier, value].flat();
		setOwn(object, name, values);
	}
	return { ok: true, object };
}

/** The body as the workflow gets it, or why it cannot be read in `format`. */
export function readBody(format: BodyFormat, rawBody: Buffer): BodyReading {
	let text: string;
	try {
		text = STRICT_UTF8.decode(rawBody);
	} catch {
		return { ok: false, reason: 'not_utf8' };
	}
	if (text.trim() === '') return { ok: false, reason: 'empty_body' };
	return format === 'form' ? readForm(text) : readJson(text);
}
