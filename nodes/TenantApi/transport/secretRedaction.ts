/**
 * Keeps the Secret Key out of everything the node shows: output items, error messages and details.
 * An API may echo the key back (a debug field, a URL it built, an error page, request headers);
 * every spelling of it (nodes/shared/secretSpellings.ts) is replaced by `[redacted]`.
 */

import { setOwn } from '../../shared/ownProperty';
import { secretSpellings } from '../../shared/secretSpellings';

export const REDACTED = '[redacted]';

/** Shorter values would match ordinary text; the credential never holds such a key in practice. */
const MIN_SECRET_LENGTH = 4;

/** The spellings of the Secret Key; none for a missing or too short key (nothing to find). */
export function keySpellings(secret: string | undefined): RegExp | undefined {
	return secret && secret.length >= MIN_SECRET_LENGTH ? secretSpellings([secret]) : undefined;
}

/** Replaces every spelling in `text`: one search of the text. */
export function redactText(text: string, spellings: RegExp | undefined): string {
	return spellings === undefined ? text : text.replace(spellings, REDACTED);
}

/**
 * Redacts every string and key of a parsed JSON value in place. Iterative, so any nesting depth is
 * fine. Only needed when the JSON text could hide the secret behind `\u` escapes: the text-level
 * redaction catches every other spelling before parsing.
 */
export function redactParsed(value: unknown, spellings: RegExp | undefined): unknown {
	if (spellings === undefined) return value;
	if (typeof value === 'string') return redactText(value, spellings);
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const current = pending.pop();
		if (!current || typeof current !== 'object') continue;
		const record = current as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			const child = record[key];
			const safeKey = redactText(key, spellings);
			const safeChild = typeof child === 'string' ? redactText(child, spellings) : child;
			if (safeKey !== key) delete record[key];
			if (safeKey !== key || safeChild !== child) setOwn(record, safeKey, safeChild);
			if (safeChild && typeof safeChild === 'object') pending.push(safeChild);
		}
	}
	return value;
}
