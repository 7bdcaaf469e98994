/**
 * JSON read without changing a number (nodes/TenantApiTrigger/verification/json.ts), against an independent lossless
 * reader (lossless-json): a number JavaScript holds as written arrives as a number, any other as its JSON text.
 */
import fc from 'fast-check';

import { parseJsonExactly } from '../../nodes/TenantApiTrigger/verification';
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

it('digits inside strings are left alone; numbers beside them are still checked', () => {
	expect(read('{"card":"4111111111111111","n":12345678901234567891,"e":"1e400"}')).toEqual({ card: '4111111111111111', n: '12345678901234567891', e: '1e400' });
	expect(read('{"s":"\\"x: 12345678901234567891","n":[1, 2.5, 1e400]}')).toEqual({ s: '"x: 12345678901234567891', n: [1, 2.5, '1e400'] });
});

it('a repeated name keeps its last value in its first place, as JSON.parse reads it, numbers still exact', () => {
	const text = '{"id":"evt_1","n":1,"id":"evt_2","big":1,"big":12345678901234567891}';
	expect(Object.entries(read(text))).toEqual([['id', 'evt_2'], ['n', 1], ['big', '12345678901234567891']]);
	expect(read(text)).toEqual(referenceReading('json', Buffer.from(text)));
});

it('throws on what JSON.parse throws on', () => {
	expect(() => parseJsonExactly('{"a":1,}')).toThrow(SyntaxError);
});

it('reads every generated JSON text as the independent lossless reader does', () => {
	const object = fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(jsonValue, numberToken.map(Number)), { maxKeys: 5 });
	fc.assert(
		fc.property(object, fc.constantFrom(undefined, 1), (value, space) => {
			const text = jsonText(value, space);
			expect(parseJsonExactly(text)).toEqual(referenceReading('json', Buffer.from(text)));
		}),
		{ seed: 20261125, numRuns: 3000 },
	);
});
