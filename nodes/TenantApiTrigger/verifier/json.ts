/**
 * JSON read without changing a number. JSON.parse turns every number into the nearest double, so a signed
 * `12345678901234567891` would reach the workflow as 12345678901234567000, and `1e400` as Infinity (null once n8n
 * stores it). Here a number is kept as its JSON text, a string, when its double does not print as the same decimal,
 * or when it is a whole number beyond Number.MAX_SAFE_INTEGER (2^53 - 1: next to one, other whole numbers read as
 * the same double, so the type of an id would depend on its value); every other value is JSON.parse's.
 *
 * JSON.parse reads the text once (and refuses what is not JSON at the platform's own cost). One pass over the bytes
 * (jsonScan.ts) then finds the number tokens that their digits do not show to read exactly (exactNumber.ts), and
 * where each sits; each is looked up where JSON.parse put it, checked against that double when its digits left it
 * undecided, and replaced by its text when it does not read exactly. No text is parsed twice.
 *
 * Before a signature is checked, only what checking it reads needs exact numbers: given paths, makeNumbersExact makes
 * those of the first item exact (firstItem.ts), and the rest once its signature holds.
 */

import { CHECK, EXACT, printsAsToken, readNumberToken } from './exactNumber';
import type { ExactPaths, ScannedTokens } from './jsonScan';
import {
	CONTAINER,
	CONTAINER_WIDTH,
	END,
	IS_OBJECT,
	JsonBytes,
	KEYS_END,
	KEYS_START,
	PARENT,
	SLOT,
	SLOT_IN_PARENT,
	START,
	TOKEN_WIDTH,
	scanNumberTokens,
} from './jsonScan';

const BACKSLASH = 0x5c;

type Container = Record<string, unknown> | unknown[];

/** Marks a container JSON.parse did not keep (inside an earlier entry of a repeated key), or not of the scanned kind. */
const NOT_KEPT = Symbol('not kept');

/** What JSON.parse built, looked up by the positions the scan found. */
class ParsedValue {
	/** Per container record: what JSON.parse made of it, NOT_KEPT, or undefined until looked up. */
	private readonly values: Array<Container | typeof NOT_KEPT | undefined> = [];

	/** Per object record: the last key position of each key (JSON.parse keeps that entry), null when no key repeats. */
	private readonly lastKeys: Array<Map<string, number> | null | undefined> = [];

	private latin1: string | undefined;

	private previousStart = -1;

	private previousEnd = -1;

	private previousText = '';

	constructor(
		private readonly json: JsonBytes,
		private readonly text: string | undefined,
		private readonly root: unknown,
		private readonly found: ScannedTokens,
	) {}

	/** The text of bytes [start, end), which hold no character beyond ASCII. */
	ascii(start: number, end: number): string {
		// A text of ASCII only has a character per byte; any other is read again a character per byte.
		this.latin1 ??=
			this.text?.length === this.json.bytes.length
				? this.text
				: Buffer.from(
						this.json.bytes.buffer,
						this.json.bytes.byteOffset,
						this.json.bytes.length,
					).toString('latin1');
		return this.latin1.slice(start, end);
	}

	/** The text of the number token bytes[start, end): the previous one's string when the bytes are the same. */
	tokenText(start: number, end: number): string {
		const { bytes } = this.json;
		const length = end - start;
		if (length === this.previousEnd - this.previousStart) {
			let same = true;
			for (let i = 0; i < length && same; i++)
				same = bytes[start + i] === bytes[this.previousStart + i];
			if (same) return this.previousText;
		}
		this.previousStart = start;
		this.previousEnd = end;
		this.previousText = this.ascii(start, end);
		return this.previousText;
	}

	/** The key whose opening quote is at `at`, as JSON.parse read it. */
	private keyText(at: number): string {
		const { bytes } = this.json;
		const end = this.json.stringEnd(at);
		let plain = true;
		for (let i = at + 1; i < end && plain; i++) plain = bytes[i] !== BACKSLASH && bytes[i] < 0x80;
		if (plain) return this.ascii(at + 1, end);
		return JSON.parse(
			Buffer.from(bytes.buffer, bytes.byteOffset + at, end + 1 - at).toString('utf8'),
		) as string;
	}

	/** The property of object record `object` at the key whose quote is at `key`; undefined for an entry JSON.parse replaced by a later one of the same key. */
	property(object: number, value: Record<string, unknown>, key: number): string | undefined {
		let lastKeys = this.lastKeys[object];
		if (lastKeys === undefined) {
			const { containers, keys } = this.found;
			const first = containers[object * CONTAINER_WIDTH + KEYS_START];
			const last = containers[object * CONTAINER_WIDTH + KEYS_END];
			lastKeys = last - first <= 1 || last - first === Object.keys(value).length ? null : new Map();
			for (let k = first; lastKeys !== null && k < last; k++)
				lastKeys.set(this.keyText(keys[k]), keys[k]);
			this.lastKeys[object] = lastKeys;
		}
		const name = this.keyText(key);
		return lastKeys === null || lastKeys.get(name) === key ? name : undefined;
	}

	/** What JSON.parse made of container record `container`. */
	valueOf(container: number): Container | typeof NOT_KEPT {
		const known = this.values[container];
		if (known !== undefined) return known;
		const records = this.found.containers;
		// The records from `container` up to the first known one (or the top), resolved from the top down.
		let count = 0;
		for (
			let c = container;
			c !== -1 && this.values[c] === undefined;
			c = records[c * CONTAINER_WIDTH + PARENT]
		)
			count++;
		const chain = new Int32Array(count);
		for (let c = container, n = 0; n < count; c = records[c * CONTAINER_WIDTH + PARENT])
			chain[n++] = c;
		for (let n = count - 1; n >= 0; n--) {
			const c = chain[n];
			const parent = records[c * CONTAINER_WIDTH + PARENT];
			const value =
				parent === -1
					? this.root
					: this.childOf(parent, records[c * CONTAINER_WIDTH + SLOT_IN_PARENT]);
			const fits =
				records[c * CONTAINER_WIDTH + IS_OBJECT] === 1
					? value !== null && typeof value === 'object' && !Array.isArray(value)
					: Array.isArray(value);
			this.values[c] = fits ? (value as Container) : NOT_KEPT;
		}
		return this.values[container] as Container | typeof NOT_KEPT;
	}

	/** The value at a slot of a container record whose value is known; undefined when JSON.parse did not keep it. */
	private childOf(container: number, slot: number): unknown {
		const value = this.values[container];
		if (value === NOT_KEPT || value === undefined) return undefined;
		if (Array.isArray(value)) return value[slot];
		const name = this.property(container, value, slot);
		return name === undefined ? undefined : value[name];
	}
}

/** Replaces token record `at` by its text where JSON.parse put it, unless it reads exactly (`check`: its double decides). */
function replaceToken(
	parsed: ParsedValue,
	json: JsonBytes,
	found: ScannedTokens,
	at: number,
	check: boolean,
): void {
	const { tokens } = found;
	const container = tokens[at + CONTAINER];
	const value = parsed.valueOf(container);
	if (value === NOT_KEPT) return;
	const slot = Array.isArray(value)
		? tokens[at + SLOT]
		: parsed.property(container, value, tokens[at + SLOT]);
	if (slot === undefined) return;
	const target = value as Record<string | number, unknown>;
	const start = tokens[at + START];
	const end = tokens[at + END];
	if (check) {
		const read = target[slot];
		if (typeof read === 'number' && printsAsToken(read, json.bytes, start, end)) return;
	}
	// An own, writable data property JSON.parse made (even one named __proto__): assignment only changes its value.
	target[slot] = parsed.tokenText(start, end);
}

/** Replaces each scanned token that does not read exactly by its text, where JSON.parse put it. Returns the root. */
function replaceTokens(
	parsed: ParsedValue,
	json: JsonBytes,
	found: ScannedTokens,
	root: unknown,
): unknown {
	const { tokens } = found;
	for (let at = 0; at < found.tokenCount * TOKEN_WIDTH; at += TOKEN_WIDTH) {
		const check = tokens[at + END] < 0;
		if (check) tokens[at + END] = ~tokens[at + END];
		if (tokens[at + CONTAINER] !== -1) {
			replaceToken(parsed, json, found, at, check);
			continue;
		}
		// The text is this number alone.
		const start = tokens[at + START];
		const end = tokens[at + END];
		return check && printsAsToken(root as number, json.bytes, start, end)
			? root
			: parsed.tokenText(start, end);
	}
	return root;
}

/** With paths: the tokens the scan found (at the paths, in the first item), read now and replaced when they would change. */
function replaceItemTokens(parsed: ParsedValue, json: JsonBytes, found: ScannedTokens): void {
	const { tokens } = found;
	for (let at = 0; at < found.tokenCount * TOKEN_WIDTH; at += TOKEN_WIDTH) {
		const kind = readNumberToken(json.bytes, tokens[at + START]) & 3;
		if (kind !== EXACT) replaceToken(parsed, json, found, at, kind === CHECK);
	}
}

/** Values read with paths whose every number is exact all the same: the first item held all that could change. */
const exactThroughout = new WeakSet<object>();

/**
 * Where a number token that could change may start: one of more than 15 characters, or with an exponent (a shorter
 * one has at most 15 significant digits and lies between 1e-13 and 1e15, so its double prints back as the same
 * decimal: DBL_DIG), after `:`, `,` or `[` (a string that looks like one only costs the scan). JSON's four whitespace
 * characters, not \s: Unicode's class is slower.
 */
const MAY_CHANGE = /[:,[][ \t\r\n]*-?(?:\d[\d.]{15}|[\d.]+[eE])/;

/**
 * Texts up to this many bytes are first searched with MAY_CHANGE, which costs less than the scan there (a signed
 * delivery of a few KiB). Beyond, the scan alone: the search would cost more than the scan where nothing matches.
 */
const SEARCHED_FIRST = 16 * 1024;

/**
 * Keeps as text, in `value` (what JSON.parse made of `utf8`, the UTF-8 bytes of `text` when the caller has it), the
 * numbers that would change; with `paths`, only those at the paths in the first item (TokenScan), for now.
 */
export function makeNumbersExact(
	value: unknown,
	utf8: Uint8Array,
	text: string | undefined,
	paths?: ExactPaths,
): unknown {
	// In an object or a list every number token follows a `:`, `,` or `[` (a number alone follows nothing).
	const container = value !== null && typeof value === 'object';
	if (container && text !== undefined && utf8.length <= SEARCHED_FIRST && !MAY_CHANGE.test(text)) {
		if (paths !== undefined) exactThroughout.add(value);
		return value;
	}
	const json = new JsonBytes(utf8);
	const found = scanNumberTokens(json, paths);
	if (paths !== undefined && found.complete && container) exactThroughout.add(value);
	if (found.tokenCount === 0) return value;
	const parsed = new ParsedValue(json, text, value, found);
	if (found.classified) return replaceTokens(parsed, json, found, value);
	replaceItemTokens(parsed, json, found);
	return value;
}

/** Whether `value`, read with paths, has every number exact already (the scan then saw nothing else that could change). */
export function numbersAllExact(value: unknown): boolean {
	return value !== null && typeof value === 'object' && exactThroughout.has(value);
}

/**
 * Parses like JSON.parse (and throws like it), keeping numbers that would change as their JSON text. `utf8` is the
 * text's UTF-8 encoding when the caller has it (without a byte order mark).
 */
export function parseJsonExactly(
	text: string,
	utf8: Uint8Array = Buffer.from(text, 'utf8'),
): unknown {
	return makeNumbersExact(JSON.parse(text), utf8, text);
}
