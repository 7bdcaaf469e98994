/**
 * A verified body read once, in the Body Format (nodes/TenantApiTrigger/body.ts): strict UTF-8, a leading byte order
 * mark dropped, empty bodies, JSON that is not an object, the form decoding rules, and which Content-Types each
 * format takes. That none of it is read before the request is authenticated is deliveryProperties.test.ts's (every
 * request held to the model); how numbers are kept exact is exactJson.test.ts.
 */
import type { BodyFormat } from '../../nodes/TenantApiTrigger/body';
import { mediaTypeFits, readBody } from '../../nodes/TenantApiTrigger/body';

const MAX_FORM_FIELDS = 1000;

const read = (format: BodyFormat, body: string | Buffer) => readBody(format, Buffer.from(body));

describe('UTF-8, strictly', () => {
	it.each([
		['ISO-8859-1 é', Buffer.from('{"a":"é"}', 'latin1')],
		['a cut-off sequence', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d])],
		['an overlong encoding of "/"', Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d])],
		['an encoded surrogate', Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d])],
	])('%s is refused in both formats, never replaced', (_name, bytes) => {
		expect(readBody('json', bytes)).toEqual({ ok: false, reason: 'not_utf8' });
		expect(readBody('form', bytes)).toEqual({ ok: false, reason: 'not_utf8' });
	});

	it('a leading byte order mark is dropped', () => {
		expect(read('json', '\ufeff{"a":"é"}')).toEqual({ ok: true, object: { a: 'é' } });
		expect(read('form', '\ufeffa=1')).toEqual({ ok: true, object: { a: '1' } });
	});
});

describe('JSON', () => {
	it('an object, as JSON.parse reads it (key order, a repeated key, __proto__ an own key)', () => {
		const reading = read('json', ' {"b":1,"a":[true,null],"b":2,"__proto__":{"x":1}} ');
		expect(reading).toEqual({
			ok: true,
			object: JSON.parse('{"b":2,"a":[true,null],"__proto__":{"x":1}}'),
		});
		if (reading.ok) {
			expect(Object.keys(reading.object)).toEqual(['b', 'a', '__proto__']);
			expect(Object.getPrototypeOf(reading.object)).toBe(Object.prototype);
		}
	});

	it.each([
		...['', '   ', '\r\n\t'].map((body) => [body, 'empty_body']),
		...['[{"a":1}]', '"text"', '42', 'null', 'true'].map((body) => [body, 'not_an_object']),
		...['not json', '{"a":1,}', '{"a":1}{"b":2}', "{'a':1}", 'a=1&b=2'].map((body) => [
			body,
			'invalid_json',
		]),
	])('%p is refused: %s', (body, reason) => {
		expect(read('json', body)).toEqual({ ok: false, reason });
	});
});

describe('form fields', () => {
	it.each([
		[
			'"+" is a space and percent-escapes are UTF-8, in names and values',
			'first+name=Ada+Lovelace&caf%C3%A9=cr%C3%A8me%2Bbr%C3%BBl%C3%A9e',
			{ 'first name': 'Ada Lovelace', café: 'crème+brûlée' },
		],
		[
			'a repeated name keeps every value, in order, as a list',
			'a=1&b=x&a=2&a=3',
			{ a: ['1', '2', '3'], b: 'x' },
		],
		['empty segments are skipped', '&a=1&&b=2&', { a: '1', b: '2' }],
	])('%s', (_name, body, object) => {
		expect(read('form', body)).toEqual({ ok: true, object });
	});

	it.each([
		['a body of empty segments alone', '&&&', 'empty_body'],
		['a blank body', '  ', 'empty_body'],
		['a field without a name', 'a=1&=2', 'invalid_form'],
		['a lone % in a name', 'a=1&%=2', 'invalid_form'],
		['an escape that is not hex', 'a=%ZZ', 'invalid_form'],
		['a cut-off UTF-8 escape', 'a=%C3', 'invalid_form'],
		['an escaped byte that is not UTF-8', 'a=caf%E9', 'invalid_form'],
	])('%s is refused: %s', (_name, body, reason) => {
		expect(read('form', body)).toEqual({ ok: false, reason });
	});
	it(`at most ${MAX_FORM_FIELDS} fields`, () => {
		const many = (count: number) => Array.from({ length: count }, (_, i) => `f${i}=1`).join('&');
		expect(read('form', many(MAX_FORM_FIELDS)).ok).toBe(true);
		expect(read('form', many(MAX_FORM_FIELDS + 1))).toEqual({ ok: false, reason: 'invalid_form' });
	});
});

it('the Content-Types each format takes: JSON the JSON types, text/plain and none; form only its own', () => {
	const json = ['', 'application/json', 'application/cloudevents+json', 'text/plain'];
	const other = [
		'application/x-www-form-urlencoded',
		'multipart/form-data',
		'application/xml',
		'text/json',
	];
	for (const type of json) expect([type, mediaTypeFits('json', type)]).toEqual([type, true]);
	for (const type of other) expect([type, mediaTypeFits('json', type)]).toEqual([type, false]);
	expect(mediaTypeFits('form', 'application/x-www-form-urlencoded')).toBe(true);
	for (const type of [...json, 'multipart/form-data'])
		expect([type, mediaTypeFits('form', type)]).toEqual([type, false]);
});
