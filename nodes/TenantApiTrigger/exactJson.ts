/**
 * JSON numbers as the sender wrote them. JSON.parse turns every number into the nearest double, so
 * a signed `12345678901234567891` would reach the workflow as 12345678901234567000, and `1e400` as
 * Infinity. A number is kept as its text when its double does not stand for the same decimal, or
 * when it is a whole number beyond Number.MAX_SAFE_INTEGER (next to one, other whole numbers read
 * as the same double); every other value is JSON.parse's own.
 *
 * Only a number of 16 digits or more, or one with an exponent, can be such a number. Each one where
 * a value starts is put in quotes before JSON.parse reads the text, once: its text is then what the
 * workflow gets. A number token and a string are the same to JSON wherever a value goes, so quoting
 * one changes no text's validity; digits that only look like a value inside a string make the
 * quoted text invalid, and the text is then read again with every token in its place.
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

/** The tokens of JSON text: strings (kept whole) and numbers. */
const STRING_OR_NUMBER = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;

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

const quote = (token: string) => (typeof exactNumber(token) === 'number' ? token : `"${token}"`);

/**
 * Reads JSON text as JSON.parse does (and throws where it throws), every number a double cannot
 * hold exactly as its text.
 */
export function parseExactJson(text: string): unknown {
	if (!MAY_BE_INEXACT.test(text) && !NUMBER_FIRST.test(text)) return JSON.parse(text);
	let quoted = false;
	const candidate = text.replace(
		VALUE_THAT_MAY_BE_INEXACT,
		(_match, before: string, token: string) => {
			const written = quote(token);
			quoted ||= written !== token;
			return before + written;
		},
	);
	if (!quoted) return JSON.parse(text);
	try {
		return JSON.parse(candidate);
	} catch {
		// Digits inside a string were taken for a value, or the text is not JSON (which throws here):
		// every token in its place this time.
		JSON.parse(text);
		return JSON.parse(
			text.replace(STRING_OR_NUMBER, (token) => (token[0] === '"' ? token : quote(token))),
		);
	}
}
