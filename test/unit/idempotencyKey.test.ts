import { deriveIdempotencyKey, validateIdempotencyKeyOverride } from '../../nodes/TenantApi/transport/idempotencyKey';

const scope = { workflowId: 'wf1', executionId: '101', nodeId: 'node-a', runIndex: 0 };

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
			deriveIdempotencyKey({ ...scope, executionId: '102' }, 0),
			deriveIdempotencyKey({ ...scope, runIndex: 1 }, 0),
			deriveIdempotencyKey({ ...scope, nodeId: 'node-b' }, 0),
			deriveIdempotencyKey({ ...scope, workflowId: 'wf2' }, 0),
		];
		expect(new Set([key, ...variants]).size).toBe(6);
	});

	it('cannot be confused by joining parts differently', () => {
		expect(deriveIdempotencyKey({ ...scope, workflowId: 'a', executionId: 'bc' }, 0)).not.toBe(
			deriveIdempotencyKey({ ...scope, workflowId: 'ab', executionId: 'c' }, 0),
		);
	});

	it('gives 10,000 items 10,000 keys', () => {
		const keys = new Set(Array.from({ length: 10_000 }, (_, i) => deriveIdempotencyKey(scope, i)));
		expect(keys.size).toBe(10_000);
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
