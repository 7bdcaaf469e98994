/**
 * JSON read without changing a number. JSON.parse turns every number into the nearest double, so a signed
 * `12345678901234567891` would reach the workflow as 12345678901234567000, and `1e400` as Infinity (null once n8n
 * stores it). Here a number is kept as its JSON text, a string, when its double does not print as the same decimal,
 * or when it is a whole number beyond Number.MAX_SAFE_INTEGER (2^53 - 1: next to one, other whole numbers read as
 * the same double, so the type of an id would depend on its value); every other value is JSON.parse's.
 */

/**
 * A number token of at most 15 characters without an exponent has at most 15 significant digits and lies between
 * 1e-13 and 1e15: its double prints back as the same decimal (IEEE 754 doubles keep 15 decimal digits, DBL_DIG).
 * Only longer tokens, or tokens with an exponent, can change; this finds where one may start (or a string that
 * looks like one, which only costs the exact pass). JSON's four whitespace characters, not \s: Unicode's class is slower.
 */
const MAY_CHANGE = /[:,[][ \t\r\n]*-?(?:\d[\d.]{15}|[\d.]+[eE])/;

/** Strings (Friedl's "unrolling the loop", linear) and number tokens of a text JSON.parse accepted. */
const TOKENS = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"|-?\d[\d.eE+-]*/g;

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A nonzero finite decimal as sign, significant digits (no leading or trailing zeros) and exponent. */
function canonical(text: string): string | undefined {
	const match = NUMBER.exec(text);
	if (!match) return undefined;
	const [, sign, whole, fraction = '', exponent = '0'] = match;
	const all = (whole + fraction).replace(/^0+/, '');
	const digits = all.replace(/0+$/, '');
	return `${sign}${digits}e${Number(exponent) - fraction.length + all.length - digits.length}`;
}

/** Whether JSON.parse reads the token as a number of the same decimal value, and a safe one if it is whole. */
function readsExactly(token: string): boolean {
	if (token.length < 16 && !token.includes('e') && !token.includes('E')) return true;
	const number = Number(token);
	if (!Number.isFinite(number) || (Number.isInteger(number) && !Number.isSafeInteger(number))) return false;
	// Zero is exact only when every digit is zero (1e-400 also reads as 0); a nonzero double has a finite exponent.
	if (number === 0) return /^-?[0.]+(?:[eE]|$)/.test(token);
	const printed = String(number);
	return printed === token || canonical(printed) === canonical(token);
}

/** Parses like JSON.parse (and throws like it), keeping numbers that would change as their JSON text. */
export function parseJsonExactly(text: string): unknown {
	const value: unknown = JSON.parse(text);
	if (!MAY_CHANGE.test(text)) return value;
	let rewritten = '';
	let copied = 0;
	for (const match of text.matchAll(TOKENS)) {
		const token = match[0];
		if (token.charCodeAt(0) === 0x22 || readsExactly(token)) continue;
		const at = match.index ?? 0;
		// A number token holds no character that needs escaping in a string.
		rewritten += `${text.slice(copied, at)}"${token}"`;
		copied = at + token.length;
	}
	return copied === 0 ? value : JSON.parse(rewritten + text.slice(copied));
}
