/**
 * application/x-www-form-urlencoded bodies, read with the WHATWG URL Standard's urlencoded parser
 * (https://url.spec.whatwg.org/#urlencoded-parsing) on the raw bytes, with three refusals a sender never
 * needs: bytes that are not UTF-8 once decoded (the standard would turn them into U+FFFD, so two different
 * bodies would read alike), a field with an empty name, and more than MAX_FORM_FIELDS fields.
 */

/** Fields in order of appearance; a repeated name keeps every value in order. */
export type FormFields = Map<string, string[]>;

export type FormParseResult = { ok: true; fields: FormFields } | { ok: false; reason: 'not_utf8' | 'invalid_form' };

/** Form fields above this count are refused (n8n's own form parser stops at 1,000 as well). */
export const MAX_FORM_FIELDS = 1000;

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;
const SPACE = 0x20;

/** ignoreBOM: the standard's "UTF-8 decode without BOM" keeps a leading U+FEFF as data. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function hexValue(byte: number): number {
	if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
	const lower = byte | 0x20;
	return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** `+` → space, then percent-decoding (a `%` without two hex digits stays as it is), then strict UTF-8. */
function decodeComponent(bytes: Buffer): string | undefined {
	let decoded = bytes;
	if (bytes.includes(PLUS) || bytes.includes(PERCENT)) {
		decoded = Buffer.allocUnsafe(bytes.length);
		let length = 0;
		for (let i = 0; i < bytes.length; i++) {
			const byte = bytes[i];
			const high = byte === PERCENT && i + 2 < bytes.length ? hexValue(bytes[i + 1]) : -1;
			const low = high === -1 ? -1 : hexValue(bytes[i + 2]);
			if (low !== -1) {
				decoded[length++] = high * 16 + low;
				i += 2;
			} else {
				decoded[length++] = byte === PLUS ? SPACE : byte;
			}
		}
		decoded = decoded.subarray(0, length);
	}
	try {
		return STRICT_UTF8.decode(decoded);
	} catch {
		return undefined;
	}
}

export function parseForm(body: Buffer): FormParseResult {
	const fields: FormFields = new Map();
	let count = 0;
	for (let start = 0; start <= body.length; ) {
		const found = body.indexOf(AMPERSAND, start);
		const end = found === -1 ? body.length : found;
		const pair = body.subarray(start, end);
		start = end + 1;
		if (pair.length === 0) continue;
		if (++count > MAX_FORM_FIELDS) return { ok: false, reason: 'invalid_form' };
		const at = pair.indexOf(EQUALS);
		const name = decodeComponent(at === -1 ? pair : pair.subarray(0, at));
		const value = at === -1 ? '' : decodeComponent(pair.subarray(at + 1));
		if (name === undefined || value === undefined) return { ok: false, reason: 'not_utf8' };
		if (name === '') return { ok: false, reason: 'invalid_form' };
		const values = fields.get(name);
		if (values) values.push(value);
		else fields.set(name, [value]);
	}
	return { ok: true, fields };
}
