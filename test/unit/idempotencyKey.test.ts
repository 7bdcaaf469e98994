import { createHash } from 'crypto';

import {
	canonicalJson,
	deriveContentKey,
	deriveIdempotencyKey,
	eventScope,
	validateIdempotencyKeyOverride,
} from '../../nodes/TenantApi/transport/idempotencyKey';

const scope = { workflowId: 'wf1', scope: '101', nodeId: 'node-a', runIndex: 0 };

describe('deriveIdempotencyKey', () => {
	it('is a UUID (version 8, RFC variant) and stable for the same item', () => {
		const key = deriveIdempotencyKey(scope, 0);
		expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(deriveIdempotencyKey({ ...scope }, 0)).toBe(key);
	});

	it('differs when any part of the scope or the item differs', () => {
		const key = deriveIdempotencyKey(scope, 0);
		const variants = [
			deriveIdempotencyKey(scope, 1),
			deriveIdempotencyKey({ ...scope, scope: '102' }, 0),
			deriveIdempotencyKey({ ...scope, scope: eventScope('Tenant API Trigger', '101') }, 0),
			deriveIdempotencyKey({ ...scope, runIndex: 1 }, 0),
			deriveIdempotencyKey({ ...scope, nodeId: 'node-b' }, 0),
			deriveIdempotencyKey({ ...scope, workflowId: 'wf2' }, 0),
		];
		expect(new Set([key, ...variants]).size).toBe(7);
	});

	it('cannot be confused by joining parts differently', () => {
		expect(deriveIdempotencyKey({ ...scope, workflowId: 'a', scope: 'bc' }, 0)).not.toBe(
			deriveIdempotencyKey({ ...scope, workflowId: 'ab', scope: 'c' }, 0),
		);
	});

	it('with an execution id as the scope, is the key earlier versions derived (workflow, execution, node, run, item)', () => {
		const digest = createHash('sha256').update(['tenant-api-idempotency', 'wf1', '101', 'node-a', 0, 3].join('\u0000')).digest('hex');
		expect(deriveIdempotencyKey(scope, 3).replace(/-/g, '').slice(0, 12)).toBe(digest.slice(0, 12));
	});

	it('gives 10,000 items 10,000 keys', () => {
		const keys = new Set(Array.from({ length: 10_000 }, (_, i) => deriveIdempotencyKey(scope, i)));
		expect(keys.size).toBe(10_000);
	});
});

describe('deriveContentKey', () => {
	const request = { method: 'POST', endpoint: '/transfers', canonicalBody: canonicalJson({ amount: 1, ref: 'a' }) };

	it('is UUID-shaped and depends on the request, not on a position', () => {
		const key = deriveContentKey(scope, request, 1);
		expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(deriveContentKey({ ...scope }, { ...request }, 1)).toBe(key);
	});

	it('differs for another occurrence, body, endpoint, method or scope, and from every position key', () => {
		const key = deriveContentKey(scope, request, 1);
		const variants = [
			deriveContentKey(scope, request, 2),
			deriveContentKey(scope, { ...request, canonicalBody: canonicalJson({ amount: 2, ref: 'a' }) }, 1),
			deriveContentKey(scope, { ...request, endpoint: '/payouts' }, 1),
			deriveContentKey(scope, { ...request, method: 'PUT' }, 1),
			deriveContentKey({ ...scope, scope: '102' }, request, 1),
			deriveContentKey({ ...scope, runIndex: 1 }, request, 1),
			...Array.from({ length: 5 }, (_, item) => deriveIdempotencyKey(scope, item)),
		];
		expect(new Set([key, ...variants]).size).toBe(1 + variants.length);
	});
});

describe('canonicalJson', () => {
	it('is the same for the same data in any key order, at every level', () => {
		expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"e":1,"f":2}]},"b":1}');
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
});

describe('validateIdempotencyKeyOverride', () => {
	it('accepts business keys and numbers', () => {
		expect(validateIdempotencyKeyOverride(' order-42 ')).toBe('order-42');
		expect(validateIdempotencyKeyOverride(42)).toBe('42');
	});
	it.each([[''], ['   '], ['has space'], ['naïve'], ['x'.repeat(256)], [null], [{}]])('refuses %p', (value) => {
		expect(() => validateIdempotencyKeyOverride(value)).toThrow(/Idempotency Key/);
	});
	it.each([
		[{ id: 1 }, 'an object'],
		[['a'], 'an array'],
		[true, 'a boolean'],
		[null, 'null'],
		[Number.NaN, 'NaN'],
	])('says what an expression returned instead of text: %p', (value, kind) => {
		expect(() => validateIdempotencyKeyOverride(value)).toThrow(`The Idempotency Key must be text or a number, but the expression returned ${kind}`);
	});
});
