import { createHash } from 'crypto';

import type { KeyLineage } from '../../nodes/TenantApi/actions/idempotency/idempotencyKeys';
import {
	canonicalJson,
	conflictExplanation,
	deriveContentKey,
	deriveIdempotencyKey,
	duplicateKeyDescription,
	duplicateKeyMessage,
	eventScope,
	executionEvent,
	findDuplicateKeys,
	readLineage,
	validateIdempotencyKeyOverride,
} from '../../nodes/TenantApi/actions/idempotency/idempotencyKeys';

const scope = { workflowId: 'wf1', scope: '101', nodeId: 'node-a', runIndex: 0 };

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const request = {
	method: 'POST',
	endpoint: '/transfers',
	canonicalBody: canonicalJson({ amount: 1, ref: 'a' }),
};

describe('deriveIdempotencyKey and deriveContentKey', () => {
	it('are UUIDs (version 8, RFC variant), stable for the same item or request', () => {
		expect(deriveIdempotencyKey(scope, 0)).toMatch(UUID_V8);
		expect(deriveIdempotencyKey({ ...scope }, 0)).toBe(deriveIdempotencyKey(scope, 0));
		expect(deriveContentKey(scope, request, 1)).toMatch(UUID_V8);
		expect(deriveContentKey({ ...scope }, { ...request }, 1)).toBe(
			deriveContentKey(scope, request, 1),
		);
	});

	it('differ when any part of the scope, the item, the occurrence or the request differs, however the parts join', () => {
		const keys = [
			deriveIdempotencyKey(scope, 0),
			deriveIdempotencyKey(scope, 1),
			deriveIdempotencyKey({ ...scope, scope: '102' }, 0),
			deriveIdempotencyKey({ ...scope, scope: eventScope('Tenant API Trigger', '101') }, 0),
			deriveIdempotencyKey({ ...scope, runIndex: 1 }, 0),
			deriveIdempotencyKey({ ...scope, nodeId: 'node-b' }, 0),
			deriveIdempotencyKey({ ...scope, workflowId: 'wf2' }, 0),
			deriveIdempotencyKey({ ...scope, workflowId: 'a', scope: 'bc' }, 0),
			deriveIdempotencyKey({ ...scope, workflowId: 'ab', scope: 'c' }, 0),
			...Array.from({ length: 5 }, (_, item) => deriveIdempotencyKey(scope, item + 2)),
			deriveContentKey(scope, request, 1),
			deriveContentKey(scope, request, 2),
			deriveContentKey(
				scope,
				{ ...request, canonicalBody: canonicalJson({ amount: 2, ref: 'a' }) },
				1,
			),
			deriveContentKey(scope, { ...request, endpoint: '/payouts' }, 1),
			deriveContentKey(scope, { ...request, method: 'PUT' }, 1),
			deriveContentKey({ ...scope, scope: '102' }, request, 1),
			deriveContentKey({ ...scope, runIndex: 1 }, request, 1),
		];
		expect(new Set(keys).size).toBe(keys.length);
	});

	it('with an execution id as the scope, is the key earlier versions derived (workflow, execution, node, run, item)', () => {
		const digest = createHash('sha256')
			.update(['tenant-api-idempotency', 'wf1', '101', 'node-a', 0, 3].join('\u0000'))
			.digest('hex');
		expect(deriveIdempotencyKey(scope, 3).replace(/-/g, '').slice(0, 12)).toBe(digest.slice(0, 12));
	});

	it('gives 10,000 items 10,000 keys', () => {
		const keys = new Set(Array.from({ length: 10_000 }, (_, i) => deriveIdempotencyKey(scope, i)));
		expect(keys.size).toBe(10_000);
	});
});

describe('canonicalJson', () => {
	it('is the same for the same data in any key order, at every level', () => {
		expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: null } })).toBe(
			'{"a":{"c":null,"d":[1,{"e":1,"f":2}]},"b":1}',
		);
		expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
	});
	it('keeps the order of arrays and tells values apart', () => {
		expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
		expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
	});
});

describe('eventScope', () => {
	it('cannot collide with an execution id or with another trigger', () => {
		expect(eventScope('Trigger', '1')).not.toBe('1');
		expect(eventScope('A', 'b:c')).not.toBe(eventScope('A:b', 'c'));
	});

	it('gives an event the keys earlier versions sent for it, by position and by content', () => {
		const event = { ...scope, scope: eventScope('Tenant API Trigger', 'evt_1') };
		expect([deriveIdempotencyKey(event, 0), deriveIdempotencyKey(event, 1)]).toEqual([
			'761344d3-dc98-8af2-8103-d0b0e46f52b5',
			'bc112e97-c99d-8d8a-bdf2-4e3962db43ca',
		]);
		// The same body in another key order.
		const reordered = { ...request, canonicalBody: canonicalJson({ ref: 'a', amount: 1 }) };
		expect(deriveContentKey(event, reordered, 1)).toBe('209de196-1ba5-810a-86e9-e7cb06620f37');
	});
});

describe('executionEvent', () => {
	const item = (id: unknown) => ({ json: { ref: 'a', webhookDelivery: { id } } });

	it('is the id the trigger output carries: one item, or several that all carry it', () => {
		expect(executionEvent('Trigger', [item('evt_1')])).toEqual({ trigger: 'Trigger', id: 'evt_1' });
		expect(executionEvent('Trigger', [item('evt_1'), item('evt_1')])).toEqual({
			trigger: 'Trigger',
			id: 'evt_1',
		});
	});

	it.each([
		['no items', []],
		['an item without an id', [item(null)]],
		['an id that is not text', [item(7)]],
		['an item without webhookDelivery', [{ json: { id: 'evt_1' } }]],
		['two events', [item('evt_1'), item('evt_2')]],
		['an item without an id after one with', [item('evt_1'), item(null)]],
		['an item with an id after one without', [item(null), item('evt_1')]],
	])('is none (the execution lineage keys the writes) for %s', (_case, items) => {
		expect(executionEvent('Trigger', items)).toBeUndefined();
	});
});

describe('validateIdempotencyKeyOverride', () => {
	it('accepts business keys and numbers', () => {
		expect(validateIdempotencyKeyOverride(' order-42 ')).toBe('order-42');
		expect(validateIdempotencyKeyOverride(42)).toBe('42');
	});

	const returned = (kind: string) =>
		`The Idempotency Key must be text or a number, but the expression returned ${kind}`;
	const ASCII = 'The Idempotency Key may only contain visible ASCII characters (no spaces)';
	it.each([
		['', 'The Idempotency Key option resolved to an empty value'],
		['   ', 'The Idempotency Key option resolved to an empty value'],
		['order 1', ASCII],
		['naïve', ASCII],
		['x'.repeat(256), 'The Idempotency Key must be at most 255 characters'],
		[{ id: 1 }, returned('an object')],
		[['a'], returned('an array')],
		[true, returned('a boolean')],
		[null, returned('null')],
		[undefined, returned('undefined')],
		[Number.NaN, returned('NaN')],
	])('refuses %p', (value, message) => {
		expect(() => validateIdempotencyKeyOverride(value)).toThrow(new Error(message));
	});
});

describe('findDuplicateKeys', () => {
	it('finds every later item that repeats a key, and ignores items without one', () => {
		const duplicates = findDuplicateKeys(['a', 'b', undefined, 'a', undefined, 'b', 'a']);
		expect([...duplicates.values()]).toEqual([
			{ item: 3, firstItem: 0, key: 'a' },
			{ item: 5, firstItem: 1, key: 'b' },
			{ item: 6, firstItem: 0, key: 'a' },
		]);
		expect(findDuplicateKeys(['a', 'b', undefined, undefined]).size).toBe(0);
	});

	it('explains what would go wrong', () => {
		const duplicate = { item: 3, firstItem: 0, key: 'order-1' };
		expect(duplicateKeyMessage(duplicate)).toBe(
			'Items 0 and 3 have the same Idempotency Key "order-1"',
		);
		expect(duplicateKeyDescription(duplicate, true)).toMatch(
			/one of the two would silently not happen\. Nothing was sent\./,
		);
		expect(duplicateKeyDescription(duplicate, false)).toMatch(/Item 3 was not sent\./);
	});
});

const lineage: KeyLineage = { nodeId: 'n1', executionId: '41' };
const event = { trigger: 'Trigger', id: 'evt_1' };

describe('readLineage', () => {
	it('reads back what the node recorded (after the JSON round trip of the database)', () => {
		expect(readLineage(JSON.parse(JSON.stringify(lineage)), '99')).toEqual(lineage);
	});

	it('reads the lineages earlier versions recorded', () => {
		expect(
			readLineage({ kind: 'execution', scope: '41', nodeId: 'n1', executionId: '41' }, '99'),
		).toEqual(lineage);
		// An event lineage: every item had the event, whose keys are read from the trigger item again.
		expect(
			readLineage(
				{
					kind: 'event',
					scope: 'event\u0000Trigger\u0000evt_1',
					nodeId: 'n1',
					eventId: 'evt_1',
					trigger: 'Trigger',
				},
				'99',
			),
		).toEqual({ nodeId: 'n1', executionId: '99' });
	});

	it.each([
		[undefined],
		[null],
		['41'],
		[[lineage]],
		[{ ...lineage, executionId: '' }],
		[{ ...lineage, executionId: undefined }],
		[{ ...lineage, nodeId: 7 }],
		[{ kind: 'event', nodeId: 'n1', trigger: 'Trigger' }],
		[{ kind: 'execution', scope: '41', executionId: '41' }],
	])('ignores anything else: %j', (value) => {
		expect(readLineage(value, '99')).toBeUndefined();
	});
});

describe('conflictExplanation', () => {
	it('names the event whose keys these are', () => {
		expect(conflictExplanation(lineage, event, '99', 3)).toMatch(
			/^The keys belong to event evt_1 \(Trigger\), which was delivered or retried before\. This node sent item 3 under the same key with a different request before, and that request was applied; this one was not\. .*By Request Content\.$/,
		);
	});

	it('names the execution a retry continues', () => {
		expect(conflictExplanation(lineage, undefined, '99', 0)).toMatch(
			/^The keys belong to execution 41, which this execution retries\. This node sent item 0/,
		);
	});

	it('says nothing extra when the keys are this execution’s own', () => {
		expect(conflictExplanation(lineage, undefined, '41', 0)).toBeUndefined();
	});
});
