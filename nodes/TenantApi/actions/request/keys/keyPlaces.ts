import type { IContextObject, IExecuteFunctions } from 'n8n-workflow';

import type { TenantApiFailure } from '../../../transport/errors';

import type { IdempotencyScope } from './idempotencyKey';
import { eventScope } from './idempotencyKey';
import type { DeliveryEvent } from './deliveryEvents';
import { itemEvents } from './deliveryEvents';
import type { KeyLineage } from './keyLineage';
import { LINEAGE_FIELD, readLineage } from './keyLineage';

/** Where an item's automatic key lives: its scope, and its position among this run's items of the same scope. */
export interface KeyPlace {
	scope: IdempotencyScope;
	position: number;
	/** The event the scope belongs to, when the item has one. */
	event?: DeliveryEvent;
}

export interface KeyPlaces {
	lineage: KeyLineage;
	/** Per input item: its place, or why it has none (an item that cannot be traced to one event). */
	places: Array<KeyPlace | TenantApiFailure>;
}

function nodeContext(fn: IExecuteFunctions): IContextObject | undefined {
	try {
		return fn.getContext('node');
	} catch {
		return undefined;
	}
}

/**
 * The lineage recorded in the node context (by an earlier try, loop run, or the execution this one retries), else
 * this execution's, recorded now, before anything is sent. Without a node context (not expected in n8n) the fresh one
 * is used as it is.
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
 * The place of every input item's automatic key. An item that comes from a Tenant API Trigger event is keyed by that
 * event (the trigger node and `webhookDelivery.id`) and its position among the items of the same event, so every
 * delivery of the event, cut down, merged with others or reordered, gives its writes the same keys. Other items are
 * keyed by the execution lineage and their position.
 */
export function resolveKeyPlaces(fn: IExecuteFunctions, itemCount: number): KeyPlaces {
	const lineage = resolveLineage(fn);
	const base = { workflowId: String(fn.getWorkflow().id ?? ''), nodeId: lineage.nodeId, runIndex: Number(fn.getWorkflowDataProxy(0).$runIndex ?? 0) };
	const seen = new Map<string, number>();
	const places = itemEvents(fn, itemCount).map((event): KeyPlace | TenantApiFailure => {
		if (event instanceof Error) return event;
		const scope = event === undefined ? lineage.executionId : eventScope(event.trigger, event.id);
		const position = seen.get(scope) ?? 0;
		seen.set(scope, position + 1);
		return { scope: { ...base, scope }, position, ...(event === undefined ? {} : { event }) };
	});
	return { lineage, places };
}
