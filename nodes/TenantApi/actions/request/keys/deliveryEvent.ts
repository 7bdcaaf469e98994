import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { deliveryIdOf, isTriggerType } from '../../../../shared/webhookDelivery';

export interface DeliveryEvent {
	/** The trigger node that received the delivery. */
	trigger: string;
	/** Its `webhookDelivery.id`: from signed data only, the same on every delivery of the event. */
	id: string;
}

/**
 * The event that started this execution: a Tenant API Trigger before this node that ran in this
 * execution (an execution runs from one trigger, so at most one of several has run data) and whose
 * item has a delivery id. Undefined otherwise, and when n8n cannot say (older versions, tool runs).
 */
export function deliveryEvent(fn: IExecuteFunctions): DeliveryEvent | undefined {
	let triggers: string[];
	try {
		triggers = fn
			.getParentNodes(fn.getNode().name)
			.filter((parent) => isTriggerType(parent.type))
			.map((parent) => parent.name);
	} catch {
		return undefined;
	}
	if (triggers.length === 0) return undefined;
	const proxy = fn.getWorkflowDataProxy(0);
	const events: DeliveryEvent[] = [];
	for (const trigger of triggers) {
		try {
			const node = proxy.$(trigger);
			if (!node.isExecuted) continue;
			const id = deliveryIdOf((node.first() as { json?: IDataObject } | undefined)?.json);
			if (id !== undefined) events.push({ trigger, id });
		} catch {
			// Not readable (e.g. no output): not the trigger of this execution.
		}
	}
	return events.length === 1 ? events[0] : undefined;
}
