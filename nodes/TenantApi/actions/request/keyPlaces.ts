/**
 * Where each input item's automatic Idempotency-Key lives, read from n8n's context: the Tenant API Trigger event the
 * item comes from (through n8n's item linking), the lineage recorded in the node context, and from these the item's
 * scope and position. The derivation itself is pure: idempotencyKeys.ts.
 */
import type { IContextObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { deliveryIdOf, isTriggerType } from '../../../shared/webhookDelivery';
import { addToDescription, TenantApiFailure } from '../../transport/errors';
import type { DeliveryEvent, IdempotencyScope, KeyLineage } from './idempotencyKeys';
import { conflictExplanation, eventScope, LINEAGE_FIELD, readLineage } from './idempotencyKeys';

/** The event of an input item; undefined when it has none (no trigger, or a delivery without an id). */
type ItemEvent = DeliveryEvent | undefined;

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

interface TriggerOutput {
	trigger: string;
	items: Array<{ json?: IDataObject }>;
	/** The trigger item input item `index` comes from (n8n's item linking); throws when it cannot say. */
	itemMatching: (index: number) => { json?: IDataObject };
}

/**
 * The Tenant API Trigger before this node that ran in this execution, with its output (an execution runs from one
 * trigger, so at most one of several has run data). Undefined otherwise, and when n8n cannot say (tool runs).
 */
function triggerOutput(fn: IExecuteFunctions): TriggerOutput | undefined {
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
	const ran: TriggerOutput[] = [];
	for (const trigger of triggers) {
		try {
			// Whole items (not their json alone, which is what a workflow with binary mode "combined" would give).
			const node = proxy.$(trigger, true);
			if (!node.isExecuted) continue;
			const items = node.all() as Array<{ json?: IDataObject }>;
			if (items.length > 0)
				ran.push({
					trigger,
					items,
					itemMatching: (index) => node.itemMatching(index) as { json?: IDataObject },
				});
		} catch {
			// Not readable (e.g. no output): not the trigger of this execution.
		}
	}
	return ran.length === 1 ? ran[0] : undefined;
}

function untraced(trigger: string, itemIndex: number, cause: string): TenantApiFailure {
	return new TenantApiFailure(`Item ${itemIndex} cannot be traced to one event of "${trigger}"`, {
		itemIndex,
		description:
			`The delivery held several events (signed items), and the automatic Idempotency-Key of a write follows the event its item comes from, through n8n's item linking. n8n: ${cause} ` +
			'Nothing was sent: keep the item linking in the nodes before this one (e.g. a Code node that returns pairedItem; one item made of several events cannot have one event), or set Options → Idempotency Key to a business key.',
	});
}

/**
 * The event each input item comes from: the delivery a Tenant API Trigger received, in every execution mode (a
 * delivery at the Test URL, a partial run or pinned trigger data keep the event's keys). A delivery of several signed
 * items is several events: each input item is traced to its own through n8n's item linking (paired items), or gets
 * an error when it cannot be.
 */
function itemEvents(fn: IExecuteFunctions, itemCount: number): Array<ItemEvent | TenantApiFailure> {
	const output = triggerOutput(fn);
	const none = () => new Array<ItemEvent>(itemCount).fill(undefined);
	if (output === undefined) return none();
	const { trigger, items } = output;
	const eventOf = (json: IDataObject | undefined): ItemEvent => {
		const id = deliveryIdOf(json);
		return id === undefined ? undefined : { trigger, id };
	};
	if (items.every((item) => eventOf(item.json) === undefined)) return none();
	if (items.length === 1) return new Array<ItemEvent>(itemCount).fill(eventOf(items[0].json));
	return Array.from({ length: itemCount }, (_unused, itemIndex) => {
		try {
			return eventOf(output.itemMatching(itemIndex).json);
		} catch (error) {
			return untraced(trigger, itemIndex, (error as Error).message);
		}
	});
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
	const base = {
		workflowId: String(fn.getWorkflow().id ?? ''),
		nodeId: lineage.nodeId,
		runIndex: Number(fn.getWorkflowDataProxy(0).$runIndex ?? 0),
	};
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

/**
 * A 409 that is not "still in progress" (the API's other 409: the key was already used with a
 * different request), for an automatic key that an earlier execution or delivery used first: says so
 * in the error's description. Any other error is returned unchanged.
 */
export function explainKeyConflict(
	fn: IExecuteFunctions,
	error: Error,
	itemIndex: number,
	keys: KeyPlaces,
): Error {
	if (!(error instanceof TenantApiFailure) || error.httpCode !== 409 || error.applied !== 'no')
		return error;
	const place = keys.places[itemIndex];
	const event = place instanceof Error ? undefined : place?.event;
	const sentence = conflictExplanation(
		keys.lineage,
		event,
		String(fn.getExecutionId() ?? ''),
		itemIndex,
	);
	if (sentence) addToDescription(error, sentence);
	return error;
}
