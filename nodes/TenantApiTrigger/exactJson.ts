/**
 * JSON numbers as the sender wrote them. JSON.parse turns every number into the nearest double, so
 * a signed `12345678901234567891` would reach the workflow as 12345678901234567000, and `1e400` as
 * Infinity. A number is kept as its text when its double does not stand for the same decimal, or
 * when it is a whole number beyond Number.MAX_SAFE_INTEGER (next to one, other whole numbers read
 * as the same double); every other value is JSON.parse's own.
 *
 * Only a number of 16 digits or more, or one with an exponent, can be such a number, and a body
 * without one (most) keeps JSON.parse's value. In one that has it, each such number is put in
 * quotes and JSON.parse reads the text again: its text is then what the workflow gets.
 */

/**
 * A number token (first, or after `:`, `,` or `[`) with an exponent, or with 16 digits (a point
 * among them). Text in strings may match too; then the quoting below finds nothing to do.
 */
const MAY_BE_INEXACT = /(?:^|[:,[])[ \t\n\r]*-?(?:\d+(?:\.\d+)?[eE]|(?:\d\.?){16})/;

/** The same test for one number token. */
const MAY_BE_INEXACT_TOKEN = /[eE]|(?:\d\.?){16}/;

/** The tokens of JSON text that JSON.parse accepted: strings (skipped whole) and numbers. */
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

/**
 * `text` with every number token a double cannot hold exactly in quotes; undefined when there is
 * none.
 */
function quoteInexactNumbers(text: string): string | undefined {
	let quoted = '';
	let copied = 0;
	for (const { 0: token, index: at } of text.matchAll(STRING_OR_NUMBER)) {
		if (token[0] === '"' || !MAY_BE_INEXACT_TOKEN.test(token)) continue;
		if (typeof exactNumber(token) === 'number') continue;
		quoted += `${text.slice(copied, at)}"${token}"`;
		copied = at + token.length;
	}
	return copied === 0 ? undefined : quoted + text.slice(copied);
}

/**
 * The value JSON.parse gave for `text`, with every number a double cannot hold exactly as its text.
 */
export function withExactNumbers(text: string, parsed: unknown): unknown {
	const quoted = MAY_BE_INEXACT.test(text) ? quoteInexactNumbers(text) : undefined;
	return quoted === undefined ? parsed : JSON.parse(quoted);
}
