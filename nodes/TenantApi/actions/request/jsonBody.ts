import type { IDataObject } from 'n8n-workflow';

/** The Body parameter: a JSON object, given as text or (from an expression) as an object. */
export function parseJsonObjectBody(value: unknown): IDataObject {
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return {};
		let syntaxError: string | undefined;
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			syntaxError = (error as Error).message;
		}
		if (syntaxError !== undefined) throw new Error(`The Body is not valid JSON: ${syntaxError}`);
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		const kind = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`;
		throw new Error(`The Body must be a JSON object ({ ... }), not ${kind}`);
	}
	return parsed as IDataObject;
}

/**
 * Output json for a successful answer. n8n treats an output item with a top-level `error` field as a
 * failure (Retry On Fail re-runs the node), so a success body never keeps that name.
 */
export function toOutputJson(body: unknown): IDataObject {
	if (body === undefined) return {};
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { data: body as IDataObject };
	const record = body as IDataObject;
	if (!('error' in record)) return record;
	const { error, ...rest } = record;
	return { ...rest, apiError: error };
}
