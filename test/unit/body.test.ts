/**
 * A verified body read once, in the Body Format (nodes/TenantApiTrigger/body.ts): strict UTF-8, a leading byte order
 * mark dropped, empty bodies, JSON that is not an object, the form decoding rules, and which Content-Types each
 * format takes; none of it before the request is authenticated. How numbers are kept exact is exactJson.test.ts.
 */
import type { BodyFormat } from '../../nodes/TenantApiTrigger/body';
import { mediaTypeFits, readBody } from '../../nodes/TenantApiTrigger/body';
import { sign } from '../../sandbox/signing';
import { receive, triggerSettings } from '../harness/verifier';

const MAX_FORM_FIELDS = 1000;

const read = (format: BodyFormat, body: string | Buffer) => readBody(format, Buffer.from(body));
const fields = (body: string) => {
	const reading = read('form', body);
	if (!reading.ok) throw new Error(`refused: ${reading.reason}`);
	return reading.object;
};

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

	it.each(['', '   ', '\r\n\t'])('%p is an empty body', (body) => {
		expect(read('json', body)).toEqual({ ok: false, reason: 'empty_body' });
	});

	it.each(['[{"a":1}]', '"text"', '42', 'null', 'true'])('%s is not an object', (body) => {
		expect(read('json', body)).toEqual({ ok: false, reason: 'not_an_object' });
	});

	it.each(['not json', '{"a":1,}', '{"a":1}{"b":2}', "{'a':1}", 'a=1&b=2'])(
		'%s is not JSON',
		(body) => {
			expect(read('json', body)).toEqual({ ok: false, reason: 'invalid_json' });
		},
	);
});

describe('form fields', () => {
	it('"+" is a space and percent-escapes are UTF-8, in names and values', () => {
		expect(fields('first+name=Ada+Lovelace&caf%C3%A9=cr%C3%A8me%2Bbr%C3%BBl%C3%A9e')).toEqual({
			'first name': 'Ada Lovelace',
			café: 'crème+brûlée',
		});
	});

	it('a repeated name keeps every value, in order, as a list', () => {
		expect(fields('a=1&b=x&a=2&a=3')).toEqual({ a: ['1', '2', '3'], b: 'x' });
	});

	it('empty segments are skipped; a body of them alone is empty', () => {
		expect(fields('&a=1&&b=2&')).toEqual({ a: '1', b: '2' });
		expect(read('form', '&&&')).toEqual({ ok: false, reason: 'empty_body' });
		expect(read('form', '  ')).toEqual({ ok: false, reason: 'empty_body' });
	});

	it.each([
		['a field without a name', 'a=1&=2'],
		['a lone % in a name', 'a=1&%=2'],
		['an escape that is not hex', 'a=%ZZ'],
		['a cut-off UTF-8 escape', 'a=%C3'],
		['an escaped byte that is not UTF-8', 'a=caf%E9'],
	])('%s is refused', (_name, body) => {
		expect(read('form', body)).toEqual({ ok: false, reason: 'invalid_form' });
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

describe('nothing of a request is read before it is authenticated (receiveDelivery)', () => {
	const SECRET = 'whsec_read_after';
	const XML = 'application/xml';
	const FORM_FIELDS = {
		verification: 'customHmac',
		customSignedContent: '{timestamp}.{formFields}',
		bodyFormat: 'form',
	};

	it.each([
		['not JSON', 'none', 'missing_signature', 'not json'],
		['not JSON', 'forged', 'signature_mismatch', 'not json'],
		['not JSON', 'signed', 'invalid_json', 'not json'],
		['XML', 'none', 'missing_signature', '<event/>', {}, XML],
		['XML', 'signed', 'unsupported_media_type', '<event/>', {}, XML],
		['a body with webhookDelivery', 'none', 'missing_signature', '{"webhookDelivery":{}}'],
		['an event Events leaves out', 'none', 'missing_signature', '{"event":"x"}', { events: 'y' }],
		// A Signed Content of an earlier version ({formFields}): refused before 300 KiB are read.
		[
			'{formFields}',
			'forged',
			'invalid_signed_content',
			`a=${'x'.repeat(300 * 1024)}`,
			FORM_FIELDS,
		],
	] as const)(
		'%s, signature %s: %s',
		(
			_name,
			signature,
			reason,
			body,
			parameters: Record<string, unknown> = {},
			contentType: string = 'application/json',
		) => {
			const headers: Record<string, string> = { 'content-type': contentType };
			if (signature === 'forged') headers['x-signature'] = 'ab'.repeat(32);
			if (signature === 'signed') Object.assign(headers, sign({ secret: SECRET, body }));
			const settings = triggerSettings({ verification: 'hmacSha256', ...parameters }, [SECRET]);
			const decision = receive(settings, { body, headers });
			expect(decision.action === 'refuse' ? decision.reason : decision.action).toBe(reason);
		},
	);
});
