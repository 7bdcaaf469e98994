import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { deliveryIdOf, isTriggerType } from '../../../../shared/webhookDelivery';
import { TenantApiFailure } from '../../../transport/errors';

export interface DeliveryEvent {
	/** The trigger node that received the delivery. */
	trigger: string;
	/** Its `webhookDelivery.id`: from signed data only, the same on every delivery of the event. */
	id: string;
}

/** The event of an input item; undefined when it has none (no trigger, or a delivery without an id). */
export type ItemEvent = DeliveryEvent | undefined;

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
			if (items.length > 0) ran.push({ trigger, items, itemMatching: (index) => node.itemMatching(index) as { json?: IDataObject } });
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
export function itemEvents(fn: IExecuteFunctions, itemCount: number): Array<ItemEvent | TenantApiFailure> {
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
