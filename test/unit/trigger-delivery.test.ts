import {
	eventAccepted,
	eventType,
	parseEventList,
	parseJsonBody,
	safeHeaders,
	valueAtPath,
} from '../../nodes/TenantApiTrigger/delivery';

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
		expect(valueAtPath({ a: [{ b: 1 }] }, 'a.0.b')).toBeUndefined();
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
