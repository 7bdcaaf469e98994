import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { WEBHOOK_DELIVERY_FIELD } from '../../../TenantApiTrigger/delivery';

/** Node types end in `.<description name>`: `n8n-nodes-tenant-api.tenantApiTrigger` when installed from npm. */
const TRIGGER_TYPE_SUFFIX = '.tenantApiTrigger';

export interface DeliveryEvent {
	/** The trigger node that received the delivery. */
	trigger: string;
	/** Its `webhookDelivery.id`: from signed data only, the same on every delivery of the event. */
	id: string;
}

/** The delivery id on the trigger's output item, when it has one. */
function eventIdOf(json: IDataObject | undefined): string | undefined {
	const delivery = json?.[WEBHOOK_DELIVERY_FIELD] as IDataObject | undefined;
	const id = delivery && typeof delivery === 'object' ? delivery.id : undefined;
	return typeof id === 'string' && id !== '' ? id : undefined;
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
			.filter((parent) => parent.type.endsWith(TRIGGER_TYPE_SUFFIX))
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
			const id = eventIdOf((node.first() as { json?: IDataObject } | undefined)?.json);
			if (id !== undefined) events.push({ trigger, id });
		} catch {
			// Not readable (e.g. no output): not the trigger of this execution.
		}
	}
	return events.length === 1 ? events[0] : undefined;
}
