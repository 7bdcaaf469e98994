'use strict';
/**
 * Request bodies of an exact size in the shapes that cost a reader most: JSON (JSON.parse and the exact-number reader)
 * and forms (percent-decoding, many fields). Each shape is `make(n)`, the body text with `n` units; `fill` finds the
 * largest `n` that fits the size and pads the rest. Every body is deterministic: the same bytes in every run.
 */

const { createPrng } = require('../sandbox/prng');

/**
 * `count` values of `make(i, next)`, `next` a generator seeded by `seed` and `i`: a prefix never changes, and nothing
 * is kept between calls (a cache of every value tried while fitting a body would weigh on the collector).
 */
function series(seed, make) {
	return (count) =>
		Array.from({ length: count }, (_, i) => make(i, createPrng(seed * 0x100000 + i)));
}

/** A body of exactly `bytes` bytes: `make(n)` for the largest `n` whose text fits, padded with `pad`. */
function fill(bytes, make, pad) {
	const fits = (units) => Buffer.byteLength(make(units)) <= bytes;
	// Doubling first, so that no text tried is much longer than the body (a string has a largest length).
	let high = 1;
	while (high < bytes && fits(high)) high *= 2;
	let low = high === 1 ? 0 : high / 2;
	high = Math.min(high, bytes);
	while (low < high) {
		const mid = Math.ceil((low + high) / 2);
		if (fits(mid)) low = mid;
		else high = mid - 1;
	}
	const text = make(low);
	return Buffer.from(text + pad.repeat(bytes - Buffer.byteLength(text)));
}

/** An event whose object carries `payload` (JSON text) in a field. */
const inEvent = (payload) =>
	`{"id":"evt_bench","event":"transfers.created","data":{"object":{"id":"tr_1","n":${payload}}}}`;
const smallObject = (i) =>
	`{"id":"tr_${i}","amount":{"value":1250,"currency":"EUR"},"status":"created","live":false}`;
const FIELDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/** Objects whose every field is a number token (each from `token(i)`). */
const numberObjects = (seed, token) => {
	const tokens = series(seed, token);
	return (count) => {
		const all = tokens(count * FIELDS.length);
		const object = (i) =>
			`{${FIELDS.map((name, f) => `"${name}":${all[i * FIELDS.length + f]}`).join(',')}}`;
		return `{"event":"transfers.created","data":[${Array.from({ length: count }, (_, i) => object(i)).join(',')}]}`;
	};
};

/** A JSON list of `count` copies of `token` (or of `token(i)`), in an event. */
const numbers = (token) => (count) =>
	inEvent(
		`[${Array.from({ length: count }, (_, i) => (typeof token === 'function' ? token(i) : token)).join(',')}]`,
	);
const distinct = (seed, make) => {
	const tokens = series(seed, make);
	return (count) => inEvent(`[${tokens(count).join(',')}]`);
};

/** A random double in [0.1, 1) printed at its shortest (16 or 17 digits): a number JavaScript holds as written. */
const shortestDouble = (_, next) => String(0.1 + 0.9 * next());
/** The same with its last digit changed: a decimal no double prints as (kept as text). */
const offByOneDigit = (_, next) => {
	const text = String(0.1 + 0.9 * next());
	const last = Number(text[text.length - 1]);
	return text.slice(0, -1) + String(last === 9 ? 1 : last + 1);
};
/** 1 + c/2^17 holds 17 decimals exactly; one digit less, rounded either way, lies exactly halfway to the double. */
const tieToDouble = (i, next) => {
	const c = 2 * Math.floor(next() * 65536) + 1;
	const exact = (1 + c / 131072).toFixed(17);
	const down = exact.slice(0, -1);
	if (i % 2 === 0) return down;
	const up = (BigInt(down.replace('.', '')) + 1n).toString();
	return `${up[0]}.${up.slice(1)}`;
};
/** A subnormal double printed at its shortest. */
const subnormal = (_, next) => String(Math.floor(next() * 2 ** 52) * 5e-324);
/** 17 random digits with an exponent far from 0: outside the range where 10^p is one double. */
const farExponent = (_, next) =>
	`${(1 + 9 * next()).toFixed(16)}e-2${10 + Math.floor(next() * 89)}`;
const bigWhole = (_, next) => String(9007199254740993n + BigInt(Math.floor(next() * 1e9)));

/** JSON shapes: name → text of `n` units. Each is the worst of its kind for some reading. */
const JSON_SHAPES = {
	'one long string': (n) => inEvent(`"${'x'.repeat(n)}"`),
	'many small objects': (n) =>
		`{"event":"transfers.created","data":[${Array.from({ length: n }, (_, i) => smallObject(i)).join(',')}]}`,
	'numbers 1e1': numbers('1e1'),
	'numbers 9e9': numbers('9e9'),
	'numbers 1e400 (kept as text)': numbers('1e400'),
	'numbers 1e-400 (kept as text)': numbers('1e-400'),
	'numbers 0e400, -0': numbers((i) => (i % 2 ? '-0' : '0e400')),
	'whole numbers 1e16 (kept as text)': numbers('1e16'),
	'whole numbers 2^53 - 1, 2^53 + 1': numbers((i) =>
		i % 2 ? '9007199254740991' : '9007199254740993',
	),
	'whole numbers 1e15, 9.007199254740991e15': numbers((i) =>
		i % 2 ? '1e15' : '9.007199254740991e15',
	),
	'distinct whole numbers beyond 2^53': distinct(1, bigWhole),
	'distinct 15-digit decimals': distinct(2, (_, next) => (0.1 + 0.9 * next()).toFixed(15)),
	'distinct 16-digit decimals': distinct(3, (_, next) => (0.1 + 0.9 * next()).toPrecision(16)),
	'distinct 16-17-digit doubles at their shortest': distinct(4, shortestDouble),
	'distinct 17-digit decimals off by one digit': distinct(5, offByOneDigit),
	'distinct 17-digit decimals halfway to a double': distinct(6, tieToDouble),
	'distinct 17-digit decimals, exponents -210 to -298': distinct(7, farExponent),
	'distinct subnormal doubles': distinct(8, subnormal),
	'repeated 17-digit decimal': numbers('0.12345678901234567'),
	'many objects, every field 1e400': numberObjects(9, () => '1e400'),
	'many objects, fields distinct 17-digit decimals': numberObjects(10, offByOneDigit),
	'many objects, fields distinct doubles at their shortest': numberObjects(11, shortestDouble),
	'many objects, fields distinct subnormal doubles': numberObjects(12, subnormal),
	'numbers in strings': numbers('"1e400"'),
	'deep nesting, one 1e400': (n) => inEvent(`${'['.repeat(n)}1e400${']'.repeat(n)}`),
	'deep objects, one 1e400': (n) => inEvent(`${'{"a":'.repeat(n)}1e400${'}'.repeat(n)}`),
	'many keys of 1e1': (n) =>
		inEvent(`{${Array.from({ length: n }, (_, i) => `"k${i}":1e1`).join(',')}}`),
	'many keys, one 1e400': (n) =>
		inEvent(`{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')},"z":1e400}`),
	'one key repeated, 1e400 each (kept as text)': (n) =>
		inEvent(`{${Array(n).fill('"a":1e400').join(',')}}`),
	'one key repeated, lists of 1e400': (n) => inEvent(`{${Array(n).fill('"a":[1e400]').join(',')}}`),
	'whitespace, one 1e400': (n) => inEvent(`[${' '.repeat(n)}1e400]`),
	'short whitespace runs between numbers, one 1e400': (n) =>
		inEvent(`[${Array(n).fill('1').join(',\n               ')},1e400]`),
	'short strings, one 1e400': (n) => inEvent(`[${Array(n).fill('"a"').join(',')},1e400]`),
	'escaped quotes, one 1e400': (n) => inEvent(`["${'\\"'.repeat(n)}",1e400]`),
	'escaped backslashes before quotes, one 1e400': (n) =>
		inEvent(`[${Array(n).fill('"\\\\"').join(',')},1e400]`),
	'non-ASCII text, one 1e400': (n) => inEvent(`["${'é'.repeat(n)}",1e400]`),
	'true, false, null, one 1e400': (n) =>
		inEvent(
			`[${Array.from({ length: n }, (_, i) => ['true', 'false', 'null'][i % 3]).join(',')},1e400]`,
		),
	'empty objects and lists, one 1e400': (n) =>
		inEvent(`[${Array.from({ length: n }, (_, i) => (i % 2 ? '{}' : '[]')).join(',')},1e400]`),
	'not JSON from its first byte': (n) => `x${numbers('1e400')(n)}`,
};

const fields = (count, field) => Array.from({ length: count }, (_, i) => field(i)).join('&');

/** Form shapes: name → text of `n` units. */
const FORM_SHAPES = {
	"one field of '+'": (n) => `a=${'+'.repeat(n)}`,
	'one field without escapes': (n) => `a=${'x'.repeat(n)}`,
	'1,000 fields of %41 escapes': (n) => fields(1000, (i) => `f${i}=${'%41'.repeat(n)}`),
	'1,000 fields of two-byte UTF-8 escapes': (n) =>
		fields(1000, (i) => `f${i}=${'%C3%A9'.repeat(n)}`),
	"1,000 fields of '+'": (n) => fields(1000, (i) => `f${i}=${'+'.repeat(n)}`),
	"one field, a '+' every 64 bytes": (n) => `a=${`${'x'.repeat(63)}+`.repeat(n)}`,
	"one field of '+x'": (n) => `a=${'+x'.repeat(n)}`,
	'one field of unescaped two-byte UTF-8': (n) => `a=${'é'.repeat(n)}`,
	'1,000 fields of %26 (escaped separators)': (n) =>
		fields(1000, (i) => `f${i}=${'%26'.repeat(n)}`),
	"1,000 fields of '='": (n) => fields(1000, (i) => `f${i}=${'='.repeat(n)}`),
	'1,000 names without values': (n) => fields(1000, (i) => `${'x'.repeat(n)}${i}`),
	'1,000 fields, names in reverse order': (n) =>
		fields(1000, (i) => `${'z'.repeat(n)}${999 - i}=v`),
	'1,000 fields, names sharing a prefix, shuffled': (n) =>
		fields(1000, (i) => `${'z'.repeat(n)}${(i * 7919) % 1000}=v`),
	'1,000 fields, two groups of names sharing a prefix, shuffled': (n) =>
		fields(1000, (i) => `${i % 2 ? 'a' : 'b'}${'z'.repeat(n)}${(i * 7919) % 1000}=v`),
	'1,000 fields, escaped names sharing a prefix': (n) =>
		fields(1000, (i) => `${'%7A'.repeat(n)}${(i * 7919) % 1000}=v`),
	'1,000 fields, one name, values sharing a prefix': (n) =>
		fields(1000, (i) => `a=${'v'.repeat(n)}${(i * 7919) % 1000}`),
	'1,000 tiny fields, then padding': () => fields(1000, (i) => `f${i}=${i}`),
	'over 1,000 tiny fields': (n) => fields(n, (i) => `${i % 10}`),
	"escapes without hex digits ('%zz')": (n) => `a=${'%zz'.repeat(n)}`,
	'not UTF-8 from its first byte': (n) => `a=%FF${'%41'.repeat(n)}`,
};

module.exports = { FORM_SHAPES, JSON_SHAPES, fill, series };
