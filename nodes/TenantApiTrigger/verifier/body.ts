import type { IDataObject } from 'n8n-workflow';

import { setOwn } from '../../shared/ownProperty';

import type { FormFields, FormReading } from './form';
import { readForm } from './form';
import type { SignedItemFields } from './firstItem';
import { makeNumbersExact, numbersAllExact } from './json';

/**
 * How a delivery's bytes are read. The configuration decides, never the request: Content-Type is not signed, so
 * a signed JSON body sent again as a form would otherwise be read as other data under the same signature.
 */
export type BodyFormat = 'json' | 'form';

/** A body read once: the output object, and for forms the fields as sent (what `{formFields}` signs). */
export type ParsedBody =
	| { format: 'json'; object: IDataObject }
	| { format: 'form'; object: IDataObject; fields: FormFields; form: FormReading };

export type BodyFailure =
	| 'empty_body'
	| 'not_utf8'
	| 'invalid_json'
	| 'not_an_object'
	| 'invalid_form';

export type BodyParseResult = { ok: true; body: ParsedBody } | { ok: false; reason: BodyFailure };

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Lower-case media type without parameters (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(contentType: unknown): string {
	const value = Array.isArray(contentType) ? contentType[0] : contentType;
	return typeof value === 'string' ? value.split(';')[0].trim().toLowerCase() : '';
}

/**
 * Whether a request's media type agrees with the format the trigger reads. JSON: `application/json`, `+json`
 * types, `text/plain` and none (senders that label JSON loosely); form: `application/x-www-form-urlencoded` only.
 */
export function mediaTypeFits(format: BodyFormat, type: string): boolean {
	if (format === 'form') return type === 'application/x-www-form-urlencoded';
	return (
		type === '' || type === 'application/json' || type.endsWith('+json') || type === 'text/plain'
	);
}

/** The bytes after a leading UTF-8 byte order mark, which the decoder drops too. */
function withoutByteOrderMark(bytes: Buffer): Buffer {
	return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

/** A UTF-8 JSON object (RFC 8259: JSON is UTF-8; a leading BOM is tolerated), its numbers unchanged (json.ts). */
function parseJson(rawBody: Buffer, exactAt?: SignedItemFields): BodyParseResult {
	let text: string;
	try {
		text = STRICT_UTF8.decode(rawBody);
	} catch {
		return { ok: false, reason: 'not_utf8' };
	}
	if (text.trim() === '') return { ok: false, reason: 'empty_body' };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { ok: false, reason: 'invalid_json' };
	}
	if (exactAt === undefined) parsed = makeNumbersExact(parsed, withoutByteOrderMark(rawBody), text);
	else if (exactAt.firstItemHasNumbers(parsed))
		parsed = makeNumbersExact(parsed, withoutByteOrderMark(rawBody), text, exactAt.paths);
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
		return { ok: false, reason: 'not_an_object' };
	return { ok: true, body: { format: 'json', object: parsed as IDataObject } };
}

/** Form fields as an output object: one value as a string, a repeated name as an array of strings. */
function formObject(fields: FormFields): IDataObject {
	const object: IDataObject = {};
	for (const [name, values] of fields) {
		const value = values.length === 1 ? values[0] : values;
		// Each name once: assignment makes an own property, but for __proto__ (whose setter it would call).
		if (name === '__proto__') setOwn(object, name, value);
		else object[name] = value;
	}
	return object;
}

/**
 * A form body whose fields and output object are made when first read: checking a signature reads the fields in their
 * signed order alone, and a request refused then never pays for hashing each name, nor for a property per name (names
 * the sender chose, each new to the engine).
 */
function formBody(form: FormReading): ParsedBody {
	let object: IDataObject | undefined;
	const body = { format: 'form' as const, form };
	Object.defineProperty(body, 'fields', { enumerable: true, get: () => form.fields() });
	return Object.defineProperty(body, 'object', {
		enumerable: true,
		get: () => (object ??= formObject(form.fields())),
	}) as typeof body & { object: IDataObject; fields: FormFields };
}

function parseFormBody(rawBody: Buffer): BodyParseResult {
	const read = readForm(rawBody);
	if (!read.ok) return read;
	if (read.form.size === 0) return { ok: false, reason: 'empty_body' };
	return { ok: true, body: formBody(read.form) };
}

/**
 * The one reading of a delivery's bytes in the configured format. With `exactAt` (JSON), numbers are exact only in the
 * first item's signed fields until completeReading: what checking signed items reads first, so that a body nobody
 * signed costs little.
 */
export function parseBody(
	format: BodyFormat,
	rawBody: Buffer,
	exactAt?: SignedItemFields,
): BodyParseResult {
	return format === 'form' ? parseFormBody(rawBody) : parseJson(rawBody, exactAt);
}

/** Makes every number of a body read with `exactAt` exact (parseBody), once the signature that needed it holds. */
export function completeReading(body: ParsedBody, rawBody: Buffer): void {
	if (body.format === 'json' && !numbersAllExact(body.object))
		makeNumbersExact(body.object, withoutByteOrderMark(rawBody), undefined);
}
