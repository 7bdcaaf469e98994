/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: fs, path and __dirname read the manual's examples */
/**
 * Who a delivery is (nodes/TenantApiTrigger/identity.ts): the id rule (the signed id header; else the Delivery ID
 * Fields when the body has them all; else the SHA-256 of the verified bytes), several fields joined one way, dot
 * paths, and the event type and Events filter. That a signed header or URL names the delivery with its body (a
 * re-signed retry keeping its id) is deliveryProperties.test.ts's, over every Signed Content.
 */
import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { deliveryIdentity, eventAccepted, eventType } from '../../nodes/TenantApiTrigger/identity';
import { settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import { parameterReader, receive, triggerSettings } from '../harness/verifier';

const RAW = Buffer.from(
	'{"id":"evt_1","event":"transfers.created","data":{"object":{"id":"tr_1"}}}',
);
const BODY = JSON.parse(RAW.toString()) as IDataObject;
const SHA256 = createHash('sha256').update(RAW).digest('hex');

const idOf = (body: IDataObject, idFields: string[], raw = Buffer.from(JSON.stringify(body))) =>
	deliveryIdentity({}, raw, body, idFields);

describe('the id rule', () => {
	it('the signed id header first, whatever the body and the Delivery ID Fields say', () => {
		expect(
			deliveryIdentity({ id: { value: 'msg_1', header: 'webhook-id' } }, RAW, BODY, ['id']),
		).toEqual({
			id: 'msg_1',
			idSource: 'header:webhook-id',
		});
	});

	it('else the Delivery ID Fields, when the body has every one of them', () => {
		expect(idOf(BODY, ['data.object.id'])).toEqual({ id: 'tr_1', idSource: 'body:data.object.id' });
		expect(idOf(BODY, ['id', 'missing'])).toEqual({ id: SHA256, idSource: 'body:sha256' });
	});

	it('else the SHA-256 of the verified bytes: never the body\'s "id", which may name a resource', () => {
		expect(idOf(BODY, [])).toEqual({ id: SHA256, idSource: 'body:sha256' });
	});

	it('scalars as read: text exactly (spaces kept), numbers and booleans as text, an exact big number as its text', () => {
		expect(idOf({ id: ' evt_1' }, ['id']).id).toBe(' evt_1');
		expect(idOf({ id: 42, ok: true }, ['id', 'ok']).id).toBe('42:true');
		expect(idOf({ id: '820982911946154508' }, ['id']).id).toBe('820982911946154508');
	});
});

describe('several Delivery ID Fields are joined one way', () => {
	it('each part escapes %, : and , before the parts are joined with ":"', () => {
		expect(idOf({ a: 'acme:42', b: '7' }, ['a', 'b'])).toEqual({
			id: 'acme%3A42:7',
			idSource: 'body:a,b',
		});
		expect(idOf({ a: 'acme', b: '42:7' }, ['a', 'b']).id).toBe('acme:42%3A7');
		expect(idOf({ a: '50%', b: 'x,y' }, ['a', 'b']).id).toBe('50%25:x%2Cy');
	});
});

describe('dot paths', () => {
	const body = {
		'a.b': 'literal',
		a: { b: 'nested' },
		items: [{ id: 'i0' }, { id: 'i1' }],
	} as IDataObject;

	it('walk own keys and list indexes; a key holding dots is never reached (the Event Path)', () => {
		expect(eventType(body, 'a.b')).toBe('nested');
		expect(eventType(body, ' items.1.id ')).toBe('i1');
		expect(eventType(body, 'items.01.id')).toBeUndefined();
		expect(eventType(body, 'items.length')).toBeUndefined();
		expect(eventType(body, 'a.b.c')).toBeUndefined();
		expect(eventType(body, ' ')).toBeUndefined();
		expect(eventType(body, 'constructor')).toBeUndefined();
		expect(eventType({}, '__proto__')).toBeUndefined();
	});
});

describe('event type and Events filter', () => {
	it('the Event Path, else "type"; text only, trimmed', () => {
		expect(eventType({ event: ' transfers.created ', type: 'x' }, 'event')).toBe(
			'transfers.created',
		);
		expect(eventType({ type: 'accounts.updated' }, 'event')).toBe('accounts.updated');
		expect(eventType({ meta: { kind: 'k' } }, 'meta.kind')).toBe('k');
		expect(eventType({ event: 42, type: ' ' } as IDataObject, 'event')).toBeUndefined();
		expect(eventType({ event: 'e' }, '')).toBe('e');
	});

	it('the list: commas or new lines, blanks dropped', () => {
		const events = (value: unknown) =>
			settingsFromParameters('hmacSha256', parameterReader({ events: value })).events;
		expect(events('a.created, b.*\n\r c ,,')).toEqual(['a.created', 'b.*', 'c']);
		expect(events(42)).toEqual([]);
	});

	it('empty or * passes all (even without an event type); * at the end matches by prefix; otherwise exactly', () => {
		expect(eventAccepted([], undefined)).toBe(true);
		expect(eventAccepted(['x', '*'], undefined)).toBe(true);
		expect(eventAccepted(['transfers.*'], 'transfers.created')).toBe(true);
		expect(eventAccepted(['transfers.*'], 'transfersX')).toBe(false);
		expect(eventAccepted(['transfers.created'], 'transfers.created.v2')).toBe(false);
		expect(eventAccepted(['transfers.created'], undefined)).toBe(false);
	});
});

describe('a number under Delivery ID Fields is named as the sender wrote it (docs/trigger.md)', () => {
	const settings = triggerSettings({ verification: 'none', options: { idFields: 'id' } }, []);
	const idFor = (text: string) => {
		const decision = receive(settings, { body: text, headers: {} });
		if (decision.action !== 'start') throw new Error(`not started: ${JSON.stringify(decision)}`);
		return (decision.item.webhookDelivery as IDataObject).id;
	};

	it.each(['1', '1.0', '1e0', '10e-1', '-0', '1E2', '12345678901234567891'])(
		'{"id": %s} gives the id as written, though the item holds the number',
		(written) => expect(idFor(`{"event":"x","id": ${written},"note":"id: 7"}`)).toBe(written),
	);

	it('every example of the manual holds', () => {
		const manual = readFileSync(join(__dirname, '..', '..', 'docs', 'trigger.md'), 'utf8');
		const examples = [
			...manual.replace(/\n/g, ' ').matchAll(/`(\{"id": [^`]+\})` gives (?:the id )?`([^`]+)`/g),
		];
		expect(examples.length).toBeGreaterThanOrEqual(4);
		for (const [, body, id] of examples) expect(idFor(body)).toBe(id);
	});
});
