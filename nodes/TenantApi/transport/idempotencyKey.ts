import { createHash } from 'crypto';

/** Where automatic keys live: one set per workflow, key scope, node and node run. */
export interface IdempotencyScope {
	workflowId: string;
	/**
	 * The execution id of the first execution of a lineage (an execution and its "Retry execution"
	 * copies), or the event scope of a Tenant API Trigger delivery (see eventScope()).
	 */
	scope: string;
	nodeId: string;
	runIndex: number;
}

/** What makes a request "the same request" for key derivation by content. */
export interface RequestContent {
	method: string;
	endpoint: string;
	/** The body as canonical JSON (canonicalJson()), or '' for a request without a body. */
	canonicalBody: string;
}

const KEY_NAMESPACE = 'tenant-api-idempotency';

/** A UUID-shaped key (version 8: custom, name-based) from the SHA-256 of the parts. */
function keyFromParts(parts: Array<string | number>): string {
	const digest = createHash('sha256').update([KEY_NAMESPACE, ...parts].join('\u0000')).digest();
	digest[6] = (digest[6] & 0x0f) | 0x80; // version 8: custom, name-based
	digest[8] = (digest[8] & 0x3f) | 0x80; // RFC 4122 variant
	const hex = digest.subarray(0, 16).toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The key of the item at `itemIndex`. Retry On Fail re-runs the node with the same execution, run index
 * and input items, and "Retry execution" re-runs it with the failed run's index and input items in the
 * same order, so every attempt for an item sends the same key; another item, loop iteration ($runIndex)
 * or scope gets another key. With an execution id as the scope this is the key of versions before
 * lineage scopes existed.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope, itemIndex: number): string {
	return keyFromParts([scope.workflowId, scope.scope, scope.nodeId, scope.runIndex, itemIndex]);
}

/**
 * The key of a request by what it sends: the `occurrence`-th (1, 2, …) request of this node run with
 * the same method, endpoint and body. The item's position does not matter, so items that come in
 * another order keep their keys; a body that changes gets a new key.
 */
export function deriveContentKey(scope: IdempotencyScope, request: RequestContent, occurrence: number): string {
	return keyFromParts([
		scope.workflowId,
		scope.scope,
		scope.nodeId,
		scope.runIndex,
		'content',
		request.method,
		request.endpoint,
		request.canonicalBody,
		occurrence,
	]);
}

/** The key scope of a Tenant API Trigger event: its id, under the trigger node that received it. */
export function eventScope(triggerName: string, eventId: string): string {
	return ['event', triggerName, eventId].join('\u0000');
}

/** JSON with object keys sorted at every level, so that {a,b} and {b,a} are the same body. */
export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	const record = value as Record<string, unknown>;
	const keys = Object.keys(record)
		.filter((key) => record[key] !== undefined)
		.sort();
	return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
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
