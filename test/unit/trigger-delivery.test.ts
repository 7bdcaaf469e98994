import {
	eventAccepted,
	eventType,
	parseEventList,
	safeHeaders,
	safeQuery,
} from '../../nodes/TenantApiTrigger/delivery';
import {
	itemsAtPath,
	mediaType,
	mediaTypeFits,
	parseBody,
	parseForm,
	valueAtPath,
} from '../../nodes/TenantApiTrigger/verifier';

const json = (text: string | Buffer) => parseBody('json', Buffer.from(text));
const form = (text: string | Buffer) => parseBody('form', Buffer.from(text));

describe('JSON bodies', () => {
	it('parses a JSON object from the raw bytes (BOM tolerated)', () => {
		expect(json('{"a":1}')).toEqual({ ok: true, body: { format: 'json', object: { a: 1 } } });
		expect(json('\ufeff{"a":"é"}')).toEqual({
			ok: true,
			body: { format: 'json', object: { a: 'é' } },
		});
	});

	it('gives a reason for empty, broken, non-UTF-8 and non-object bodies', () => {
		expect(json(Buffer.alloc(0))).toEqual({ ok: false, reason: 'empty_body' });
		expect(json(' \n ')).toEqual({ ok: false, reason: 'empty_body' });
		expect(json('{"a":')).toEqual({ ok: false, reason: 'invalid_json' });
		expect(json('a=1&b=2')).toEqual({ ok: false, reason: 'invalid_json' });
		expect(json(Buffer.from([0x7b, 0x7d, 0xe9]))).toEqual({ ok: false, reason: 'not_utf8' });
		expect(json('[1,2]')).toEqual({ ok: false, reason: 'not_an_object' });
		expect(json('null')).toEqual({ ok: false, reason: 'not_an_object' });
		expect(json('"text"')).toEqual({ ok: false, reason: 'not_an_object' });
	});
});

describe('form bodies (the WHATWG urlencoded parser, strict)', () => {
	it('reads fields from the raw bytes; a repeated name keeps every value in order', () => {
		const parsed = form('a=1&b=x+y%21&a=2&c=');
		expect(parsed).toMatchObject({
			ok: true,
			body: { format: 'form', object: { a: ['1', '2'], b: 'x y!', c: '' } },
		});
		expect(parsed.ok && [...(parsed.body.format === 'form' ? parsed.body.fields : [])]).toEqual([
			['a', ['1', '2']],
			['b', ['x y!']],
			['c', ['']],
		]);
		const proto = form('__proto__=x');
		expect(proto.ok && Object.keys(proto.body.object)).toEqual(['__proto__']);
	});

	it.each([
		'a=1&b=2',
		'a=1&a=2&&b',
		'x=caf%C3%A9+au+lait&y=%2B%26%3D',
		'bad=%ZZ%&ok=1%2',
		'k%20ey=v%20al+ue',
		'lone=%&half=%4&bom=%EF%BB%BFx',
	])('decodes %s exactly as URLSearchParams does', (text) => {
		const expected = new Map<string, string[]>();
		for (const [name, value] of new URLSearchParams(text))
			expected.set(name, [...(expected.get(name) ?? []), value]);
		expect(parseForm(Buffer.from(text))).toEqual({ ok: true, fields: expected });
	});

	it('refuses what no sender sends: bytes that are not UTF-8, raw or escaped; a field without a name; over 1,000 fields', () => {
		expect(form(Buffer.from([0x61, 0x3d, 0xe9]))).toEqual({ ok: false, reason: 'not_utf8' });
		expect(form('latin1=%E9')).toEqual({ ok: false, reason: 'not_utf8' });
		expect(form('a=%C3')).toEqual({ ok: false, reason: 'not_utf8' });
		expect(form('=empty-name&name=')).toEqual({ ok: false, reason: 'invalid_form' });
		expect(form('a=1&=')).toEqual({ ok: false, reason: 'invalid_form' });
		expect(form(Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&'))).toEqual({
			ok: false,
			reason: 'invalid_form',
		});
		expect(form('')).toEqual({ ok: false, reason: 'empty_body' });
		expect(form('&&')).toEqual({ ok: false, reason: 'empty_body' });
	});
});

describe('content types against the configured body format', () => {
	it('JSON takes JSON types, text/plain and none; form takes only application/x-www-form-urlencoded', () => {
		expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
		expect(mediaType(undefined)).toBe('');
		expect(
			['', 'application/json', 'application/cloudevents+json', 'text/plain'].map((t) =>
				mediaTypeFits('json', t),
			),
		).toEqual([true, true, true, true]);
		expect(
			['application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml'].map((t) =>
				mediaTypeFits('json', t),
			),
		).toEqual([false, false, false]);
		expect(
			['application/x-www-form-urlencoded', '', 'application/json', 'text/plain'].map((t) =>
				mediaTypeFits('form', t),
			),
		).toEqual([true, false, false, false]);
	});
});

describe('dot paths walk objects only', () => {
	it('reads nested keys and list indexes, never a literal key containing dots', () => {
		const body = {
			event: 'transfers.created',
			data: { object: { kind: 'k' } },
			'data.object.kind': 'forged',
			a: [{ b: 1 }],
		};
		expect(valueAtPath(body, 'data.object.kind')).toBe('k');
		expect(valueAtPath({ 'a.b': 'literal' }, 'a.b')).toBeUndefined();
		expect(valueAtPath(body, 'a.0.b')).toBe(1);
		expect(valueAtPath(body, 'a.00.b')).toBeUndefined();
		expect(valueAtPath(body, 'a.x.b')).toBeUndefined();
		expect(valueAtPath({}, 'constructor')).toBeUndefined();
		expect(valueAtPath(body, '')).toBeUndefined();
	});

	it('items: every list entry must lead to an item and hold nothing beside it', () => {
		const item = (v: number) => ({ i: { v } });
		expect(itemsAtPath({ n: [item(1), item(2)] }, 'n.*.i')).toEqual([{ v: 1 }, { v: 2 }]);
		expect(itemsAtPath({ n: [item(1), { j: 3 }] }, 'n.*.i')).toBeUndefined();
		expect(itemsAtPath({ n: [item(1), { i: { v: 2 }, extra: 1 }] }, 'n.*.i')).toBeUndefined();
		expect(itemsAtPath({ n: { 0: item(1) } }, 'n.*.i')).toBeUndefined();
		expect(itemsAtPath({ n: [] }, 'n.*.i')).toEqual([]);
		expect(itemsAtPath({ 'n.0.i': { v: 1 } }, 'n.*.i')).toBeUndefined();
	});
});

describe('event type', () => {
	it('reads a dot path and falls back to "type"', () => {
		const body = { event: 'transfers.created', type: 'other', data: { object: { kind: 'k' } } };
		expect(eventType(body, 'event')).toBe('transfers.created');
		expect(eventType(body, 'data.object.kind')).toBe('k');
		expect(eventType({ 'data.object.kind': 'forged' }, 'data.object.kind')).toBeUndefined();
		expect(eventType({ type: 'accounts.updated' }, 'event')).toBe('accounts.updated');
		expect(eventType({ event: '', type: 'x' }, 'event')).toBe('x');
		expect(eventType({ event: 5 }, 'event')).toBeUndefined();
		expect(eventType({}, '')).toBeUndefined();
	});
});

describe('event filter', () => {
	it('parses the list', () => {
		expect(parseEventList(' transfers.created, ,accounts.*\nx ')).toEqual([
			'transfers.created',
			'accounts.*',
			'x',
		]);
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
		const headers = {
			'content-type': 'application/json',
			authorization: 'Bearer x',
			cookie: 'a=b',
			'x-webhook-secret': 's',
			'x-signature': 'sig',
			skipped: undefined,
		};
		expect(safeHeaders(headers, 'X-Webhook-Secret', [])).toEqual({
			'content-type': 'application/json',
			'x-signature': 'sig',
		});
	});

	it('drops every header a list names, and any header or query parameter that holds a secret', () => {
		const headers = {
			'x-callback-token': 'tok',
			'x-webhook-secret': 'shh-1234',
			'x-forwarded': 'via shh-1234',
			'x-other': 'ok',
		};
		expect(safeHeaders(headers, 'x-callback-token, x-webhook-secret,', ['shh-1234'])).toEqual({
			'x-other': 'ok',
		});
		expect(safeHeaders(headers, ' , ', ['shh-1234', ''])).toEqual({
			'x-callback-token': 'tok',
			'x-other': 'ok',
		});
		expect(
			safeQuery({ token: 'shh-1234', list: ['a', 'shh-1234'], shh1234: 'x', keep: '1' }, [
				' shh-1234 ',
			]),
		).toEqual({ shh1234: 'x', keep: '1' });
	});
});
