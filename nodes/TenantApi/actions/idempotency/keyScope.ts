/**
 * The scope of a node run's automatic Idempotency-Keys, read from n8n's context: the event of the
 * Tenant API Trigger delivery that started the execution, else the lineage recorded in the node
 * context. Every input item is keyed in that one scope, by its position or its request. The
 * derivation itself is pure: idempotencyKeys.ts.
 */
import type { IContextObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isTriggerType } from '../../../shared/webhookDelivery';
import { addToDescription, TenantApiFailure } from '../../transport/errors';
import type { DeliveryEvent, IdempotencyScope, KeyLineage } from './idempotencyKeys';
import {
	conflictExplanation,
	eventScope,
	executionEvent,
	LINEAGE_FIELD,
	readLineage,
} from './idempotencyKeys';

export interface KeyScope {
	lineage: KeyLineage;
	/** Where every automatic key of this node run lives. */
	scope: IdempotencyScope;
	/** The execution's event, when the keys are its. */
	event?: DeliveryEvent;
}

/**
 * The event of the Tenant API Trigger before this node that ran in this execution (an execution
 * runs from one trigger, so at most one of several has run data), in every execution mode: a
 * delivery at the Test URL, a partial run or pinned trigger data keep the event's keys. Undefined
 * without one, and when n8n cannot say (tool runs).
 */
function triggerEvent(fn: IExecuteFunctions): DeliveryEvent | undefined {
	let triggers: string[];
	try {
		triggers = fn
			.getParentNodes(fn.getNode().name)
			.filter((parent) => isTriggerType(parent.type))
			.map((parent) => parent.name);
	} catch {
		return undefined;
	}
	const proxy = fn.getWorkflowDataProxy(0);
	const ran: Array<{ trigger: string; items: Array<{ json?: IDataObject }> }> = [];
	for (const trigger of triggers) {
		try {
			// Whole items (not their json alone, which binary mode "combined" would give).
			const node = proxy.$(trigger, true);
			if (!node.isExecuted) continue;
			const items = node.all() as Array<{ json?: IDataObject }>;
			if (items.length > 0) ran.push({ trigger, items });
		} catch {
			// Not readable (e.g. no output): not the trigger of this execution.
		}
	}
	return ran.length === 1 ? executionEvent(ran[0].trigger, ran[0].items) : undefined;
}

function nodeContext(fn: IExecuteFunctions): IContextObject | undefined {
	try {
		return fn.getContext('node');
	} catch {
		return undefined;
	}
}

/**
 * The lineage recorded in the node context (by an earlier try, loop run, or the execution this one
 * retries), else this execution's, recorded now, before anything is sent. Without a node context
 * (not expected in n8n) the fresh one is used as it is.
 */
function resolveLineage(fn: IExecuteFunctions): KeyLineage {
	const executionId = String(fn.getExecutionId() ?? '');
	const context = nodeContext(fn);
	const recorded = readLineage(context?.[LINEAGE_FIELD], executionId);
	if (recorded) return recorded;
	const lineage: KeyLineage = { nodeId: fn.getNode().id, executionId };
	if (context) context[LINEAGE_FIELD] = lineage;
	return lineage;
}

/**
 * The scope of this node run's automatic keys: in an execution a Tenant API Trigger event started,
 * that event (the trigger node and `webhookDelivery.id`), so every delivery of the event gives its
 * writes the same keys, whatever the nodes before this one did to the items; otherwise the
 * execution lineage.
 */
export function resolveKeyScope(fn: IExecuteFunctions): KeyScope {
	const lineage = resolveLineage(fn);
	const event = triggerEvent(fn);
	const scope: IdempotencyScope = {
		workflowId: String(fn.getWorkflow().id ?? ''),
		scope: event === undefined ? lineage.executionId : eventScope(event.trigger, event.id),
		nodeId: lineage.nodeId,
		runIndex: Number(fn.getWorkflowDataProxy(0).$runIndex ?? 0),
	};
	return { lineage, scope, ...(event === undefined ? {} : { event }) };
}

/**
 * A 409 that is not "still in progress" (the API's other 409: the key was already used with a
 * different request), for an automatic key that an earlier execution or delivery used first: says
 * so in the error's description. Any other error is returned unchanged.
 */
export function explainKeyConflict(
	fn: IExecuteFunctions,
	error: Error,
	itemIndex: number,
	keys: KeyScope,
): Error {
	if (!(error instanceof TenantApiFailure) || error.httpCode !== 409 || error.applied !== 'no')
		return error;
	const executionId = String(fn.getExecutionId() ?? '');
	const sentence = conflictExplanation(keys.lineage, keys.event, executionId, itemIndex);
	if (sentence) addToDescription(error, sentence);
	return error;
}
