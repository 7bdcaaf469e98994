/**
 * Keeps the Secret Key out of everything the node shows: output items, error messages and details.
 * An API may echo the key back (a debug field, a URL it built, an error page); it is replaced by
 * `[redacted]` in the forms it travels in: plain, inside a JSON string, and URL-encoded.
 */

import { setOwn } from '../../shared/ownProperty';

export const REDACTED = '[redacted]';

/** Shorter values would match ordinary text; the credential never holds such a key in practice. */
const MIN_SECRET_LENGTH = 4;

/**
 * How the secret can appear in text: plain, JSON-escaped (with or without `\/`), URL-encoded.
 * Longest first.
 */
export function secretForms(secret: string | undefined): string[] {
	if (!secret || secret.length < MIN_SECRET_LENGTH) return [];
	const jsonEscaped = JSON.stringify(secret).slice(1, -1);
	const urlEncoded = encodeURIComponent(secret);
	const forms = new Set([
		secret,
		jsonEscaped,
		jsonEscaped.replace(/\//g, '\\/'),
		urlEncoded,
		urlEncoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
	]);
	return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every form of the secret in `text`; a plain substring search per form, so it is cheap.
 */
export function redactText(text: string, forms: string[]): string {
	let result = text;
	for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
	return result;
}

/**
 * Redacts every string and key of a parsed JSON value in place. Iterative, so any nesting depth is
 * fine. Only needed when the JSON text could hide the secret behind `\u` escapes: the text-level
 * redaction catches every other form before parsing.
 */
export function redactParsed(value: unknown, forms: string[]): unknown {
	if (forms.length === 0) return value;
	if (typeof value === 'string') return redactText(value, forms);
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const current = pending.pop();
		if (!current || typeof current !== 'object') continue;
		const record = current as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			const child = record[key];
			const safeKey = redactText(key, forms);
			const safeChild = typeof child === 'string' ? redactText(child, forms) : child;
			if (safeKey !== key) delete record[key];
			if (safeKey !== key || safeChild !== child) setOwn(record, safeKey, safeChild);
			if (safeChild && typeof safeChild === 'object') pending.push(safeChild);
		}
	}
	return value;
}
