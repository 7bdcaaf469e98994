/**
 * JSON numbers as the sender wrote them (nodes/TenantApiTrigger/exactJson.ts), against an independent oracle: the
 * lossless-json reader, whose isSafeNumber says whether JavaScript holds a number token exactly. A number whose
 * double is another decimal, a whole number beyond MAX_SAFE_INTEGER, or one that is not finite is its text; every
 * other value is JSON.parse's (a repeated key and `__proto__`: body.test.ts). Over generated bodies (numbers of every
 * spelling, any escape, deep nesting, edited texts) the property campaign proves the same against its own reader
 * (test/unit/deliveryProperties.test.ts); here the written cases and bodies up to the limit.
 */
import { isSafeNumber, parse as losslessParse } from 'lossless-json';

import { readBody } from '../../nodes/TenantApiTrigger/body';
import { parseExactJson } from '../../nodes/TenantApiTrigger/exactJson';

/** The oracle: lossless-json's reading, its numbers JavaScript numbers when safe, else their text. */
function oracle(text: string): unknown {
	return losslessParse(text, undefined, {
		parseNumber: (token: string) => (isSafeNumber(token) ? Number(token) : token),
		// JSON.parse's rule for a repeated key: the last value, in the first one's place.
		onDuplicateKey: ({ newValue }) => newValue,
	});
}

const product = (text: string) => parseExactJson(text);

/** The manual's examples and the 2^53 boundary; the property campaign's bodies hold every other spelling. */
describe('number tokens', () => {
	it.each([
		['12345678901234567891', '12345678901234567891'],
		['820982911946154508', '820982911946154508'],
		['9007199254740992', '9007199254740992'],
		['-9007199254740992', '-9007199254740992'],
		['9007199254740991', 9007199254740991],
		['1e400', '1e400'],
		['1E+2', 100],
		['-0.0e-0', -0],
		['0e400', 0],
		['0.30000000000000004', 0.30000000000000004],
	])('%s arrives as %p', (token, expected) => {
		expect(parseExactJson(token)).toEqual(expected);
		expect(oracle(token)).toEqual(expected);
	});
});

describe('texts', () => {
	it.each([
		'{"a":1,1e400:2}',
		'{"a":"x:1e400",1e400:2}',
		'{"a":"x:1e400","b":1e400,}',
		'[01e400]',
		'{"a":1e400 1e400}',
		'{"a":-12345678901234567891.}',
	])(
		'%s is not JSON: it throws as JSON.parse does (a number that may be inexact where a key goes too)',
		(text) => {
			expect(() => JSON.parse(text)).toThrow(SyntaxError);
			expect(() => parseExactJson(text)).toThrow(SyntaxError);
		},
	);

	it.each([
		[
			'lists',
			(depth: number) => `${'['.repeat(depth)}1e400${']'.repeat(depth)}`,
			(v: unknown) => (v as unknown[])[0],
		],
		[
			'objects',
			(depth: number) => `${'{"a":'.repeat(depth)}1e400${'}'.repeat(depth)}`,
			(v: unknown) => (v as Record<string, unknown>).a,
		],
	])('100,000 levels of %s are read without overflowing the stack', (_name, text, inner) => {
		const depth = 100_000;
		let value = product(text(depth));
		for (let level = 0; level < depth; level++) value = inner(value);
		expect(value).toBe('1e400');
	});
});

describe("bodies up to n8n's payload limit (16 MiB): read exactly, however long a string and however many escapes", () => {
	/** A verified body as the trigger reads it; none of these is over the limit. */
	const read = (text: string) => {
		const bytes = Buffer.from(text);
		expect(bytes.length).toBeLessThanOrEqual(16 * 1024 * 1024);
		return readBody('json', bytes);
	};

	it('one string of 3.4 million escaped quotes, then digits in a string that look like a value (6.5 MiB)', () => {
		const text = '"'.repeat(3_400_000);
		const body = `{"text":${JSON.stringify(text)},"ref":"invoice:12345678901234567891"}`;
		expect(read(body)).toEqual({
			ok: true,
			object: { text, ref: 'invoice:12345678901234567891' },
		});
	});

	it('an export.ready event whose data is JSON text with a 19-digit id and 2.2 million tags (12.6 MiB)', () => {
		const tags = Array.from({ length: 2_200_000 }, (_, i) => String.fromCharCode(97 + (i % 26)));
		const data = `{"id":1234567890123456789,"tags":${JSON.stringify(tags)}}`;
		const body = JSON.stringify({ id: 'evt_1', event: 'export.ready', data });
		expect(read(body)).toEqual({ ok: true, object: { id: 'evt_1', event: 'export.ready', data } });
	});

	it('16 MiB of escaped quotes and backslashes around numbers, beside numbers a double cannot hold', () => {
		const note = `${'"'.repeat(16)}:1e400,\\[12345678901234567891`.repeat(270_000);
		const body = `{"note":${JSON.stringify(note)},"amount":12345678901234567891,"list":[1e400,0.5]}`;
		expect(read(body)).toEqual({
			ok: true,
			object: { note, amount: '12345678901234567891', list: ['1e400', 0.5] },
		});
	});

	it('a number of a million digits is read in one pass over them', () => {
		const [inexact, exact] = [`0.1${'0'.repeat(1e6)}1`, `1.5${'0'.repeat(1e6)}`];
		expect(read(`{"n":${inexact},"m":${exact}}`)).toEqual({
			ok: true,
			object: { n: inexact, m: 1.5 },
		});
	});

	it('15 MiB of blanks around a number, and a number of 15 MiB of digits, each read exactly', () => {
		const blanks = ' \n'.repeat(15 * 256 * 1024);
		expect(read(`{"a":${blanks}1e400${blanks}}`)).toEqual({ ok: true, object: { a: '1e400' } });
		const digits = `1${'2'.repeat(15 * 1024 * 1024)}`;
		expect(read(`{"n":${digits}}`)).toEqual({ ok: true, object: { n: digits } });
	});
});
