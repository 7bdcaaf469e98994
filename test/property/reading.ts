/**
 * The independent reading of a body: what the workflow must get from verified bytes, written from the documented
 * rules and not from the trigger's code (nodes/TenantApiTrigger/body.ts, exactJson.ts):
 * - the bytes are UTF-8 (a byte order mark at the start dropped); blank text is an empty body;
 * - JSON (RFC 8259) by a parser of its own: an object, a repeated name keeping its last value, `__proto__` an own
 *   field, strings with any escape (lone surrogates too), and every number a JavaScript number only when that number
 *   stands for the same decimal as the JSON text and is not a whole number beyond 2^53 - 1; otherwise its text;
 * - form fields (application/x-www-form-urlencoded) split on `&`, empty fields skipped, at most 1,000, `+` a space,
 *   percent-escapes exactly two hex digits whose bytes are UTF-8, a name required, a repeated name a list of values.
 */
import type { IDataObject } from 'n8n-workflow';

export type Format = 'json' | 'form';

export type ReadFailure =
	| 'empty_body'
	| 'not_utf8'
	| 'invalid_json'
	| 'not_an_object'
	| 'invalid_form';

export type Reading = { ok: true; object: IDataObject } | { ok: false; reason: ReadFailure };

export const MAX_FIELDS = 1000;

/** Defines an own, enumerable field (so that `__proto__` is a field like any other). */
export function setOwn(target: object, key: string, value: unknown): void {
	Object.defineProperty(target, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

export const hasOwn = (target: object, key: string) =>
	Object.prototype.hasOwnProperty.call(target, key);

/** The text of UTF-8 bytes, or undefined when they are not UTF-8: they must encode back to themselves. */
export function strictUtf8(bytes: Buffer): string | undefined {
	const text = bytes.toString('utf8');
	return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

// ---- numbers ----

/** A decimal as a whole number of units and a power of ten, without trailing zeros: 1.50e2 → [15n, 1]. */
function decimal(text: string): [bigint, number] {
	const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
	if (match === null) throw new Error(`not a decimal: ${text}`);
	const [, sign, whole, fraction = '', exponent = '0'] = match;
	let units = BigInt(`${sign}${whole}${fraction}`);
	let power = Number(exponent) - fraction.length;
	if (units === 0n) return [0n, 0];
	while (units % 10n === 0n) {
		units /= 10n;
		power += 1;
	}
	return [units, power];
}

/** A JSON number as the workflow gets it: JavaScript's number when it holds the same decimal exactly, else the text. */
export function numberValue(token: string): number | string {
	const value = Number(token);
	if (!Number.isFinite(value)) return token;
	if (Number.isInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER) return token;
	const [a, b] = [decimal(token), decimal(String(value))];
	return a[0] === b[0] && a[1] === b[1] ? value : token;
}

// ---- JSON ----

class Invalid extends Error {}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
/** What each JSON escape stands for after its `\` (`\u` apart). */
export const ESCAPES: Record<string, string> = {
	'"': '"',
	'\\': '\\',
	'/': '/',
	b: '\b',
	f: '\f',
	n: '\n',
	r: '\r',
	t: '\t',
};
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** One JSON text read from start to end; a loop with its own stack, so that any nesting reads. */
/** How numbers are read: as the rule says, or every one as the text written (what an id names). */
export type Numbers = 'exact' | 'written';

class JsonReader {
	private at = 0;

	constructor(
		private readonly text: string,
		private readonly numbers: Numbers,
	) {}

	private blanks(): void {
		while (WHITESPACE.has(this.text[this.at])) this.at += 1;
	}

	private expect(char: string): void {
		if (this.text[this.at] !== char) throw new Invalid();
		this.at += 1;
	}

	private string(): string {
		this.expect('"');
		let out = '';
		for (;;) {
			const char = this.text[this.at];
			if (char === undefined || char < ' ') throw new Invalid();
			this.at += 1;
			if (char === '"') return out;
			if (char !== '\\') {
				out += char;
				continue;
			}
			const escaped = this.text[this.at];
			this.at += 1;
			if (escaped === 'u') {
				const hex = this.text.slice(this.at, this.at + 4);
				if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Invalid();
				out += String.fromCharCode(parseInt(hex, 16));
				this.at += 4;
			} else if (escaped !== undefined && hasOwn(ESCAPES, escaped)) out += ESCAPES[escaped];
			else throw new Invalid();
		}
	}

	/** A value that holds no other: a string, a number, a literal. */
	private scalar(): unknown {
		const char = this.text[this.at];
		if (char === '"') return this.string();
		for (const [word, value] of [
			['true', true],
			['false', false],
			['null', null],
		] as const) {
			if (this.text.startsWith(word, this.at)) {
				this.at += word.length;
				return value;
			}
		}
		NUMBER.lastIndex = this.at;
		const token = NUMBER.exec(this.text)?.[0];
		if (token === undefined) throw new Invalid();
		this.at += token.length;
		return this.numbers === 'written' ? token : numberValue(token);
	}

	read(): unknown {
		type Open = { container: unknown[] | IDataObject; key?: string };
		const stack: Open[] = [];
		let root: unknown;
		let done = false;
		const place = (value: unknown) => {
			const top = stack[stack.length - 1];
			if (top === undefined) {
				root = value;
				done = true;
			} else if (Array.isArray(top.container)) top.container.push(value);
			else setOwn(top.container, top.key as string, value);
		};
		this.blanks();
		while (!done) {
			const char = this.text[this.at];
			if (char === '{' || char === '[') {
				this.at += 1;
				const container = char === '{' ? {} : [];
				this.blanks();
				const closer = char === '{' ? '}' : ']';
				if (this.text[this.at] === closer) {
					this.at += 1;
					place(container);
				} else {
					stack.push({ container });
					if (char === '{') this.key(stack[stack.length - 1]);
					continue;
				}
			} else place(this.scalar());
			// After a value: close what ends here, or go on to the next entry.
			while (!done) {
				this.blanks();
				const top = stack[stack.length - 1];
				const array = Array.isArray(top.container);
				const next = this.text[this.at];
				this.at += 1;
				if (next === (array ? ']' : '}')) {
					stack.pop();
					place(top.container);
				} else if (next === ',') {
					if (!array) this.key(top);
					else this.blanks();
					break;
				} else throw new Invalid();
			}
		}
		this.blanks();
		if (this.at !== this.text.length) throw new Invalid();
		return root;
	}

	/** An object's next name and its colon. */
	private key(open: { key?: string }): void {
		this.blanks();
		open.key = this.string();
		this.blanks();
		this.expect(':');
		this.blanks();
	}
}

/** A JSON text's value (numbers as the rule says), or undefined when the text is not JSON. */
export function readJsonText(
	text: string,
	numbers: Numbers = 'exact',
): { value: unknown } | undefined {
	try {
		return { value: new JsonReader(text, numbers).read() };
	} catch {
		return undefined;
	}
}

// ---- form fields ----

const HEX_PAIR = /^[0-9a-fA-F]{2}$/;

/** One name or value: `+` a space, each `%XY` the byte XY; undefined when an escape is cut or the bytes are not UTF-8. */
function formText(segment: string): string | undefined {
	const bytes: number[] = [];
	const chars = [...segment.replace(/\+/g, ' ')];
	for (let i = 0; i < chars.length; i += 1) {
		if (chars[i] === '%') {
			const hex = chars.slice(i + 1, i + 3).join('');
			if (!HEX_PAIR.test(hex)) return undefined;
			bytes.push(parseInt(hex, 16));
			i += 2;
		} else bytes.push(...Buffer.from(chars[i], 'utf8'));
	}
	return strictUtf8(Buffer.from(bytes));
}

function readFormText(text: string): Reading {
	const fields = text.split('&').filter((field) => field !== '');
	if (fields.length === 0) return { ok: false, reason: 'empty_body' };
	if (fields.length > MAX_FIELDS) return { ok: false, reason: 'invalid_form' };
	const object: IDataObject = {};
	for (const field of fields) {
		const equals = field.indexOf('=');
		const name = formText(equals === -1 ? field : field.slice(0, equals));
		const value = formText(equals === -1 ? '' : field.slice(equals + 1));
		if (name === undefined || name === '' || value === undefined)
			return { ok: false, reason: 'invalid_form' };
		if (!hasOwn(object, name)) setOwn(object, name, value);
		else {
			const before = object[name];
			setOwn(object, name, Array.isArray(before) ? [...before, value] : [before, value]);
		}
	}
	return { ok: true, object };
}

/** The body read in a format, or why it cannot be. */
export function readAs(format: Format, bytes: Buffer, numbers: Numbers = 'exact'): Reading {
	const decoded = strictUtf8(bytes);
	if (decoded === undefined) return { ok: false, reason: 'not_utf8' };
	const text = decoded.startsWith('\ufeff') ? decoded.slice(1) : decoded;
	if (text.trim() === '') return { ok: false, reason: 'empty_body' };
	if (format === 'form') return readFormText(text);
	const json = readJsonText(text, numbers);
	if (json === undefined) return { ok: false, reason: 'invalid_json' };
	const { value } = json;
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? { ok: true, object: value as IDataObject }
		: { ok: false, reason: 'not_an_object' };
}

/**
 * Whether two read values are the same: the same primitives (`-0` is not `0`), lists of the same values, objects with
 * the same own fields; a loop, so that any nesting compares.
 */
export function sameValue(a: unknown, b: unknown): boolean {
	const pairs: Array<[unknown, unknown]> = [[a, b]];
	while (pairs.length > 0) {
		const [x, y] = pairs.pop() as [unknown, unknown];
		if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') {
			if (!Object.is(x, y)) return false;
			continue;
		}
		if (
			Array.isArray(x) !== Array.isArray(y) ||
			Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)
		)
			return false;
		const keys = Object.keys(x);
		if (keys.length !== Object.keys(y).length) return false;
		for (const key of keys) {
			if (!hasOwn(y, key)) return false;
			pairs.push([(x as IDataObject)[key], (y as IDataObject)[key]]);
		}
	}
	return true;
}
