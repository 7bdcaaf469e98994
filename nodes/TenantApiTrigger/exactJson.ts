/**
 * JSON numbers as the sender wrote them. JSON.parse turns every number into the nearest double, so
 * a signed `12345678901234567891` would reach the workflow as 12345678901234567000, and `1e400` as
 * Infinity. A number is kept as its text when its double does not stand for the same decimal, or
 * when it is a whole number beyond Number.MAX_SAFE_INTEGER (next to one, other whole numbers read
 * as the same double); every other value is JSON.parse's own.
 *
 * Only a number of 16 digits or more, or one with an exponent, can be such a number. A body without
 * one (most) keeps JSON.parse's value; one with it is read again by the plain reader below, on text
 * JSON.parse accepted.
 */
import { setOwn } from '../shared/ownProperty';

/**
 * A digit before an exponent, or 16 digits with at most one point among them; text in strings may
 * match too.
 */
const MAY_BE_INEXACT = /\d[eE]|\d(?:\.?\d){15}/;

/**
 * A decimal's digits without leading or trailing zeros, and its exponent: `1.50e2` and `150` read
 * `15e1`.
 */
function canonicalDecimal(text: string): string {
	const [, sign, whole, fraction = '', exponent = '0'] =
		/^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(text) ?? [];
	const digits = `${whole}${fraction}`.replace(/^0+/, '');
	if (digits === '') return '0';
	const significant = digits.replace(/0+$/, '');
	const power = Number(exponent) - fraction.length + (digits.length - significant.length);
	return `${sign}${significant}e${power}`;
}

/**
 * A number token as the workflow gets it: JSON.parse's double, or the token's text when the double
 * differs.
 */
export function exactNumber(token: string): number | string {
	const value = Number(token);
	if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
		return token;
	return canonicalDecimal(token) === canonicalDecimal(String(value)) ? value : token;
}

type Container = Record<string, unknown> | unknown[];
interface Open {
	container: Container;
	/** In an object: the key read, waiting for its value. */
	key?: string;
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const LITERALS: Record<string, [unknown, number]> = {
	t: [true, 4],
	f: [false, 5],
	n: [null, 4],
};

/** The index after the string token that starts at `start` (its closing quote included). */
function stringEnd(text: string, start: number): number {
	let at = start + 1;
	while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
	return at + 1;
}

/**
 * Reads JSON text that JSON.parse accepted, as JSON.parse does (strings by JSON.parse itself, a
 * repeated key's last value, `__proto__` an own key) but numbers by exactNumber. A loop over the
 * text, so that nesting costs no stack.
 */
function readExactly(text: string): unknown {
	const open: Open[] = [];
	let root: unknown;
	const place = (value: unknown) => {
		const top = open[open.length - 1];
		if (top === undefined) root = value;
		else if (Array.isArray(top.container)) top.container.push(value);
		else {
			setOwn(top.container, top.key as string, value);
			top.key = undefined;
		}
	};
	let at = 0;
	while (at < text.length) {
		const char = text[at];
		if (char === '{' || char === '[') {
			const container: Container = char === '{' ? {} : [];
			place(container);
			open.push({ container });
			at += 1;
		} else if (char === '}' || char === ']') {
			open.pop();
			at += 1;
		} else if (char === '"') {
			const end = stringEnd(text, at);
			const value = JSON.parse(text.slice(at, end)) as string;
			const top = open[open.length - 1];
			if (top !== undefined && !Array.isArray(top.container) && top.key === undefined)
				top.key = value;
			else place(value);
			at = end;
		} else if (Object.prototype.hasOwnProperty.call(LITERALS, char)) {
			place(LITERALS[char][0]);
			at += LITERALS[char][1];
		} else if (char === '-' || (char >= '0' && char <= '9')) {
			NUMBER.lastIndex = at;
			const token = (NUMBER.exec(text) as RegExpExecArray)[0];
			place(exactNumber(token));
			at += token.length;
		} else at += 1; // whitespace, `,` and `:`
	}
	return root;
}

/**
 * The value JSON.parse gave for `text`, with every number a double cannot hold exactly as its text.
 */
export function withExactNumbers(text: string, parsed: unknown): unknown {
	return MAY_BE_INEXACT.test(text) ? readExactly(text) : parsed;
}
