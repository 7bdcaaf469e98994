/**
 * The independent reading of a body: what the workflow must get from verified bytes, written from the documented
 * rules, not from the trigger's code (nodes/TenantApiTrigger/body.ts, exactJson.ts). UTF-8 (a byte order mark
 * dropped), blank text an empty body. JSON: an object, a repeated name its last value, `__proto__` an own field,
 * a number a JavaScript number only when that number stands for the same decimal and is not a whole number beyond
 * 2^53 - 1, else its text. Form fields: split on `&`, empty ones skipped, at most 1,000, `+` a space, `%XY`
 * exactly two hex digits whose bytes are UTF-8, a name required, a repeated name a list of values.
 */
import type { IDataObject } from 'n8n-workflow';

export type Format = 'json' | 'form';

type ReadFailure = 'empty_body' | 'not_utf8' | 'invalid_json' | 'not_an_object' | 'invalid_form';

export type Reading = { ok: true; object: IDataObject } | { ok: false; reason: ReadFailure };

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

/** Adds a field; a repeated name's values as a list (form fields, a parsed query). */
export function collect(target: IDataObject, name: string, value: unknown): void {
	setOwn(target, name, hasOwn(target, name) ? [target[name], value].flat() : value);
}

/** The text of UTF-8 bytes, or undefined when they are not UTF-8: they must encode back to themselves. */
function strictUtf8(bytes: Buffer): string | undefined {
	const text = bytes.toString('utf8');
	return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/** A decimal as its digits without trailing zeros and a power of ten: 1.50e2 and 150 → "15e1". */
function decimal(text: string): string {
	const [, sign, whole, fraction = '', exponent = '0'] =
		/^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text) ?? [];
	let units = BigInt(`${sign}${whole}${fraction}`);
	let power = Number(exponent) - fraction.length;
	while (units !== 0n && units % 10n === 0n) [units, power] = [units / 10n, power + 1];
	return units === 0n ? '0' : `${units}e${power}`;
}

/** A JSON number as the workflow gets it: JavaScript's number when it holds the same decimal, else the text. */
function numberValue(token: string): number | string {
	const value = Number(token);
	if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
		return token;
	return decimal(token) === decimal(String(value)) ? value : token;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * A JSON text's value, each number as the rule says (`written`: as its text, what an id names), or undefined when
 * the text is not JSON. JSON.parse reads the text with every string tagged `s` and every number made a string
 * tagged `n` (a scan a character at a time, strings skipped whole); its reviver takes the tags off.
 */
export function readJsonText(
	text: string,
	numbers: 'exact' | 'written' = 'exact',
): { value: unknown } | undefined {
	const tagged: string[] = [];
	for (let at = 0; at < text.length; ) {
		NUMBER.lastIndex = at;
		const token = text[at] === '"' ? undefined : NUMBER.exec(text)?.[0];
		let end = at + 1;
		if (text[at] === '"') {
			while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
			tagged.push(`"s${text.slice(at + 1, (end += 1))}`);
		} else if (token !== undefined) tagged.push(`"n${token}"`);
		else tagged.push(text[at]);
		at = token === undefined ? end : at + token.length;
	}
	const untag = (_key: string, value: unknown): unknown => {
		if (typeof value === 'string')
			return value[0] === 's'
				? value.slice(1)
				: numbers === 'written'
					? value.slice(1)
					: numberValue(value.slice(1));
		if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
		const object: IDataObject = {};
		for (const [name, inner] of Object.entries(value)) {
			if (name[0] !== 's') throw new SyntaxError('a number as a name');
			setOwn(object, name.slice(1), inner);
		}
		return object;
	};
	try {
		return { value: JSON.parse(tagged.join(''), untag) };
	} catch {
		return undefined;
	}
}

/** A form name or value: `+` a space, each `%XY` the byte XY; undefined when an escape is cut or not UTF-8. */
function formText(segment: string): string | undefined {
	const [first, ...escaped] = segment.replace(/\+/g, ' ').split('%');
	if (escaped.some((piece) => !/^[0-9a-fA-F]{2}/.test(piece))) return undefined;
	const bytes = escaped.flatMap((piece) => [
		Buffer.from(piece.slice(0, 2), 'hex'),
		Buffer.from(piece.slice(2)),
	]);
	return strictUtf8(Buffer.concat([Buffer.from(first), ...bytes]));
}

function readFormText(text: string): Reading {
	const fields = text.split('&').filter((field) => field !== '');
	if (fields.length === 0) return { ok: false, reason: 'empty_body' };
	const pairs = fields.map((field) => {
		const [name, ...value] = field.split('=');
		return [formText(name), formText(value.join('='))];
	});
	if (fields.length > 1000 || pairs.some(([name, value]) => !name || value === undefined))
		return { ok: false, reason: 'invalid_form' };
	const object: IDataObject = {};
	for (const [name, value] of pairs) collect(object, name as string, value);
	return { ok: true, object };
}

/** The body read in a format, or why it cannot be. */
export function readAs(
	format: Format,
	bytes: Buffer,
	numbers: 'exact' | 'written' = 'exact',
): Reading {
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

/** Whether two read values are the same: the same primitives (`-0` is not `0`), lists and own fields; a loop, so
 * that any nesting compares. */
export function sameValue(a: unknown, b: unknown): boolean {
	const pairs: Array<[unknown, unknown]> = [[a, b]];
	for (let pair = pairs.pop(); pair !== undefined; pair = pairs.pop()) {
		const [x, y] = pair;
		if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') {
			if (Object.is(x, y)) continue;
			return false;
		}
		const keys = Object.keys(x);
		if (
			Array.isArray(x) !== Array.isArray(y) ||
			Object.getPrototypeOf(x) !== Object.getPrototypeOf(y) ||
			keys.length !== Object.keys(y).length ||
			!keys.every((key) => hasOwn(y, key))
		)
			return false;
		for (const key of keys) pairs.push([(x as IDataObject)[key], (y as IDataObject)[key]]);
	}
	return true;
}
