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

/** The value of each byte as a hex digit, -1 for bytes that are not one. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (const [digits, base] of [['0123456789', 0], ['abcdef', 10], ['ABCDEF', 10]] as const) {
	for (let i = 0; i < digits.length; i++) HEX_VALUE[digits.charCodeAt(i)] = base + i;
}

/** `+` → space, then percent-decoding (a `%` without two hex digits stays as it is), then strict UTF-8. */
function decodeComponent(bytes: Buffer): string | undefined {
	let decoded = bytes;
	if (bytes.includes(PLUS) || bytes.includes(PERCENT)) {
		decoded = Buffer.allocUnsafe(bytes.length);
		let length = 0;
		const last = bytes.length - 2;
		for (let i = 0; i < bytes.length; i++) {
			const byte = bytes[i];
			if (byte === PERCENT && i < last) {
				const high = HEX_VALUE[bytes[i + 1]];
				const low = HEX_VALUE[bytes[i + 2]];
				if (high !== -1 && low !== -1) {
					decoded[length++] = (high << 4) | low;
					i += 2;
					continue;
				}
			}
			decoded[length++] = byte === PLUS ? SPACE : byte;
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
