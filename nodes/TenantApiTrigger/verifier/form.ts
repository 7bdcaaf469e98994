/**
 * application/x-www-form-urlencoded bodies, read with the WHATWG URL Standard's urlencoded parser
 * (https://url.spec.whatwg.org/#urlencoded-parsing) on the raw bytes, with three refusals a sender never
 * needs: bytes that are not UTF-8 once decoded (the standard would turn them into U+FFFD, so two different
 * bodies would read alike), a field with an empty name, and more than MAX_FORM_FIELDS fields.
 *
 * One pass percent-decodes every name and value into one buffer, a separator after each; one strict UTF-8 decoding of
 * that buffer then gives every string at once (an ASCII separator ends any byte sequence, so the whole decodes if and
 * only if each part does), and each name and value is a slice of it. The native search finds each field's `&` and `=`
 * and copies the runs of bytes without `+` or `%`; bytes are looked at one by one only around escapes. Twilio's signed
 * order is sorted from the same bytes (fieldOrder.ts); the map of fields, which hashes every name, is made when asked.
 */

import type { FieldKeys } from './fieldOrder';
import { sortFields } from './fieldOrder';

/** Fields in order of appearance; a repeated name keeps every value in order. */
export type FormFields = Map<string, string[]>;

export type FormParseResult =
	| { ok: true; fields: FormFields }
	| { ok: false; reason: 'not_utf8' | 'invalid_form' };

export type FormReadResult =
	| { ok: true; form: FormReading }
	| { ok: false; reason: 'not_utf8' | 'invalid_form' };

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
for (const [digits, base] of [
	['0123456789', 0],
	['abcdef', 10],
	['ABCDEF', 10],
] as const) {
	for (let i = 0; i < digits.length; i++) HEX_VALUE[digits.charCodeAt(i)] = base + i;
}

/** The largest decoding buffer kept between reads (a 128 KiB form, its separators, and room). */
const KEPT_SCRATCH = 192 * 1024;
let scratch = Buffer.alloc(0);
/** How many reads used the kept buffer: a reading's bytes are still there while no later read used it. */
let scratchReads = 0;

/** Plain bytes in a row after which the rest of the run is found by the native search and copied at once. */
const LONG_RUN = 16;

/** Bytes decodeSpan looks at per call at most: a loop that runs long within one call is compiled on the fly, slower. */
const SPAN = 2048;

/** The names and values of a body percent-decoded into one buffer, a separator after each. */
class DecodedParts {
	readonly bytes: Buffer;

	/** Which read of the kept buffer this is (scratchReads), when it is in it. */
	readonly scratchRead?: number;

	length = 0;

	/** Per part: where it ends in `bytes` (where its separator is). */
	readonly ends: number[] = [];

	/** Where the next of each byte is at or after the last position asked (the body's length when none is). */
	private ampersand = -1;
	private equals = -1;
	private percent = -1;
	private plus = -1;

	constructor(private readonly body: Buffer) {
		// Decoding never lengthens a part; a separator follows each name and value.
		const size = body.length + 2 * MAX_FORM_FIELDS + 2;
		// One buffer kept for the sizes forms have before their signature is checked: a buffer per read would be
		// memory outside the heap that the collector is pressed to reclaim, request after request.
		if (size > KEPT_SCRATCH) this.bytes = Buffer.allocUnsafe(size);
		else {
			this.bytes = scratch.length >= size ? scratch : (scratch = Buffer.allocUnsafe(KEPT_SCRATCH));
			this.scratchRead = ++scratchReads;
		}
	}

	/** Where the field that starts at `from` ends (at its `&`, or the body's end). */
	fieldEnd(from: number): number {
		if (this.ampersand < from) this.ampersand = this.positionOf(AMPERSAND, from);
		return this.ampersand;
	}

	/** Where the name of the field that starts at `from` ends (at its `=`, or where the field ends). */
	nameEnd(from: number): number {
		if (this.equals < from) this.equals = this.positionOf(EQUALS, from);
		return Math.min(this.equals, this.fieldEnd(from));
	}

	/** Appends the part from `start` to `end` in the body, `+` and `%XX` decoded (a `%` without two hex digits stays). */
	append(start: number, end: number): void {
		let i = start;
		while (i < end) i = this.decodeSpan(i, Math.min(end, i + SPAN), end);
		this.ends.push(this.length);
		this.bytes[this.length++] = AMPERSAND;
	}

	/** The decoded text, or undefined when a part is not UTF-8. */
	text(): string | undefined {
		try {
			return STRICT_UTF8.decode(this.bytes.subarray(0, this.length));
		} catch {
			return undefined;
		}
	}

	/** append's loop up to `spanEnd`, or to the end of a long run of plain bytes: returns where it stopped. */
	private decodeSpan(start: number, spanEnd: number, end: number): number {
		const { body, bytes } = this;
		let length = this.length;
		let plain = 0;
		let i = start;
		while (i < spanEnd) {
			const byte = body[i];
			if (byte === PLUS) {
				bytes[length++] = SPACE;
				i++;
				plain = 0;
			} else if (byte === PERCENT) {
				const escaped =
					i + 2 < body.length && HEX_VALUE[body[i + 1]] !== -1 && HEX_VALUE[body[i + 2]] !== -1;
				bytes[length++] = escaped
					? (HEX_VALUE[body[i + 1]] << 4) | HEX_VALUE[body[i + 2]]
					: PERCENT;
				i += escaped ? 3 : 1;
				plain = 0;
			} else if (++plain < LONG_RUN) {
				bytes[length++] = byte;
				i++;
			} else {
				const runEnd = Math.min(end, this.nextEscape(i));
				length += body.copy(bytes, length, i, runEnd);
				i = runEnd;
				break;
			}
		}
		this.length = length;
		return i;
	}

	/** Where the next `+` or `%` at or after `from` is. */
	private nextEscape(from: number): number {
		if (this.percent < from) this.percent = this.positionOf(PERCENT, from);
		if (this.plus < from) this.plus = this.positionOf(PLUS, from);
		return Math.min(this.percent, this.plus);
	}

	private positionOf(byte: number, from: number): number {
		const at = this.body.indexOf(byte, from);
		return at === -1 ? this.body.length : at;
	}
}

/** Where each part of `parts` ends in `text`, its decoding: the same offsets as in its bytes when they are all ASCII. */
function endsInText(parts: DecodedParts, text: string): number[] {
	if (text.length === parts.length) return parts.ends;
	const { bytes } = parts;
	const ends: number[] = [];
	let units = 0;
	let i = 0;
	for (const end of parts.ends) {
		// A UTF-16 unit per sequence, two for a four-byte one (a continuation byte starts none).
		for (; i < end; i++) if ((bytes[i] & 0xc0) !== 0x80) units += bytes[i] >= 0xf0 ? 2 : 1;
		ends.push(units);
	}
	return ends;
}

/** Reads a form body: its fields, or why it cannot be read. */
export function readForm(body: Buffer): FormReadResult {
	const parts = new DecodedParts(body);
	let refused = false;
	let count = 0;
	for (let i = 0; i < body.length; ) {
		if (body[i] === AMPERSAND) {
			i++;
			continue;
		}
		if (++count > MAX_FORM_FIELDS) {
			refused = true;
			break;
		}
		const fieldEnd = parts.fieldEnd(i);
		const nameEnd = parts.nameEnd(i);
		parts.append(i, nameEnd);
		parts.append(Math.min(nameEnd + 1, fieldEnd), fieldEnd);
		if (nameEnd === i) {
			refused = true;
			break;
		}
		i = fieldEnd;
	}
	// In the order the standard reads: a field that is not UTF-8 before (or in) a refused one decides.
	const text = parts.text();
	if (text === undefined) return { ok: false, reason: 'not_utf8' };
	if (refused) return { ok: false, reason: 'invalid_form' };
	return { ok: true, form: new FormReading(text, endsInText(parts, text), parts) };
}

export function parseForm(body: Buffer): FormParseResult {
	const read = readForm(body);
	return read.ok ? { ok: true, fields: read.form.fields() } : read;
}

/**
 * A form body as read: every name and value decoded into one text, each followed by a separator, in order of
 * appearance. Checking a signature reads it in its signed order alone: the map of fields, which hashes every name, is
 * made when first asked for.
 */
export class FormReading {
	private made?: FormFields;

	/** `ends`: where each name and value (name, value, name, ...) ends in `text`; `decoded`: the same in its UTF-8 bytes. */
	constructor(
		private readonly text: string,
		private readonly ends: number[],
		private readonly decoded: { bytes: Uint8Array; ends: number[]; scratchRead?: number },
	) {}

	get size(): number {
		return this.ends.length / 2;
	}

	/** The fields in order of appearance; a repeated name keeps every value in order. */
	fields(): FormFields {
		if (this.made) return this.made;
		const fields: FormFields = new Map();
		for (let f = 0; f < this.size; f++) {
			const name = this.name(f);
			const value = this.value(f);
			const values = fields.get(name);
			if (values) values.push(value);
			else fields.set(name, [value]);
		}
		return (this.made = fields);
	}

	/**
	 * Twilio's rule: names sorted, each name followed by its value, a repeated name's values sorted; as one string.
	 * Undefined when a name=value pair repeats: the sender signs each distinct value once, so a copy would be unsigned data.
	 */
	inSignedOrder(): string | undefined {
		const keys = fieldKeys(this.decodedBytes(), this.decoded.ends);
		const { order, shared } = sortFields(keys);
		const parts: string[] = [];
		for (let k = 0; k < order.length; k++) {
			const length = keys.ends[order[k]] - keys.starts[order[k]];
			if (
				k > 0 &&
				shared[k] === length &&
				keys.ends[order[k - 1]] - keys.starts[order[k - 1]] === length
			)
				return undefined;
			parts.push(this.name(order[k]), this.value(order[k]));
		}
		return parts.join('');
	}

	/** The UTF-8 bytes of the text: still in the kept buffer unless a later read used it, else encoded again. */
	private decodedBytes(): Uint8Array {
		const { bytes, scratchRead } = this.decoded;
		return scratchRead === undefined || scratchRead === scratchReads
			? bytes
			: Buffer.from(this.text);
	}

	private name(f: number): string {
		return this.text.slice(f === 0 ? 0 : this.ends[2 * f - 1] + 1, this.ends[2 * f]);
	}

	private value(f: number): string {
		return this.text.slice(this.ends[2 * f] + 1, this.ends[2 * f + 1]);
	}
}

/** The keys of the fields whose parts (name, value, name, ...) end at `ends` in `bytes`, each followed by a separator. */
function fieldKeys(bytes: Uint8Array, ends: number[]): FieldKeys {
	const count = ends.length / 2;
	const keys = {
		bytes,
		words: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
		starts: new Int32Array(count),
		separators: new Int32Array(count),
		ends: new Int32Array(count),
	};
	for (let f = 0; f < count; f++) {
		keys.starts[f] = f === 0 ? 0 : ends[2 * f - 1] + 1;
		keys.separators[f] = ends[2 * f];
		keys.ends[f] = ends[2 * f + 1];
	}
	return keys;
}
