/**
 * JSON read without changing a number (nodes/TenantApiTrigger/verifier/json.ts), against an independent lossless
 * reader (lossless-json): a number JavaScript holds as written arrives as a number, any other as its JSON text.
 */
import fc from 'fast-check';

import { parseJsonExactly } from '../../nodes/TenantApiTrigger/verifier';
import { jsonText, jsonValue, numberToken, referenceReading } from '../property/bodies';

const read = (text: string) => parseJsonExactly(text) as Record<string, unknown>;

it.each([
	['12345678901234567891', '12345678901234567891'],
	['9007199254740993', '9007199254740993'],
	['9007199254740992', '9007199254740992'],
	['9007199254740991', 9007199254740991],
	['1e400', '1e400'],
	['-1e-400', '-1e-400'],
	['0.10000000000000001', '0.10000000000000001'],
	['0.1', 0.1],
	['1.50', 1.5],
	['1E+2', 100],
	['-0.0e-0', -0],
	['5e-324', 5e-324],
	['123456789012.345678', '123456789012.345678'],
])('%s arrives as %p', (token, expected) => {
	expect(read(`{"a":${token}}`).a).toEqual(expected);
});

/** Tokens on both sides of what the search before the scan lets through: 15 and 16 characters, exponents, whitespace. */
const BOUNDARY_TOKENS = [
	'123456789012345',
	'-12345678901234',
	'0.0000000000001',
	'1234567890123456',
	'9007199254740993',
	'0.12345678901234567',
	'1e1',
	'1E+2',
	'-0',
	'0e400',
	'1e-400',
	'[\t\n 1e400]',
	'[ 12345678901234567891]',
];

it.each([
	['below the size searched first', 16 * 1024 - 600],
	['above it', 16 * 1024 + 100],
])(
	'texts %s: every token as the lossless reader reads it, alone and among others',
	(_, padding) => {
		const pad = `"pad":"${'x'.repeat(padding)}"`;
		for (const token of BOUNDARY_TOKENS) {
			const text = `{${pad},"v":${token}}`;
			expect(parseJsonExactly(text)).toEqual(referenceReading('json', Buffer.from(text)));
		}
		const all = `{${pad},"v":[${BOUNDARY_TOKENS.join(',')}]}`;
		expect(parseJsonExactly(all)).toEqual(referenceReading('json', Buffer.from(all)));
	},
);

it('digits inside strings are left alone; numbers beside them are still checked', () => {
	expect(read('{"card":"4111111111111111","n":12345678901234567891,"e":"1e400"}')).toEqual({
		card: '4111111111111111',
		n: '12345678901234567891',
		e: '1e400',
	});
	expect(read('{"s":"\\"x: 12345678901234567891","n":[1, 2.5, 1e400]}')).toEqual({
		s: '"x: 12345678901234567891',
		n: [1, 2.5, '1e400'],
	});
});

it('a repeated name keeps its last value in its first place, as JSON.parse reads it, numbers still exact', () => {
	const text = '{"id":"evt_1","n":1,"id":"evt_2","big":1,"big":12345678901234567891}';
	expect(Object.entries(read(text))).toEqual([
		['id', 'evt_2'],
		['n', 1],
		['big', '12345678901234567891'],
	]);
	expect(read(text)).toEqual(referenceReading('json', Buffer.from(text)));
});

it('throws on what JSON.parse throws on', () => {
	expect(() => parseJsonExactly('{"a":1,}')).toThrow(SyntaxError);
});

it('reads every generated JSON text as the independent lossless reader does', () => {
	const object = fc.dictionary(
		fc.string({ maxLength: 4 }),
		fc.oneof(jsonValue, numberToken.map(Number)),
		{ maxKeys: 5 },
	);
	fc.assert(
		fc.property(object, fc.constantFrom(undefined, 1), (value, space) => {
			const text = jsonText(value, space);
			expect(parseJsonExactly(text)).toEqual(referenceReading('json', Buffer.from(text)));
		}),
		{ seed: 20261125, numRuns: 3000 },
	);
});

describe('where the numbers are (the pass over the bytes)', () => {
	it.each([
		[
			'strings that look like numbers, keys among them',
			'{"1e400":"1e400","n":"12345678901234567891 1e400"}',
			{ '1e400': '1e400', n: '12345678901234567891 1e400' },
		],
		[
			'escaped quotes and backslashes before a number',
			'{"a\\"b\\\\":"\\"1e400\\\\","n":1e400}',
			{ 'a"b\\': '"1e400\\', n: '1e400' },
		],
		['an escaped key', '{"\\u0061":1e400,"b":1}', { a: '1e400', b: 1 }],
		[
			'text beyond ASCII before a number',
			'{"é":"ü€😀","n":[1e400,0.1,9007199254740993]}',
			{ é: 'ü€😀', n: ['1e400', 0.1, '9007199254740993'] },
		],
		[
			'whitespace of every kind',
			'{ "a" :\t[ 1e400 ,\r\n 2 ] ,\n"b":\t9007199254740993 }',
			{ a: ['1e400', 2], b: '9007199254740993' },
		],
		[
			'true, false, null beside numbers',
			'[true,1e400,false,null,1e16]',
			[true, '1e400', false, null, '1e16'],
		],
		[
			'a repeated key: the last value wins, as text when it changes',
			'{"a":1e400,"a":1,"b":1,"b":1e400}',
			{ a: 1, b: '1e400' },
		],
		[
			'a repeated key holding containers',
			'{"a":{"b":1e400},"a":{"b":2},"c":[1e400],"c":[3,1e16]}',
			{ a: { b: 2 }, c: [3, '1e16'] },
		],
		[
			'a key named __proto__',
			'{"__proto__":1e400,"x":{"__proto__":[1e400]}}',
			JSON.parse('{"__proto__":"1e400","x":{"__proto__":["1e400"]}}'),
		],
		[
			'nested lists and objects',
			'[[[1e400]],{"a":[{"b":[0.1,1e-400]}]}]',
			[[['1e400']], { a: [{ b: [0.1, '1e-400'] }] }],
		],
	])('%s', (_, text, expected) => {
		const read = parseJsonExactly(text);
		expect(read).toEqual(expected);
		expect(read).toEqual(referenceReading('json', Buffer.from(`{"v":${text}}`))?.v);
	});

	it('a number alone: kept as text when it changes', () => {
		expect(parseJsonExactly('1e400')).toBe('1e400');
		expect(parseJsonExactly(' 0.1 ')).toBe(0.1);
		expect(parseJsonExactly('0.10000000000000001')).toBe('0.10000000000000001');
	});

	it('a key named __proto__ stays an own property: no object gains a prototype', () => {
		const read = parseJsonExactly('{"__proto__":{"polluted":1e400}}') as Record<string, unknown>;
		expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
		expect(Object.keys(read)).toEqual(['__proto__']);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('deep nesting and long runs of whitespace', () => {
		const depth = 5000;
		const read = parseJsonExactly(
			`${'['.repeat(depth)}1e400${' '.repeat(10000)}${']'.repeat(depth)}`,
		);
		let value = read;
		for (let level = 0; level < depth; level++) value = (value as unknown[])[0];
		expect(value).toBe('1e400');
	});

	it('every alignment of every token against the 4-byte words the pass reads', () => {
		for (let pad = 0; pad < 8; pad++) {
			const bytes = Buffer.from(
				`${' '.repeat(pad)}{"a":"x\\"y","b":[1e400,"${'z'.repeat(pad)}",9007199254740993],"c":  \t 0.1}`,
			);
			for (let offset = 0; offset < 4; offset++) {
				const shifted = Buffer.alloc(bytes.length + offset);
				bytes.copy(shifted, offset);
				const view = shifted.subarray(offset);
				expect(parseJsonExactly(view.toString(), view)).toEqual({
					a: 'x"y',
					b: ['1e400', 'z'.repeat(pad), '9007199254740993'],
					c: 0.1,
				});
			}
		}
	});
});
