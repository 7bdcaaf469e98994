import { bodyKind, formFields, mediaType, parseFormBody, parseJsonBody, valueAtPath, valuesAtPath } from '../../nodes/TenantApiTrigger/body';
import { eventAccepted, eventType, parseEventList, safeHeaders } from '../../nodes/TenantApiTrigger/delivery';

describe('parseJsonBody', () => {
	it('parses a JSON object from the raw bytes (BOM tolerated)', () => {
		expect(parseJsonBody(Buffer.from('{"a":1}'))).toEqual({ ok: true, body: { a: 1 } });
		expect(parseJsonBody(Buffer.from('\ufeff{"a":"é"}'))).toEqual({ ok: true, body: { a: 'é' } });
	});

	it('gives a reason for empty, broken and non-object bodies', () => {
		expect(parseJsonBody(Buffer.alloc(0))).toEqual({ ok: false, reason: 'empty_body' });
		expect(parseJsonBody(Buffer.from(' \n '))).toEqual({ ok: false, reason: 'empty_body' });
		expect(parseJsonBody(Buffer.from('{"a":'))).toEqual({ ok: false, reason: 'invalid_json' });
		expect(parseJsonBody(Buffer.from('a=1&b=2'))).toEqual({ ok: false, reason: 'invalid_json' });
		expect(parseJsonBody(Buffer.from('[1,2]'))).toEqual({ ok: false, reason: 'not_an_object' });
		expect(parseJsonBody(Buffer.from('null'))).toEqual({ ok: false, reason: 'not_an_object' });
		expect(parseJsonBody(Buffer.from('"text"'))).toEqual({ ok: false, reason: 'not_an_object' });
	});
});

describe('parseFormBody and content types', () => {
	it('reads form fields from the raw bytes; a repeated name keeps every value', () => {
		expect(parseFormBody(Buffer.from('a=1&b=x+y%21&a=2&c='))).toEqual({ ok: true, body: { a: ['1', '2'], b: 'x y!', c: '' } });
		expect(parseFormBody(Buffer.from('__proto__=x')).ok && Object.keys((parseFormBody(Buffer.from('__proto__=x')) as { body: object }).body)).toEqual(['__proto__']);
		expect(parseFormBody(Buffer.from(''))).toEqual({ ok: false, reason: 'empty_body' });
		expect(parseFormBody(Buffer.from([0x61, 0x3d, 0xe9]))).toEqual({ ok: false, reason: 'not_utf8' });
		expect(parseFormBody(Buffer.from(Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&')))).toEqual({ ok: false, reason: 'invalid_form' });
	});

	it('maps content types to a parser: JSON by default, form fields, nothing else', () => {
		expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
		expect(mediaType(undefined)).toBe('');
		expect(['', 'application/json', 'application/cloudevents+json', 'text/plain'].map(bodyKind)).toEqual(['json', 'json', 'json', 'json']);
		expect(bodyKind('application/x-www-form-urlencoded')).toBe('form');
		expect(['multipart/form-data', 'application/xml', 'application/octet-stream'].map(bodyKind)).toEqual([undefined, undefined, undefined]);
	});
});

describe('event type', () => {
	it('reads a dot path, a literal dotted key, and falls back to "type"', () => {
		const body = { event: 'transfers.created', type: 'other', data: { object: { kind: 'k' } }, 'a.b': 'literal' };
		expect(eventType(body, 'event')).toBe('transfers.created');
		expect(eventType(body, 'data.object.kind')).toBe('k');
		expect(valueAtPath(body, 'a.b')).toBe('literal');
		expect(eventType({ type: 'accounts.updated' }, 'event')).toBe('accounts.updated');
		expect(eventType({ event: '', type: 'x' }, 'event')).toBe('x');
		expect(eventType({ event: 5 }, 'event')).toBeUndefined();
		expect(eventType({}, '')).toBeUndefined();
		expect(valueAtPath({ a: [{ b: 1 }] }, 'a.0.b')).toBe(1);
		expect(valueAtPath({ a: [{ b: 1 }] }, 'a.x.b')).toBeUndefined();
		expect(valuesAtPath({ n: [{ i: { v: 1 } }, { i: { v: 2 } }, { j: 3 }] }, 'n.*.i')).toEqual([{ v: 1 }, { v: 2 }]);
		expect(valueAtPath({}, 'constructor')).toBeUndefined();
	});
});

describe('event filter', () => {
	it('parses the list', () => {
		expect(parseEventList(' transfers.created, ,accounts.*\nx ')).toEqual(['transfers.created', 'accounts.*', 'x']);
		expect(parseEventList('')).toEqual([]);
		expect(parseEventList(undefined)).toEqual([]);
	});

	it('matches exactly, by prefix with *, and treats an empty list as all', () => {
		expect(eventAccepted([], 'anything')).toBe(true);
		expect(eventAccepted([], undefined)).toBe(true);
		expect(eventAccepted(['*'], undefined)).toBe(true);
		expect(eventAccepted(['transfers.created'], 'transfers.created')).toBe(true);
		expect(eventAccepted(['transfers.created'], 'Transfers.Created')).toBe(false);
		expect(eventAccepted(['transfers.created'], 'transfers.created.extra')).toBe(false);
		expect(eventAccepted(['accounts.*'], 'accounts.updated')).toBe(true);
		expect(eventAccepted(['accounts.*'], 'transfers.created')).toBe(false);
		expect(eventAccepted(['accounts.*'], undefined)).toBe(false);
	});
});

describe('safeHeaders', () => {
	it('drops credential-bearing headers and the configured secret header', () => {
		const headers = { 'content-type': 'application/json', authorization: 'Bearer x', cookie: 'a=b', 'x-webhook-secret': 's', 'x-signature': 'sig', skipped: undefined };
		expect(safeHeaders(headers, ['X-Webhook-Secret'])).toEqual({ 'content-type': 'application/json', 'x-signature': 'sig' });
	});
});

describe('formFields', () => {
	it.each([
		'a=1&b=2',
		'a=1&a=2&&b',
		'x=caf%C3%A9+au+lait&y=%2B%26%3D',
		'bad=%ZZ%&ok=1%2',
		'=empty-name&name=',
		'k%20ey=v%20al+ue',
		'latin1=%E9&lone=%&half=%4&mixed=%C3%A9%E9+%41',
	])('decodes %s exactly as URLSearchParams does', (text) => {
		const expected = new Map<string, string[]>();
		for (const [name, value] of new URLSearchParams(text)) expected.set(name, [...(expected.get(name) ?? []), value]);
		expect(formFields(Buffer.from(text))).toEqual(expected);
	});
});
