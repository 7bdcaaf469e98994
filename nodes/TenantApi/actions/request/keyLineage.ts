/**
 * The scope of a node's automatic Idempotency-Keys, recorded in the node's context before anything is
 * sent. n8n saves the context with a failed execution and hands it to "Retry execution" (both "with
 * the original workflow" and "with the currently saved workflow", and retries of retries), so the
 * retry derives the keys of the first execution instead of new ones. A new execution, a manual run
 * and a partial run in the editor start with an empty context, and so with new keys.
 */
import type { IDataObject } from 'n8n-workflow';

/** The node-context field (node context is saved with the execution, per node name). */
export const LINEAGE_FIELD = 'idempotencyKeyScope';

export type KeyLineage =
	/** Keys of this execution, or of the first execution this one retries. */
	| { kind: 'execution'; scope: string; nodeId: string; executionId: string }
	/** Keys of a Tenant API Trigger event: the same for every delivery of that event. */
	| { kind: 'event'; scope: string; nodeId: string; eventId: string; trigger: string };

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The recorded lineage, or undefined when there is none (or it is not one this version wrote). */
export function readLineage(value: unknown): KeyLineage | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const record = value as IDataObject;
	if (!isText(record.scope) || typeof record.nodeId !== 'string') return undefined;
	if (record.kind === 'execution' && isText(record.executionId)) {
		return { kind: 'execution', scope: record.scope, nodeId: record.nodeId, executionId: record.executionId };
	}
	if (record.kind === 'event' && isText(record.eventId) && isText(record.trigger)) {
		return { kind: 'event', scope: record.scope, nodeId: record.nodeId, eventId: record.eventId, trigger: record.trigger };
	}
	return undefined;
}

/**
 * A sentence for a 409 "key already used with a different request" when the keys came from an
 * earlier execution, or undefined when they are this execution's own.
 */
export function conflictExplanation(lineage: KeyLineage, currentExecutionId: string, itemIndex: number): string | undefined {
	const differs =
		`This node sent item ${itemIndex} under the same key with a different request before, and that request was applied; this one was not. ` +
		'The workflow built another request for the same item: the items before this node came in another order, or the body changed between runs (e.g. it uses $now or the workflow was edited).';
	if (lineage.kind === 'event') {
		return `The keys belong to event ${lineage.eventId} (${lineage.trigger}), which was delivered or retried before. ${differs} If the order of the items is not stable, set Options → Automatic Key Derivation to By Request Content.`;
	}
	if (lineage.executionId !== currentExecutionId) {
		return `The keys belong to execution ${lineage.executionId}, which this execution retries. ${differs}`;
	}
	return undefined;
}
