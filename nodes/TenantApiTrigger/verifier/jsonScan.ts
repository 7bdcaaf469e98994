/**
 * One pass over the UTF-8 bytes of a text JSON.parse accepted, finding the number tokens that json.ts must look at
 * again and where each sits: its container, its place there. It builds nothing but integer records, so that it costs
 * a fraction of JSON.parse's own reading of the same bytes: whitespace is skipped four bytes at a time, strings byte
 * by byte while short and by the native search beyond, and a whole number of at most 15 characters is skipped
 * unread (it reads exactly); any other number token is decided from its digits (exactNumber.ts).
 *
 * Given paths (ExactPaths), only the tokens at those paths are looked at: keys are compared on the way to them, and
 * every other number token is skipped unread.
 */

import { CHECK, EXACT, readNumberToken } from './exactNumber';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const LOWER_F = 0x66;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const DOT = 0x2e;
const LOWER_E = 0x65;
const SPACE = 0x20;

/** The bytes a JSON number token is made of. */
const NUMBER_BYTES = new Uint8Array(256);
for (const c of '0123456789.eE+-') NUMBER_BYTES[c.charCodeAt(0)] = 1;
/*
 * Four bytes at a time: a word's bytes are tested at once, each answer in its top bit (0x80 of each byte), exactly
 * (no carry crosses bytes). The first flagged byte in memory order is the lowest lane on little-endian machines,
 * the highest on big-endian ones.
 */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** Per first lane: the top bits of the lanes before it in memory order, to leave out. */
const LANES_BEFORE = LITTLE_ENDIAN
	? [0, 0x80, 0x8080, 0x808080]
	: [0, 0x80000000 | 0, 0x80800000 | 0, 0x80808000 | 0];

/** Top bit set in each byte that is 0. */
function zeroBytes(word: number): number {
	return ~(((word & 0x7f7f7f7f) + 0x7f7f7f7f) | word | 0x7f7f7f7f);
}

/** Top bit set in each byte above 0x20 (not JSON whitespace). */
function notWhitespace(word: number): number {
	return (((word & 0x7f7f7f7f) + 0x5f5f5f5f) | word) & 0x80808080;
}

/** Top bit set in each byte that is a quote or a backslash. */
function quoteOrBackslash(word: number): number {
	return zeroBytes(word ^ 0x22222222) | zeroBytes(word ^ 0x5c5c5c5c);
}

/** Top bit set in each byte that opens or closes a container, or a string. */
function structural(word: number): number {
	// [ and { differ by 0x20, so do ] and }.
	const folded = word | 0x20202020;
	return (
		zeroBytes(folded ^ 0x7b7b7b7b) | zeroBytes(folded ^ 0x7d7d7d7d) | zeroBytes(word ^ 0x22222222)
	);
}

/** The lane, in memory order, of the first flagged byte of nonzero `flags`. */
function firstFlaggedLane(flags: number): number {
	return LITTLE_ENDIAN ? (31 - Math.clz32(flags & -flags)) >> 3 : Math.clz32(flags) >> 3;
}

function isNotWhitespace(byte: number): boolean {
	return byte > SPACE;
}

const STRUCTURAL_BYTES = [QUOTE, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET];

function isStructural(byte: number): boolean {
	return byte === QUOTE || (byte | 0x20) === OPEN_BRACE || (byte | 0x20) === CLOSE_BRACE;
}

function isQuoteOrBackslash(byte: number): boolean {
	return byte === QUOTE || byte === BACKSLASH;
}

/** What a byte starts, outside strings. */
const WHITESPACE = 1;
const STRING = 2;
const NUMBER = 3;
const OPEN = 4;
const CLOSE = 5;
const COMMA_CLASS = 6;
const BYTE_CLASS = new Uint8Array(256);
BYTE_CLASS.fill(WHITESPACE, 0, SPACE + 1);
BYTE_CLASS[QUOTE] = STRING;
for (const c of '-0123456789') BYTE_CLASS[c.charCodeAt(0)] = NUMBER;
BYTE_CLASS[OPEN_BRACE] = OPEN;
BYTE_CLASS[OPEN_BRACKET] = OPEN;
BYTE_CLASS[CLOSE_BRACE] = CLOSE;
BYTE_CLASS[CLOSE_BRACKET] = CLOSE;
BYTE_CLASS[COMMA] = COMMA_CLASS;
/** Whole numbers this short (sign included) read exactly: below 10^15. */
const SHORT_WHOLE_NUMBER = 15;
/** Bytes looked at one at a time before four at a time: separators and short strings are often that short. */
const FEW_BYTES = 6;
/** Bytes of a string (or a gap between brackets) looked at four at a time before searching natively. */
const SHORT_RUN = 64;

/** What containerEnd does at a byte: pass it (separators, numbers, literals), skip a string or whitespace, count a level. */
const SKIPPED_PLAIN = 0;
const SKIPPED_STRING = 1;
const SKIPPED_OPEN = 2;
const SKIPPED_CLOSE = 3;
const SKIPPED_WHITESPACE = 4;
const SKIPPED = new Uint8Array(256);
SKIPPED.fill(SKIPPED_WHITESPACE, 0, SPACE + 1);
SKIPPED[QUOTE] = SKIPPED_STRING;
SKIPPED[OPEN_BRACE] = SKIPPED_OPEN;
SKIPPED[OPEN_BRACKET] = SKIPPED_OPEN;
SKIPPED[CLOSE_BRACE] = SKIPPED_CLOSE;
SKIPPED[CLOSE_BRACKET] = SKIPPED_CLOSE;
/** Bytes without an escape in a row after which containerEnd skips a string four bytes at a time. */
const FEW_PLAIN_BYTES = 8;

/** Fields of a token record. */
const START = 0;
/** Its end; negated minus one (~end) when its digits left it to check against its double (CHECK). */
const END = 1;
/** Its container record, -1 when the token is the whole text. */
const CONTAINER = 2;
/** Where it sits in the container: its index in a list, its key's opening quote in an object. */
const SLOT = 3;
const TOKEN_WIDTH = 4;

/** Fields of a container record: one per container that holds a recorded token, or lies on the way to one. */
const PARENT = 0;
const IS_OBJECT = 1;
/** Where it sits in its parent: its index in a list, its key's opening quote in an object (0 at the top). */
const SLOT_IN_PARENT = 2;
/** An object's keys (their opening quotes' positions) are keys[KEYS_START … KEYS_END). */
const KEYS_START = 3;
const KEYS_END = 4;
const CONTAINER_WIDTH = 5;

/** Fields of an open level of the scan. */
const LEVEL_OBJECT = 0;
const LEVEL_ENTRY = 1;
/** The current entry's key (objects). */
const LEVEL_KEY = 2;
/** Where its keys start among the open keys. */
const LEVEL_KEYS = 3;
/** Its container record, -1 while no token needed one. */
const LEVEL_CONTAINER = 4;
/**
 * With paths: the path node the container is at, and the one its current entry is at (-1: on no path; for an object
 * entry, UNMATCHED until its key is compared: only when a number or a container is its value).
 */
const LEVEL_NODE = 5;
const LEVEL_ENTRY_NODE = 6;
const UNMATCHED = -2;
const ESCAPED_UNMATCHED = -3;
/** With paths: the end of the current entry's key. */
const LEVEL_KEY_END = 7;
/** With paths: the entry (and its node) that holds the item being read, -1 when none does. */
const LEVEL_ITEM_ENTRY = 8;
const LEVEL_ITEM_NODE = 9;
const LEVEL_WIDTH = 10;

export { CONTAINER, END, IS_OBJECT, KEYS_END, KEYS_START, PARENT, SLOT, SLOT_IN_PARENT, START };
export { CONTAINER_WIDTH, TOKEN_WIDTH };

/** `array` with room for `needed` entries: itself, or a copy twice as large. */
function withRoom(array: Int32Array, needed: number): Int32Array {
	if (needed <= array.length) return array;
	const larger = new Int32Array(Math.max(needed, array.length * 2));
	larger.set(array);
	return larger;
}

/**
 * What the scan found: token and container records (see their fields), and the keys of those containers. Without
 * paths, the tokens left to keep as text or to check (`classified`); with paths, every token at their ends in the
 * first item JSON.parse keeps (see TokenScan.item).
 */
export interface ScannedTokens {
	classified: boolean;
	/**
	 * With paths: whether the tokens recorded are every token of the text that could change (no container skipped, no
	 * token passed over that is not a short whole number, no item dropped), so that nothing is left to read later.
	 */
	complete: boolean;
	tokens: Int32Array;
	tokenCount: number;
	containers: Int32Array;
	keys: Int32Array;
}

/**
 * The bytes and a view of them as 32-bit words: word k holds bytes 4k − base … 4k − base + 3 (base: the bytes'
 * offset in their buffer modulo 4), and no word covers a byte outside the view.
 */
export class JsonBytes {
	readonly words: Int32Array;

	readonly base: number;

	private nextBackslash = -1;

	/** Whether the string stringEnd skipped last holds an escape. */
	escaped = false;

	constructor(readonly bytes: Uint8Array) {
		this.base = bytes.byteOffset & 3;
		this.words = new Int32Array(
			bytes.buffer,
			bytes.byteOffset - this.base,
			(this.base + bytes.length) >> 2,
		);
	}

	/** The first byte from `start` on that is not JSON whitespace (bytes ≤ 0x20 outside strings). */
	afterWhitespace(start: number): number {
		const { bytes, words, base } = this;
		let k = (base + start) >> 2;
		if (k >= words.length) return this.firstByte(start, isNotWhitespace);
		let flags = notWhitespace(words[k]) & ~LANES_BEFORE[(base + start) & 3];
		while (flags === 0) {
			if (++k >= words.length) return this.firstByte((k << 2) - base, isNotWhitespace);
			flags = notWhitespace(words[k]);
		}
		return Math.min(bytes.length, (k << 2) - base + firstFlaggedLane(flags));
	}

	/**
	 * The first quote, bracket or brace from `start` on (bytes.length if none): four bytes at a time over a short gap,
	 * by the native search of each of the five beyond (each found once: see `following`).
	 */
	private nextStructural(start: number): number {
		const { bytes, words, base } = this;
		for (let i = start; i < start + FEW_BYTES && i < bytes.length; i++)
			if (isStructural(bytes[i])) return i;
		let k = (base + start) >> 2;
		const stop = Math.min(words.length, k + SHORT_RUN / 4);
		if (k >= stop)
			return k >= words.length
				? this.firstByte(start, isStructural)
				: this.nearestStructural(start);
		let flags = structural(words[k]) & ~LANES_BEFORE[(base + start) & 3];
		while (flags === 0) {
			if (++k >= stop)
				return k >= words.length
					? this.firstByte((k << 2) - base, isStructural)
					: this.nearestStructural((k << 2) - base);
			flags = structural(words[k]);
		}
		return Math.min(bytes.length, (k << 2) - base + firstFlaggedLane(flags));
	}

	/** The next position of each structural byte, kept while ahead of the scan (-1: not looked for yet). */
	private readonly following = new Map<number, number>(STRUCTURAL_BYTES.map((byte) => [byte, -1]));

	/** The nearest of the five structural bytes from `start` on, each searched natively only past its last place. */
	private nearestStructural(start: number): number {
		let nearest = this.bytes.length;
		for (const byte of STRUCTURAL_BYTES) {
			let at = this.following.get(byte) as number;
			if (at < start) {
				const found = this.bytes.indexOf(byte, start);
				at = found === -1 ? this.bytes.length : found;
				this.following.set(byte, at);
			}
			nearest = Math.min(nearest, at);
		}
		return nearest;
	}

	/**
	 * The end of the container whose opening bracket or brace is at `start`: only strings, brackets and braces are
	 * looked at inside. Short strings and short gaps byte by byte (a body of small items is mostly those), longer ones
	 * by stringEnd and nextStructural.
	 */
	containerEnd(start: number): number {
		const { bytes } = this;
		let depth = 1;
		let i = start + 1;
		while (i < bytes.length) {
			const kind = SKIPPED[bytes[i]];
			if (kind === SKIPPED_STRING) i = this.afterString(i);
			else if (kind === SKIPPED_PLAIN) i = this.afterPlain(i);
			else if (kind === SKIPPED_WHITESPACE) i = this.nextStructural(i + 1);
			else if (kind === SKIPPED_OPEN) {
				depth++;
				i++;
			} else if (--depth === 0) return i;
			else i++;
		}
		return bytes.length;
	}

	/** Past the separator, number or literal byte at `start`: a `:` or `,` alone, else up to the next structural byte. */
	private afterPlain(start: number): number {
		const { bytes } = this;
		if (SKIPPED[bytes[start + 1]] !== SKIPPED_PLAIN) return start + 1;
		return SKIPPED[bytes[start + 2]] !== SKIPPED_PLAIN ? start + 2 : this.nextStructural(start + 2);
	}

	/**
	 * Just past the string that opens at `start`: a few bytes one at a time (short strings, runs of escapes), four at a
	 * time up to the next quote or backslash while it is near, natively beyond.
	 */
	private afterString(start: number): number {
		const { bytes } = this;
		const { length } = bytes;
		let i = start + 1;
		while (i < length) {
			for (let plain = 0; plain < FEW_PLAIN_BYTES && i < length; ) {
				const c = bytes[i];
				if (c === QUOTE) return i + 1;
				if (c === BACKSLASH) {
					i += 2;
					plain = 0;
				} else {
					i++;
					plain++;
				}
			}
			if (i >= length) break;
			const at = this.quoteOrBackslash(i, SHORT_RUN);
			if (at >= length) break;
			if (bytes[at] === QUOTE) return at + 1;
			if (bytes[at] === BACKSLASH) i = at + 2;
			// stringEnd reads on from the byte after the one it is given (no escape is open there).
			else return this.stringEnd(at - 1) + 1;
		}
		return length;
	}

	/** The first byte from `start` on that `wanted` accepts (bytes.length if none), one at a time. */
	private firstByte(start: number, wanted: (byte: number) => boolean): number {
		let i = start;
		while (i < this.bytes.length && !wanted(this.bytes[i])) i++;
		return i;
	}

	/** The first backslash from `start` on (bytes.length if none): one native search per backslash of the text. */
	private backslashFrom(start: number): number {
		if (this.nextBackslash < start) {
			const found = this.bytes.indexOf(BACKSLASH, start);
			this.nextBackslash = found === -1 ? this.bytes.length : found;
		}
		return this.nextBackslash;
	}

	/** The first quote or backslash from `start` on, four bytes at a time for about `limit` bytes (then some byte beyond, neither). */
	private quoteOrBackslash(start: number, limit: number): number {
		const { words, base } = this;
		let k = (base + start) >> 2;
		const stop = Math.min(words.length, k + (limit >> 2));
		if (k >= stop) return this.firstByte(start, isQuoteOrBackslash);
		let flags = quoteOrBackslash(words[k]) & ~LANES_BEFORE[(base + start) & 3];
		while (flags === 0) {
			if (++k >= stop)
				return k >= words.length
					? this.firstByte((k << 2) - base, isQuoteOrBackslash)
					: (k << 2) - base;
			flags = quoteOrBackslash(words[k]);
		}
		return (k << 2) - base + firstFlaggedLane(flags);
	}

	/** The closing quote of the string that opens at `start` (bytes.length if none). */
	stringEnd(start: number): number {
		const { bytes } = this;
		const { length } = bytes;
		let i = start + 1;
		let escaped = false;
		for (;;) {
			// A few bytes one at a time (short strings, runs of escapes), four at a time while the string is short,
			// then natively.
			let c = bytes[i];
			for (let few = 0; c !== QUOTE && few < FEW_BYTES && i < length; few++) {
				if (c === BACKSLASH) {
					escaped = true;
					i++;
				}
				c = bytes[++i];
			}
			if (c === QUOTE || i >= length) break;
			i = this.quoteOrBackslash(i, SHORT_RUN);
			if (i >= length || bytes[i] === QUOTE) break;
			if (bytes[i] === BACKSLASH) continue;
			const quote = bytes.indexOf(QUOTE, i);
			const backslash = this.backslashFrom(i);
			if (quote === -1 || backslash > quote) {
				i = quote === -1 ? length : quote;
				break;
			}
			i = backslash;
		}
		this.escaped = escaped;
		return Math.min(i, length);
	}
}

/**
 * Dot paths (segments as paths.ts splits them) at which numbers must read exactly, as a tree of nodes. A `*` segment
 * among the first `prefix` ones stands for every entry; any other segment matches an object key equal to it, or a
 * list index written as it. Matching more than the paths is harmless (those numbers are only read exactly sooner).
 */
export class ExactPaths {
	/** Per node: the literal segments below it (UTF-8 bytes) and the node each leads to, in parallel lists. */
	private readonly segments: Uint8Array[][] = [[]];

	private readonly children: number[][] = [[]];

	private readonly any: number[] = [-1];

	private readonly ends: boolean[] = [false];

	/** The node of the items: the paths' first `prefix` segments lead to it (-1 without paths). */
	itemNode = -1;

	/** `paths` all start with the same `prefix` segments, where `*` stands for every entry. */
	constructor(paths: string[][], prefix: number) {
		for (const path of paths) {
			let node = 0;
			path.forEach((segment, index) => {
				node =
					index < prefix && segment === '*'
						? this.wildcardChild(node)
						: this.literalChild(node, segment);
				if (index === prefix - 1) this.itemNode = node;
			});
			if (prefix === 0) this.itemNode = 0;
			this.ends[node] = true;
		}
	}

	private newNode(): number {
		this.segments.push([]);
		this.children.push([]);
		this.any.push(-1);
		return this.ends.push(false) - 1;
	}

	private wildcardChild(node: number): number {
		if (this.any[node] === -1) this.any[node] = this.newNode();
		return this.any[node];
	}

	private literalChild(node: number, segment: string): number {
		const bytes = Buffer.from(segment, 'utf8');
		const known = this.segments[node].findIndex((other) => Buffer.compare(other, bytes) === 0);
		if (known !== -1) return this.children[node][known];
		const made = this.newNode();
		this.segments[node].push(bytes);
		this.children[node].push(made);
		return made;
	}

	/** The node of an object's entry at `node` whose key is bytes[start, end) (escaped when `escaped`); -1 if none. */
	byKey(node: number, bytes: Uint8Array, start: number, end: number, escaped: boolean): number {
		if (escaped)
			return this.byName(
				node,
				JSON.parse(
					Buffer.from(bytes.buffer, bytes.byteOffset + start - 1, end + 2 - start).toString('utf8'),
				) as string,
			);
		const segments = this.segments[node];
		for (let k = 0; k < segments.length; k++) {
			const segment = segments[k];
			if (segment.length !== end - start) continue;
			let i = 0;
			while (i < segment.length && segment[i] === bytes[start + i]) i++;
			if (i === segment.length) return this.children[node][k];
		}
		return this.any[node];
	}

	/** The node of an entry at `node` named `name` (a decoded key, or a list index); -1 if none. */
	byName(node: number, name: string | number): number {
		if (this.segments[node].length === 0) return this.any[node];
		const bytes = Buffer.from(String(name), 'utf8');
		return this.byKey(node, bytes, 0, bytes.length, false);
	}

	isEnd(node: number): boolean {
		return this.ends[node];
	}
}

/** The scan: open levels as a stack, container records made only for the levels a recorded token needs. */
class TokenScan {
	// Small enough to start on V8's heap (64 bytes); they grow as needed.
	private levels: Int32Array = new Int32Array(2 * LEVEL_WIDTH);

	private depth = -1;

	private openKeys: Int32Array = new Int32Array(16);

	private openKeyCount = 0;

	private tokens: Int32Array = new Int32Array(3 * TOKEN_WIDTH);

	private tokenCount = 0;

	private containers: Int32Array = new Int32Array(2 * CONTAINER_WIDTH);

	private containerCount = 0;

	private keys: Int32Array = new Int32Array(16);

	private keyCount = 0;

	/**
	 * With paths, only the first item's tokens are recorded (what verifying reads first): the container record of the
	 * item being read (-1 before one), whether it is still open, and the token count when it opened. When a later
	 * entry of an object on the way repeats the key of the entry holding it, JSON.parse keeps the later one: the
	 * item's tokens are dropped and the first item from there on is read instead.
	 */
	private item = -1;

	private itemOpen = false;

	private itemTokens = 0;

	/** With paths: see ScannedTokens.complete. */
	private complete = true;

	constructor(
		private readonly json: JsonBytes,
		private readonly paths: ExactPaths | undefined,
	) {}

	run(): ScannedTokens {
		const { json } = this;
		const { bytes } = json;
		const end = bytes.length;
		let expectKey = false;
		let i = 0;
		while (i < end) {
			const c = bytes[i];
			switch (BYTE_CLASS[c]) {
				case WHITESPACE:
					i = bytes[i + 1] > SPACE ? i + 1 : json.afterWhitespace(i + 1);
					break;
				case COMMA_CLASS:
					expectKey = this.next();
					i++;
					break;
				case NUMBER: {
					// Whole numbers of at most 15 characters read exactly: skipped without a closer look.
					let digit = i + 1;
					let b = bytes[digit];
					while (b >= DIGIT_0 && b <= DIGIT_9) b = bytes[++digit];
					if (digit - i <= SHORT_WHOLE_NUMBER && b !== DOT && (b | 0x20) !== LOWER_E) i = digit;
					else i = this.number(i, digit);
					break;
				}
				case STRING: {
					const stringEnd = json.stringEnd(i);
					if (expectKey) this.key(i, stringEnd);
					expectKey = false;
					i = stringEnd + 1;
					break;
				}
				case OPEN:
					if (this.paths !== undefined && this.skipsContainer()) {
						this.complete = false;
						i = json.containerEnd(i) + 1;
						expectKey = false;
						break;
					}
					expectKey = this.open(c === OPEN_BRACE);
					i++;
					break;
				case CLOSE:
					expectKey = this.close();
					i++;
					break;
				default:
					// ':', or the first letter of true, null (4 letters) or false (5).
					i += c === COLON ? 1 : c === LOWER_F ? 5 : 4;
			}
		}
		return {
			classified: this.paths === undefined,
			complete: this.complete,
			tokens: this.tokens,
			tokenCount: this.tokenCount,
			containers: this.containers,
			keys: this.keys,
		};
	}

	private next(): boolean {
		const at = this.depth * LEVEL_WIDTH;
		const entry = ++this.levels[at + LEVEL_ENTRY];
		const isObject = this.levels[at + LEVEL_OBJECT] === 1;
		if (this.paths !== undefined) this.enterEntry(isObject, entry);
		return isObject;
	}

	/** A number token that is not a short whole number, from `start` (digits read up to `digit`); returns its end. */
	private number(start: number, digit: number): number {
		const { bytes } = this.json;
		if (this.paths !== undefined) {
			let end = digit;
			while (end < bytes.length && NUMBER_BYTES[bytes[end]] === 1) end++;
			if (this.itemOpen && this.onPathEnd()) this.token(start, end, false);
			else this.complete = false;
			return end;
		}
		const read = readNumberToken(bytes, start);
		const kind = read & 3;
		if (kind !== EXACT) this.token(start, read >> 2, kind === CHECK);
		return read >> 2;
	}

	private open(isObject: boolean): boolean {
		const at = ++this.depth * LEVEL_WIDTH;
		if (at + LEVEL_WIDTH > this.levels.length)
			this.levels = withRoom(this.levels, at + LEVEL_WIDTH);
		const levels = this.levels;
		levels[at + LEVEL_OBJECT] = isObject ? 1 : 0;
		levels[at + LEVEL_ENTRY] = 0;
		levels[at + LEVEL_KEYS] = this.openKeyCount;
		levels[at + LEVEL_CONTAINER] = -1;
		if (this.paths !== undefined) this.openOnPaths(isObject);
		return isObject;
	}

	/**
	 * With paths: whether the container opening now holds nothing to look at: it is on no path, or it is a later entry
	 * of a list that holds the item being read (an object's later entry with the same key is opened: it replaces it).
	 */
	private skipsContainer(): boolean {
		if (this.depth < 0) return false;
		if (this.entryNode(this.depth) === -1) return true;
		const at = this.depth * LEVEL_WIDTH;
		return (
			this.item !== -1 &&
			this.levels[at + LEVEL_OBJECT] === 0 &&
			this.levels[at + LEVEL_ITEM_ENTRY] !== -1 &&
			this.levels[at + LEVEL_ENTRY] > this.levels[at + LEVEL_ITEM_ENTRY]
		);
	}

	/** With paths: the node of the container just opened, and whether it starts the item to read (or drops it). */
	private openOnPaths(isObject: boolean): void {
		const { depth } = this;
		const levels = this.levels;
		const at = depth * LEVEL_WIDTH;
		const node = depth === 0 ? 0 : this.entryNode(depth - 1);
		levels[at + LEVEL_NODE] = node;
		levels[at + LEVEL_ITEM_ENTRY] = -1;
		this.enterEntry(isObject, 0);
		if (depth === 0 || node === -1) return;
		const above = at - LEVEL_WIDTH;
		if (
			levels[above + LEVEL_OBJECT] === 1 &&
			levels[above + LEVEL_ITEM_ENTRY] !== -1 &&
			levels[above + LEVEL_ITEM_ENTRY] !== levels[above + LEVEL_ENTRY] &&
			levels[above + LEVEL_ITEM_NODE] === node
		) {
			// The key of the entry holding the item, repeated: JSON.parse keeps this entry, not that one.
			this.tokenCount = this.itemTokens;
			this.complete = false;
			this.item = -1;
			this.itemOpen = false;
			levels[above + LEVEL_ITEM_ENTRY] = -1;
		}
		if (this.item === -1 && node === (this.paths as ExactPaths).itemNode) {
			this.item = this.currentContainer();
			this.itemOpen = true;
			this.itemTokens = this.tokenCount;
			for (let level = 0; level < depth; level++) {
				levels[level * LEVEL_WIDTH + LEVEL_ITEM_ENTRY] = levels[level * LEVEL_WIDTH + LEVEL_ENTRY];
				levels[level * LEVEL_WIDTH + LEVEL_ITEM_NODE] =
					levels[level * LEVEL_WIDTH + LEVEL_ENTRY_NODE];
			}
		}
	}

	/** With paths: the node of a new entry of the current container (an object's is known once its key is read). */
	private enterEntry(isObject: boolean, entry: number): void {
		const at = this.depth * LEVEL_WIDTH;
		const node = this.levels[at + LEVEL_NODE];
		const paths = this.paths as ExactPaths;
		this.levels[at + LEVEL_ENTRY_NODE] = isObject || node === -1 ? -1 : paths.byName(node, entry);
	}

	/** With paths: the node of the current entry at open level `level`, its key compared now if it was not. */
	private entryNode(level: number): number {
		const at = level * LEVEL_WIDTH;
		const levels = this.levels;
		if (levels[at + LEVEL_ENTRY_NODE] < -1) {
			const key = levels[at + LEVEL_KEY];
			const escaped = levels[at + LEVEL_ENTRY_NODE] === ESCAPED_UNMATCHED;
			levels[at + LEVEL_ENTRY_NODE] = (this.paths as ExactPaths).byKey(
				levels[at + LEVEL_NODE],
				this.json.bytes,
				key + 1,
				levels[at + LEVEL_KEY_END],
				escaped,
			);
		}
		return levels[at + LEVEL_ENTRY_NODE];
	}

	/** With paths: whether the current entry is at the end of one (or the text is a number alone, at no path). */
	private onPathEnd(): boolean {
		if (this.depth < 0) return false;
		const node = this.entryNode(this.depth);
		return node !== -1 && (this.paths as ExactPaths).isEnd(node);
	}

	private close(): boolean {
		const at = this.depth-- * LEVEL_WIDTH;
		const levels = this.levels;
		const container = levels[at + LEVEL_CONTAINER];
		if (container === this.item && container !== -1) this.itemOpen = false;
		if (container !== -1 && levels[at + LEVEL_OBJECT] === 1)
			this.saveKeys(container, levels[at + LEVEL_KEYS]);
		this.openKeyCount = levels[at + LEVEL_KEYS];
		return false;
	}

	/** Keeps the keys of a closing object that has a container record. */
	private saveKeys(container: number, from: number): void {
		const count = this.openKeyCount - from;
		this.keys = withRoom(this.keys, this.keyCount + count);
		for (let k = 0; k < count; k++) this.keys[this.keyCount + k] = this.openKeys[from + k];
		this.containers[container * CONTAINER_WIDTH + KEYS_START] = this.keyCount;
		this.keyCount += count;
		this.containers[container * CONTAINER_WIDTH + KEYS_END] = this.keyCount;
	}

	private key(position: number, end: number): void {
		const at = this.depth * LEVEL_WIDTH;
		this.levels[at + LEVEL_KEY] = position;
		if (this.paths !== undefined) {
			this.levels[at + LEVEL_KEY_END] = end;
			this.levels[at + LEVEL_ENTRY_NODE] =
				this.levels[at + LEVEL_NODE] === -1
					? -1
					: this.json.escaped
						? ESCAPED_UNMATCHED
						: UNMATCHED;
		}
		if (this.openKeyCount === this.openKeys.length)
			this.openKeys = withRoom(this.openKeys, this.openKeyCount + 1);
		this.openKeys[this.openKeyCount++] = position;
	}

	/** The container record of open level `level`; the level above it has one (or `level` is the top). */
	private containerOf(level: number): number {
		const id = this.containerCount++;
		this.containers = withRoom(this.containers, this.containerCount * CONTAINER_WIDTH);
		const { levels, containers } = this;
		const at = level * LEVEL_WIDTH;
		const above = at - LEVEL_WIDTH;
		const record = id * CONTAINER_WIDTH;
		containers[record + PARENT] = level === 0 ? -1 : levels[above + LEVEL_CONTAINER];
		containers[record + IS_OBJECT] = levels[at + LEVEL_OBJECT];
		containers[record + SLOT_IN_PARENT] =
			level === 0
				? 0
				: levels[above + (levels[above + LEVEL_OBJECT] === 1 ? LEVEL_KEY : LEVEL_ENTRY)];
		containers[record + KEYS_START] = 0;
		containers[record + KEYS_END] = 0;
		levels[at + LEVEL_CONTAINER] = id;
		return id;
	}

	/** The container record of the current level, made with those of the levels above it that have none. */
	private currentContainer(): number {
		const { levels, depth } = this;
		const existing = levels[depth * LEVEL_WIDTH + LEVEL_CONTAINER];
		if (existing !== -1) return existing;
		let top = depth;
		while (top > 0 && levels[(top - 1) * LEVEL_WIDTH + LEVEL_CONTAINER] === -1) top--;
		let id = -1;
		for (let level = top; level <= depth; level++) id = this.containerOf(level);
		return id;
	}

	private token(start: number, end: number, check: boolean): void {
		const at = this.tokenCount++ * TOKEN_WIDTH;
		if (at + TOKEN_WIDTH > this.tokens.length)
			this.tokens = withRoom(this.tokens, at + TOKEN_WIDTH);
		const { tokens, depth } = this;
		tokens[at + START] = start;
		tokens[at + END] = check ? ~end : end;
		if (depth < 0) {
			tokens[at + CONTAINER] = -1;
			return;
		}
		tokens[at + CONTAINER] = this.currentContainer();
		const level = depth * LEVEL_WIDTH;
		tokens[at + SLOT] =
			this.levels[level + (this.levels[level + LEVEL_OBJECT] === 1 ? LEVEL_KEY : LEVEL_ENTRY)];
	}
}

/**
 * The number tokens of `json` (bytes of a text JSON.parse accepted) that their digits do not show to read exactly;
 * with `paths`, only those at the paths.
 */
export function scanNumberTokens(json: JsonBytes, paths?: ExactPaths): ScannedTokens {
	return new TokenScan(json, paths).run();
}
