/**
 * application/x-www-form-urlencoded bodies, read with the WHATWG URL Standard's urlencoded parser
 * (https://url.spec.whatwg.org/#urlencoded-parsing) on the raw bytes, with three refusals a sender never
 * needs: bytes that are not UTF-8 once decoded (the standard would turn them into U+FFFD, so two different
 * bodies would read alike), a field with an empty name, and more than MAX_FORM_FIELDS fields.
 *
 * One pass over the bytes percent-decodes every name and value into one buffer, a separator after each; one strict
 * UTF-8 decoding of that buffer then gives every string at once (an ASCII separator ends any byte sequence, so the
 * whole decodes if and only if each part does), and each name and value is a slice of it.
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

/** Per byte: whether it ends a name (`&`, `=`) or a value (`&`), or must be decoded (`+`, `%`). */
const ENDS_NAME = 1;
const ENDS_VALUE = 2;
const DECODED = 4;
const BYTE_ROLE = new Uint8Array(256);
BYTE_ROLE[AMPERSAND] = ENDS_NAME | ENDS_VALUE;
BYTE_ROLE[EQUALS] = ENDS_NAME;
BYTE_ROLE[PLUS] = DECODED;
BYTE_ROLE[PERCENT] = DECODED;

/** The largest decoding buffer kept between reads (a 128 KiB form, its separators, and room). */
const KEPT_SCRATCH = 192 * 1024;
let scratch = Buffer.alloc(0);

/** The names and values of a body percent-decoded into one buffer, with where each starts in its decoded text. */
class DecodedParts {
	readonly bytes: Buffer;

	length = 0;

	/** UTF-16 length of what was written so far, were it valid UTF-8 (checked once, on the whole). */
	characters = 0;

	/** Per part: where it starts and ends in the decoded text (pairs of entries). */
	readonly bounds: number[] = [];

	constructor(size: number) {
		// One buffer kept for the sizes forms have before their signature is checked: reading is synchronous.
		if (size > KEPT_SCRATCH) this.bytes = Buffer.allocUnsafe(size);
		else this.bytes = scratch.length >= size ? scratch : (scratch = Buffer.allocUnsafe(KEPT_SCRATCH));
	}

	/**
	 * Appends the part that starts at `start` in `body` and ends before the first byte `ends` marks, `+` and `%XX`
	 * decoded (a `%` without two hex digits stays as it is), then a separator; returns where the part ended.
	 */
	append(body: Buffer, start: number, ends: number): number {
		this.bounds.push(this.characters);
		const end = decodePart(body, start, ends, this);
		this.bounds.push(this.characters);
		this.bytes[this.length++] = AMPERSAND;
		this.characters++;
		return end;
	}

	/** The decoded text, or undefined when a part is not UTF-8. */
	text(): string | undefined {
		try {
			return STRICT_UTF8.decode(this.bytes.subarray(0, this.length));
		} catch {
			return undefined;
		}
	}
}

/**
 * DecodedParts.append's loop: copies the part at `start` into `parts`, decoded; returns where it ended. A long part is
 * copied a span at a time: a loop that runs this long within one call would be compiled on the fly, into slower code.
 */
function decodePart(body: Buffer, start: number, ends: number, parts: DecodedParts): number {
	let i = start;
	for (;;) {
		const spanEnd = Math.min(body.length, i + SPAN);
		i = decodeSpan(body, i, spanEnd, ends, parts);
		if (i < spanEnd || i >= body.length) return i;
	}
}

/** Bytes decodeSpan copies per call at most (plus an escape's two digits). */
const SPAN = 2048;

/** decodePart up to `end`: returns where the part ended, or `end` (or just past it, after an escape). */
function decodeSpan(body: Buffer, start: number, end: number, ends: number, parts: DecodedParts): number {
	const out = parts.bytes;
	let length = parts.length;
	let characters = parts.characters;
	let i = start;
	for (; i < end; i++) {
		let byte = body[i];
		const role = BYTE_ROLE[byte];
		if ((role & ends) !== 0) break;
		if (role === DECODED) {
			if (byte === PLUS) byte = SPACE;
			else if (i + 2 < body.length && HEX_VALUE[body[i + 1]] !== -1 && HEX_VALUE[body[i + 2]] !== -1) {
				byte = (HEX_VALUE[body[i + 1]] << 4) | HEX_VALUE[body[i + 2]];
				i += 2;
			}
		}
		out[length++] = byte;
		// A UTF-16 unit per sequence, two for a four-byte one (a continuation byte starts none).
		if ((byte & 0xc0) !== 0x80) characters += byte >= 0xf0 ? 2 : 1;
	}
	parts.length = length;
	parts.characters = characters;
	return i;
}

export function parseForm(body: Buffer): FormParseResult {
	// Decoding never lengthens a part; a separator follows each name and value.
	const parts = new DecodedParts(body.length + 2 * MAX_FORM_FIELDS + 2);
	let refused = false;
	let count = 0;
	for (let i = 0; i < body.length; i++) {
		if (body[i] === AMPERSAND) continue;
		if (++count > MAX_FORM_FIELDS) {
			refused = true;
			break;
		}
		const nameEnd = parts.append(body, i, ENDS_NAME);
		const named = nameEnd > i;
		i = body[nameEnd] === EQUALS ? parts.append(body, nameEnd + 1, ENDS_VALUE) : parts.append(body, nameEnd, ENDS_VALUE);
		if (!named) {
			refused = true;
			break;
		}
	}
	// In the order the standard reads: a field that is not UTF-8 before (or in) a refused one decides.
	const text = parts.text();
	if (text === undefined) return { ok: false, reason: 'not_utf8' };
	if (refused) return { ok: false, reason: 'invalid_form' };
	const fields: FormFields = new Map();
	const { bounds } = parts;
	for (let p = 0; p < bounds.length; p += 4) {
		const name = text.slice(bounds[p], bounds[p + 1]);
		const value = text.slice(bounds[p + 2], bounds[p + 3]);
		const values = fields.get(name);
		if (values) values.push(value);
		else fields.set(name, [value]);
	}
	return { ok: true, fields };
}

/** Above this many code units shared by every string, sortedStrings compares them once rather than in every comparison. */
const LONG_SHARED = 16;

/**
 * `strings` in the order of Array.prototype.sort() (UTF-16 code units). The prefix they all share (that of the
 * smallest and the largest, found in one pass) is compared once: sorting a thousand values that share a long prefix
 * would otherwise compare it in each of its some ten thousand comparisons.
 */
export function sortedStrings(strings: string[]): string[] {
	if (strings.length < 2) return [...strings];
	let smallest = strings[0];
	let largest = strings[0];
	for (const text of strings) {
		if (text < smallest) smallest = text;
		else if (text > largest) largest = text;
	}
	let shared = 0;
	while (shared < smallest.length && smallest.charCodeAt(shared) === largest.charCodeAt(shared)) shared++;
	if (shared < LONG_SHARED) return [...strings].sort();
	// The strings themselves come back (a string rebuilt from two would be hashed and flattened anew where used).
	const byRest = new Map(strings.map((text) => [text.slice(shared), text]));
	return strings.map((text) => text.slice(shared)).sort().map((rest) => byRest.get(rest) as string);
}
