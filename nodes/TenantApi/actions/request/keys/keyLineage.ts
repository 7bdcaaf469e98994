/**
 * The lineage of a node's automatic Idempotency-Keys, recorded in the node's context before anything is sent. n8n
 * saves the context with a failed execution and hands it to "Retry execution" (both "with the original workflow" and
 * "with the currently saved workflow", and retries of retries), so the retry derives the keys of the first execution
 * instead of new ones. A new execution, a manual run and a partial run in the editor start with an empty context.
 * Keys of a Tenant API Trigger event do not need it: the event is read again from the saved trigger item.
 */
import type { IDataObject } from 'n8n-workflow';

import type { DeliveryEvent } from './deliveryEvents';

/** The node-context field (node context is saved with the execution, per node name). */
export const LINEAGE_FIELD = 'idempotencyKeyScope';

export interface KeyLineage {
	/** The node id of the first run: a node deleted and added again under the same name keeps the keys. */
	nodeId: string;
	/** This execution, or the first execution this one retries: the scope of the keys of items without an event. */
	executionId: string;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * The recorded lineage, or undefined when there is none (or it is not one this version wrote). Versions before events
 * were read per item recorded `kind: 'event'` lineages, whose items all had their event: `executionId` is then this
 * execution's.
 */
export function readLineage(value: unknown, currentExecutionId: string): KeyLineage | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const record = value as IDataObject;
	if (typeof record.nodeId !== 'string') return undefined;
	if (isText(record.executionId) && record.kind !== 'event') return { nodeId: record.nodeId, executionId: record.executionId };
	if (record.kind === 'event' && isText(record.scope)) return { nodeId: record.nodeId, executionId: currentExecutionId };
	return undefined;
}

/**
 * A sentence for a 409 "key already used with a different request" when the key came from an earlier execution or
 * delivery, or undefined when it is this execution's own.
 */
export function conflictExplanation(lineage: KeyLineage, event: DeliveryEvent | undefined, currentExecutionId: string, itemIndex: number): string | undefined {
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
