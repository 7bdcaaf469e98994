/**
 * Automatic Idempotency-Keys, the pure part: how a key is derived from its scope and the item's
 * position or request, the event a trigger's output belongs to, the checks of a business key
 * (Options → Idempotency Key), keys that two items share, and the lineage that keeps "Retry
 * execution" on the first execution's keys. What n8n's context says (the trigger's output, the
 * recorded lineage) is read in keyScope.ts. Keys stay byte for byte what earlier versions derived.
 */
import type { IDataObject } from 'n8n-workflow';
import { createHash } from 'crypto';

import { kindOf } from '../../../shared/kindOf';
import { deliveryIdOf } from '../../../shared/webhookDelivery';

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

/** A Tenant API Trigger event: the key scope of the execution it started (eventScope()). */
export interface DeliveryEvent {
	/** The trigger node that received the delivery. */
	trigger: string;
	/** Its `webhookDelivery.id`: from signed data only, the same on every delivery of the event. */
	id: string;
}

const KEY_NAMESPACE = 'tenant-api-idempotency';

/** A UUID-shaped key (version 8: custom, name-based) from the SHA-256 of the parts. */
function keyFromParts(parts: Array<string | number>): string {
	const digest = createHash('sha256')
		.update([KEY_NAMESPACE, ...parts].join('\u0000'))
		.digest();
	digest[6] = (digest[6] & 0x0f) | 0x80; // version 8: custom, name-based
	digest[8] = (digest[8] & 0x3f) | 0x80; // RFC 4122 variant
	const hex = digest.subarray(0, 16).toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The key of the item at `itemIndex`. Retry On Fail re-runs the node with the same execution, run
 * index and input items, and "Retry execution" re-runs it with the failed run's index and input
 * items in the same order, so every attempt for an item sends the same key; another item, loop
 * iteration ($runIndex) or scope gets another key. With an execution id as the scope this is the
 * key of versions before lineage scopes existed.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope, itemIndex: number): string {
	return keyFromParts([...scopeParts(scope), itemIndex]);
}

const scopeParts = ({ workflowId, scope, nodeId, runIndex }: IdempotencyScope) =>
	[workflowId, scope, nodeId, runIndex] as const;

/**
 * The key of a request by what it sends: the `occurrence`-th (1, 2, …) request of this node run
 * with the same method, endpoint and body. The item's position does not matter, so items that come
 * in another order keep their keys; a body that changes gets a new key.
 */
export function deriveContentKey(
	scope: IdempotencyScope,
	request: RequestContent,
	occurrence: number,
): string {
	const { method, endpoint, canonicalBody } = request;
	return keyFromParts([
		...scopeParts(scope),
		'content',
		method,
		endpoint,
		canonicalBody,
		occurrence,
	]);
}

/** The key scope of a Tenant API Trigger event: its id, under the trigger node that received it. */
export function eventScope(triggerName: string, eventId: string): string {
	return ['event', triggerName, eventId].join('\u0000');
}

/**
 * The event of an execution the trigger node `trigger` started, from its output items: one delivery
 * is one event, so its id is the one every item carries. Undefined when an item has no id or two
 * items differ (several events in one execution: a trigger output saved by an older version, pinned
 * data of several items): no one event owns the execution's writes, which are then keyed by its
 * lineage.
 */
export function executionEvent(
	trigger: string,
	items: ReadonlyArray<{ json?: IDataObject }>,
): DeliveryEvent | undefined {
	const id = deliveryIdOf(items[0]?.json);
	if (id === undefined || items.some((item) => deliveryIdOf(item.json) !== id)) return undefined;
	return { trigger, id };
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

/** Header values must be visible ASCII; a business key like an order id usually is. */
export function validateIdempotencyKeyOverride(key: unknown): string {
	if (typeof key !== 'string' && !(typeof key === 'number' && Number.isFinite(key))) {
		throw new Error(
			`The Idempotency Key must be text or a number, but the expression returned ${kindOf(key)}`,
		);
	}
	const text = String(key).trim();
	if (text === '') throw new Error('The Idempotency Key option resolved to an empty value');
	if (text.length > 255) throw new Error('The Idempotency Key must be at most 255 characters');
	if (!/^[\x21-\x7e]+$/.test(text)) {
		throw new Error('The Idempotency Key may only contain visible ASCII characters (no spaces)');
	}
	return text;
}

/**
 * Two items of one run with the same Idempotency-Key: the API applies the key once and answers the
 * other item with the first one's stored result (or refuses it when its body differs), so one of
 * the two operations silently does not happen. Found before anything is sent.
 */
export interface DuplicateKey {
	item: number;
	/** The earlier item that has the same key. */
	firstItem: number;
	key: string;
}

/** Every item whose key an earlier item has (items without a key, e.g. GET, are skipped). */
export function findDuplicateKeys(
	keys: ReadonlyArray<string | undefined>,
): Map<number, DuplicateKey> {
	const firstWith = new Map<string, number>();
	const duplicates = new Map<number, DuplicateKey>();
	keys.forEach((key, item) => {
		if (key === undefined) return;
		const firstItem = firstWith.get(key);
		if (firstItem === undefined) firstWith.set(key, item);
		else duplicates.set(item, { item, firstItem, key });
	});
	return duplicates;
}

export function duplicateKeyMessage({ item, firstItem, key }: DuplicateKey): string {
	return `Items ${firstItem} and ${item} have the same Idempotency Key "${key}"`;
}

export function duplicateKeyDescription(
	{ item, firstItem }: DuplicateKey,
	nothingSent: boolean,
): string {
	return `The API applies a key once: it would answer item ${item} with item ${firstItem}'s stored result, or refuse it, so one of the two would silently not happen. ${
		nothingSent ? 'Nothing was sent.' : `Item ${item} was not sent.`
	} Give each operation its own key (e.g. add a line number to it), or remove the duplicate item.`;
}

/**
 * The lineage of a node's automatic Idempotency-Keys, recorded in the node's context before
 * anything is sent. n8n saves the context with a failed execution and hands it to "Retry execution"
 * (both "with the original workflow" and "with the currently saved workflow", and retries of
 * retries), so the retry derives the keys of the first execution instead of new ones. A new
 * execution, a manual run and a partial run in the editor start with an empty context. Keys of a
 * Tenant API Trigger event do not need it: the event is read again from the saved trigger item.
 * It is saved in this node-context field (node context is saved with the execution, per node name).
 */
export const LINEAGE_FIELD = 'idempotencyKeyScope';

export interface KeyLineage {
	/** The first run's node id: a node deleted and added again under the same name keeps the keys. */
	nodeId: string;
	/** This execution, or the first one it retries: the scope of keys of items without an event. */
	executionId: string;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * The recorded lineage, or undefined when there is none (or it is not one this version wrote).
 * Versions before events were read per item recorded `kind: 'event'` lineages, whose items all had
 * their event: `executionId` is then this execution's.
 */
export function readLineage(value: unknown, currentExecutionId: string): KeyLineage | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const record = value as IDataObject;
	if (typeof record.nodeId !== 'string') return undefined;
	if (isText(record.executionId) && record.kind !== 'event')
		return { nodeId: record.nodeId, executionId: record.executionId };
	if (record.kind === 'event' && isText(record.scope))
		return { nodeId: record.nodeId, executionId: currentExecutionId };
	return undefined;
}

/**
 * A sentence for a 409 "key already used with a different request" when the key came from an
 * earlier execution or delivery, or undefined when it is this execution's own.
 */
export function conflictExplanation(
	lineage: KeyLineage,
	event: DeliveryEvent | undefined,
	currentExecutionId: string,
	itemIndex: number,
): string | undefined {
	const differs =
		`This node sent item ${itemIndex} under the same key with a different request before, and that request was applied; this one was not. ` +
		'The workflow built another request for the same item: the items before this node came in another order, or the body changed between runs (e.g. it uses $now or the workflow was edited).';
	if (event !== undefined) {
		return `The keys belong to event ${event.id} (${event.trigger}), which was delivered or retried before. ${differs} If the order of the items is not stable, set Options → Automatic Key Derivation to By Request Content.`;
	}
	if (lineage.executionId !== currentExecutionId) {
		return `The keys belong to execution ${lineage.executionId}, which this execution retries. ${differs}`;
	}
	return undefined;
}
