import type { IDataObject } from 'n8n-workflow';

import { setOwn } from '../shared/ownProperty';
import { holdsSpelling, secretSpellings } from '../shared/secretSpellings';

/**
 * Request headers as n8n hands them over (names in lower case; repeated ones joined or in a list).
 */
export type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * The header names of a setting that may list several, separated by commas (lower case, blanks
 * dropped).
 */
export function headerNames(names: string): string[] {
	return names
		.split(',')
		.map((name) => name.trim().toLowerCase())
		.filter((name) => name !== '');
}

/**
 * Case-insensitive header lookup. `names` may list alternatives separated by commas: the first one
 * present wins. Repeated headers are joined with ', ' the way Node joins them.
 */
export function headerValue(headers: HeaderBag, names: string): string | undefined {
	for (const wanted of headerNames(names)) {
		for (const [key, value] of Object.entries(headers)) {
			if (key.toLowerCase() !== wanted || value === undefined) continue;
			return Array.isArray(value) ? value.join(', ') : String(value);
		}
	}
	return undefined;
}

/** The header name of `names` that is present, else the first one. */
export function presentHeader(headers: HeaderBag, names: string): string {
	const all = headerNames(names);
	return all.find((name) => headerValue(headers, name) !== undefined) ?? all[0] ?? '';
}

/**
 * Lower-case media type without parameters (`application/json; charset=utf-8` →
 * `application/json`).
 */
export function mediaType(headers: HeaderBag): string {
	const value = headerValue(headers, 'content-type');
	return value === undefined ? '' : value.split(';')[0].trim().toLowerCase();
}

/** A secret as it is used: trimmed text, or undefined when it is blank or not text. */
export function usableSecret(secret: unknown): string | undefined {
	const text = typeof secret === 'string' ? secret.trim() : '';
	return text === '' ? undefined : text;
}

/** The secrets that can be used (trimmed), blank and non-text entries left out. */
export function usableSecrets(secrets: unknown[]): string[] {
	return secrets.map(usableSecret).filter((secret): secret is string => secret !== undefined);
}

/** Headers never copied into the output: they can carry credentials. */
const ALWAYS_LEFT_OUT = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * Whether a name or value holds a spelling of one of the secrets (nodes/shared/secretSpellings.ts),
 * in any letter case: header names arrive in lower case, so a secret in a name (`X-Auth-<secret>`)
 * reaches the node case-folded.
 */
function holdsSecret(spellings: RegExp | undefined, texts: unknown[]): boolean {
	return texts.flatMap(leaves).some((text) => holdsSpelling(spellings, text));
}

/**
 * Every text in a value: itself, or the keys and leaves of a list or an object (a parsed query can
 * nest).
 */
function leaves(value: unknown): string[] {
	if (value === null || typeof value !== 'object') return [String(value)];
	return Object.entries(value).flatMap(([key, inner]) => [key, ...leaves(inner)]);
}

/**
 * The request headers without those that can carry credentials: `secretHeaders`, and any holding a
 * secret in any spelling.
 */
export function unsignedHeaders(
	headers: HeaderBag,
	secretHeaders: string,
	secrets: unknown[],
): IDataObject {
	const leftOut = new Set([...ALWAYS_LEFT_OUT, ...headerNames(secretHeaders)]);
	const spellings = secretSpellings(usableSecrets(secrets));
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined || leftOut.has(name.toLowerCase())) continue;
		if (!holdsSecret(spellings, [name, value])) setOwn(out, name, value);
	}
	return out;
}

/** The query parameters without any that hold a secret in any spelling. */
export function unsignedQuery(query: IDataObject, secrets: unknown[]): IDataObject {
	const spellings = secretSpellings(usableSecrets(secrets));
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(query)) {
		if (!holdsSecret(spellings, [key, value])) setOwn(out, key, value);
	}
	return out;
}
