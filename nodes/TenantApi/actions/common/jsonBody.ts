import type { IDataObject } from 'n8n-workflow';

import { kindOf } from '../../../shared/kindOf';

/** Deeper bodies are surely a mistake; parsing or serialising them can overflow the stack. */
const MAX_BODY_DEPTH = 100;

function tooDeep(): Error {
	return new Error(
		`The Body is nested more than ${MAX_BODY_DEPTH} levels deep; that many levels are almost certainly a mistake`,
	);
}

/** Nesting depth of JSON text, counted on the characters (no parsing, no recursion). */
function jsonTextDepth(text: string): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (inString) {
			if (char === '\\') i++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
		else if (char === '}' || char === ']') depth--;
	}
	return deepest;
}

/** Nesting depth of a value, without recursion; stops counting once `limit` is passed. */
function valueDepth(value: unknown, limit = MAX_BODY_DEPTH): number {
	let deepest = 0;
	const pending: Array<[unknown, number]> = [[value, 1]];
	while (pending.length > 0) {
		const [current, depth] = pending.pop()!;
		if (!current || typeof current !== 'object') continue;
		deepest = Math.max(deepest, depth);
		if (deepest > limit) return deepest;
		for (const child of Object.values(current as object)) pending.push([child, depth + 1]);
	}
	return deepest;
}

/** The Body parameter: a JSON object, given as text or (from an expression) as an object. */
export function parseJsonObjectBody(value: unknown): IDataObject {
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return {};
		if (jsonTextDepth(value) > MAX_BODY_DEPTH) throw tooDeep();
		let syntaxError: string | undefined;
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			syntaxError = (error as Error).message;
		}
		if (syntaxError !== undefined) throw new Error(`The Body is not valid JSON: ${syntaxError}`);
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
		throw new Error(`The Body must be a JSON object ({ ... }), not ${kindOf(parsed)}`);
	if (typeof value !== 'string' && valueDepth(parsed) > MAX_BODY_DEPTH) throw tooDeep();
	return parsed as IDataObject;
}

/**
 * Output json for a successful answer. n8n treats an output item with a top-level `error` field as
 * a failure (Retry On Fail re-runs the node), so a success body never keeps that name.
 */
export function toOutputJson(body: unknown): IDataObject {
	if (body === undefined) return {};
	if (!body || typeof body !== 'object' || Array.isArray(body))
		return { data: body as IDataObject };
	const record = body as IDataObject;
	if (!('error' in record)) return record;
	const { error, ...rest } = record;
	return { ...rest, apiError: error };
}
