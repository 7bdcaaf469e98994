/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: fs, path and __dirname read the manual's examples */
/**
 * Who a delivery is (nodes/TenantApiTrigger/identity.ts): dot paths, the event type and Events filter, and the ids
 * the manual gives. The id rule itself (the signed id header; else the Delivery ID Fields when the body has them all,
 * several joined one way, scalars as written; else the SHA-256 of what is signed but the timestamp: a signed header
 * or URL with the body) is deliveryProperties.test.ts's, over every setting: its model computes each id.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { eventAccepted, eventType } from '../../nodes/TenantApiTrigger/identity';
import { settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import { parameterReader, receive, triggerSettings } from '../harness/verifier';

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
