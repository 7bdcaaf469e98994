import { createHash } from 'crypto';

export interface IdempotencyScope {
	workflowId: string;
	executionId: string;
	nodeId: string;
	runIndex: number;
}

/**
 * A UUID-shaped key derived from where the item sits in n8n's execution. Retry On Fail re-runs the
 * node with the same execution id and run index, so every attempt for an item sends the same key;
 * another item, loop iteration ($runIndex) or execution gets another key.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope, itemIndex: number): string {
	const digest = createHash('sha256')
		.update(
			['tenant-api-idempotency', scope.workflowId, scope.executionId, scope.nodeId, scope.runIndex, itemIndex].join('\u0000'),
		)
		.digest();
	digest[6] = (digest[6] & 0x0f) | 0x80; // version 8: custom, name-based
	digest[8] = (digest[8] & 0x3f) | 0x80; // RFC 4122 variant
	const hex = digest.subarray(0, 16).toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (typeof value === 'number') return String(value);
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Header values must be visible ASCII; a business key like an order id usually is. */
export function validateIdempotencyKeyOverride(key: unknown): string {
	if (typeof key !== 'string' && !(typeof key === 'number' && Number.isFinite(key))) {
		throw new Error(`The Idempotency Key must be text or a number, but the expression returned ${kindOf(key)}`);
	}
	const text = String(key).trim();
	if (text === '') throw new Error('The Idempotency Key option resolved to an empty value');
	if (text.length > 255) throw new Error('The Idempotency Key must be at most 255 characters');
	if (!/^[\x21-\x7e]+$/.test(text)) {
		throw new Error('The Idempotency Key may only contain visible ASCII characters (no spaces)');
	}
	return text;
}
