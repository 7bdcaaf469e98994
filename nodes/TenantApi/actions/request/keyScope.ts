import type { IContextObject, IExecuteFunctions } from 'n8n-workflow';

import type { IdempotencyScope } from '../../transport/idempotencyKey';
import { eventScope } from '../../transport/idempotencyKey';
import { deliveryEvent } from './deliveryEvent';
import type { KeyLineage } from './keyLineage';
import { LINEAGE_FIELD, readLineage } from './keyLineage';

export interface KeyScope extends IdempotencyScope {
	lineage: KeyLineage;
}

/** Executions that a Tenant API Trigger delivery started (or a retry of one, whose trigger item is saved). */
const EVENT_MODES = new Set(['webhook', 'retry']);

function nodeContext(fn: IExecuteFunctions): IContextObject | undefined {
	try {
		return fn.getContext('node');
	} catch {
		return undefined;
	}
}

/**
 * The lineage for keys not recorded yet: the event of a production delivery (test deliveries in the
 * editor run in 'manual' mode and get fresh keys each time), else this execution.
 */
function freshLineage(fn: IExecuteFunctions, nodeId: string): KeyLineage {
	const event = EVENT_MODES.has(fn.getMode?.() ?? '') ? deliveryEvent(fn) : undefined;
	if (event) return { kind: 'event', scope: eventScope(event.trigger, event.id), nodeId, eventId: event.id, trigger: event.trigger };
	const executionId = String(fn.getExecutionId() ?? '');
	return { kind: 'execution', scope: executionId, nodeId, executionId };
}

/**
 * The scope of this node run's automatic keys: the one recorded in the node context (by an earlier
 * try, loop run, or the execution this one retries), else a fresh one, recorded now, before anything
 * is sent. Without a node context (not expected in n8n) the fresh scope is used as it is.
 */
export function resolveKeyScope(fn: IExecuteFunctions): KeyScope {
	const context = nodeContext(fn);
	const recorded = readLineage(context?.[LINEAGE_FIELD]);
	const lineage = recorded ?? freshLineage(fn, fn.getNode().id);
	if (context && !recorded) context[LINEAGE_FIELD] = lineage;
	return {
		workflowId: String(fn.getWorkflow().id ?? ''),
		scope: lineage.scope,
		nodeId: lineage.nodeId,
		runIndex: Number(fn.getWorkflowDataProxy(0).$runIndex ?? 0),
		lineage,
	};
}
