/**
 * JSON numbers as the sender wrote them. JSON.parse turns every number into the nearest double, so
 * a signed `12345678901234567891` would reach the workflow as 12345678901234567000, and `1e400` as
 * Infinity. A number is kept as its text when its double does not stand for the same decimal, or
 * when it is a whole number beyond Number.MAX_SAFE_INTEGER (next to one, other whole numbers read
 * as the same double); every other value is JSON.parse's own.
 *
 * Only a number of 16 digits or more, or one with an exponent, can be such a number. Each one where
 * a value starts is put in quotes before JSON.parse reads the text: its text is then what the
 * workflow gets. A number token and a string are the same to JSON wherever a value goes, so quoting
 * one changes no text's validity; digits that only look like a value inside a string make the
 * quoted text invalid, and the text is then quoted again with its strings skipped. Every step is
 * linear in the text, and none needs more stack for a longer one: the patterns below look at a few
 * characters around each number, and strings are skipped a character at a time, never matched by a
 * pattern (one that matches a whole string backtracks once per escape in it, and V8 gives up after
 * a few million).
 */

/** Where a value starts, a run of 16 digits and points or an exponent: most bodies have none. */
const MAY_BE_INEXACT = /[:,[][ \t\n\r]*-?(?:\d[\d.]{15}|[\d.]+[eE])/;
/** A text that is a number itself (never a body, which is an object). */
const NUMBER_FIRST = /^[ \t\n\r]*-?\d/;

/**
 * A whole number token (a JSON number: no leading zero, nothing of a number after it) with an
 * exponent or 16 digits, where a value starts: first, or after `:`, `,` or `[`, and not a key (no
 * `:` after it).
 */
const VALUE_THAT_MAY_BE_INEXACT =
	/((?:^|[:,[])[ \t\n\r]*)(?=-?(?:\d+(?:\.\d+)?[eE]|(?:\d\.?){16}))(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\d.eE+-]|[ \t\n\r]*:)/g;

/** Any number token where a value starts (as above, whatever its length). */
const VALUE_NUMBER =
	/((?:^|[:,[])[ \t\n\r]*)(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\d.eE+-]|[ \t\n\r]*:)/g;

/**
 * A decimal's digits without leading or trailing zeros, and its exponent: `1.50e2` and `150` read
 * `15e1`.
 */
function canonicalDecimal(text: string): string {
	const [, sign, whole, fraction = '', exponent = '0'] =
		/^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(text) ?? [];
	const digits = `${whole}${fraction}`.replace(/^0+/, '');
	if (digits === '') return '0';
	let end = digits.length;
	while (digits[end - 1] === '0') end -= 1; // not /0+$/: it tries every zero of a run again
	const significant = digits.slice(0, end);
	const power = Number(exponent) - fraction.length + (digits.length - significant.length);
	return `${sign}${significant}e${power}`;
}

/**
 * A number token as the workflow gets it: JSON.parse's double, or the token's text when the double
 * differs.
 */
function exactNumber(token: string): number | string {
	const value = Number(token);
	if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
		return token;
	return canonicalDecimal(token) === canonicalDecimal(String(value)) ? value : token;
}

/** Where the string that opens at `open` ends: after its closing quote (or the text's end). */
function afterString(text: string, open: number): number {
	for (let at = open + 1; at < text.length; at += 1) {
		const char = text[at];
		if (char === '\\') at += 1;
		else if (char === '"') return at + 1;
	}
	return text.length;
}

const isInexact = (token: string) => typeof exactNumber(token) === 'string';

/**
 * The text with each number token `numbers` finds where a value starts put in quotes when `quoted`
 * says so (the text itself when there is none); with `skipStrings`, only outside strings.
 */
function quoteNumbers(
	text: string,
	numbers: RegExp,
	quoted: (token: string) => boolean,
	skipStrings: boolean,
): string {
	const parts: string[] = [];
	let copied = 0;
	// The strings that open before `outside` are skipped; the next one opens at `nextString`.
	let outside = 0;
	let nextString = skipStrings ? text.indexOf('"') : -1;
	for (const match of text.matchAll(numbers)) {
		const [, before, token] = match;
		const at = (match.index as number) + before.length;
		while (nextString !== -1 && nextString < at) {
			outside = afterString(text, nextString);
			nextString = text.indexOf('"', outside);
		}
		if (outside > at || !quoted(token)) continue;
		parts.push(text.slice(copied, at), `"${token}"`);
		copied = at + token.length;
	}
	if (parts.length === 0) return text;
	parts.push(text.slice(copied));
	return parts.join('');
}

/**
 * Reads JSON text as JSON.parse does (and throws where it throws), every number a double cannot
 * hold exactly as its text.
 */
export function parseExactJson(text: string): unknown {
	if (!MAY_BE_INEXACT.test(text) && !NUMBER_FIRST.test(text)) return JSON.parse(text);
	const quoted = quoteNumbers(text, VALUE_THAT_MAY_BE_INEXACT, isInexact, false);
	if (quoted === text) return JSON.parse(text);
	try {
		return JSON.parse(quoted);
	} catch {
		// Digits inside a string were taken for a value (quoting them ends the string, and a string
		// followed by a number is never JSON), or the text is not JSON: quoted again, strings skipped.
		return JSON.parse(quoteNumbers(text, VALUE_THAT_MAY_BE_INEXACT, isInexact, true));
	}
}

/** Reads JSON text with every number as the text the sender wrote (`1.0` stays `"1.0"`). */
export function parseNumbersAsWritten(text: string): unknown {
	return JSON.parse(quoteNumbers(text, VALUE_NUMBER, () => true, true));
}
