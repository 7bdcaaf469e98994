import type { IDataObject } from 'n8n-workflow';

import { setOwn } from '../shared/ownProperty';
import { holdsSpelling, secretSpellings } from '../shared/secretSpellings';

/**
 * Request headers as n8n hands them over (names in lower case; repeated ones joined or in a list).
 */
export type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * The request's headers in one pass, by lower-case name: those of `names` (all without); the first
 * of a name wins, a repeated one joined with ', ' the way Node joins it.
 */
export function headerMap(headers: HeaderBag, names?: string[]): Map<string, string> {
	const wanted = names && new Set(names);
	const found = new Map<string, string>();
	for (const [key, value] of Object.entries(headers)) {
		const name = key.toLowerCase();
		if (value === undefined || found.has(name) || (wanted && !wanted.has(name))) continue;
		found.set(name, Array.isArray(value) ? value.join(', ') : String(value));
	}
	return found;
}

/**
 * Lower-case media type without parameters (`application/json; charset=utf-8` →
 * `application/json`).
 */
export function mediaType(headers: HeaderBag): string {
	const value = headerMap(headers, ['content-type']).get('content-type');
	return value === undefined ? '' : value.split(';')[0].trim().toLowerCase();
}

/** Headers never copied into the output: they can carry credentials. */
const ALWAYS_LEFT_OUT = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * Every text in a value: itself, or the keys and leaves of a list or an object (a parsed query can
 * nest).
 */
function leaves(value: unknown): string[] {
	if (value === null || typeof value !== 'object') return [String(value)];
	return Object.entries(value).flatMap(([key, inner]) => [key, ...leaves(inner)]);
}

/**
 * The entries of the request's headers or query but those `leftOut` (by lower-case name) and those
 * whose name or value holds a spelling of one of the secrets (nodes/shared/secretSpellings.ts), in
 * any letter case: header names arrive in lower case, so a secret in a name (`X-Auth-<secret>`)
 * reaches the node case-folded.
 */
function withoutSecrets(
	entries: Record<string, unknown>,
	secrets: string[],
	leftOut: string[] = [],
): IDataObject {
	const spellings = secretSpellings(secrets);
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(entries)) {
		if (value === undefined || leftOut.includes(name.toLowerCase())) continue;
		const texts = [name, value].flatMap(leaves);
		if (!texts.some((text) => holdsSpelling(spellings, text))) setOwn(out, name, value);
	}
	return out;
}

/** The request headers but those that can carry credentials: `secretHeaders`, any with a secret. */
export const unsignedHeaders = (headers: HeaderBag, secretHeaders: string[], secrets: string[]) =>
	withoutSecrets(headers, secrets, [...ALWAYS_LEFT_OUT, ...secretHeaders]);

/** The query parameters but any that hold a secret. */
export const unsignedQuery = (query: IDataObject, secrets: string[]) =>
	withoutSecrets(query, secrets);
