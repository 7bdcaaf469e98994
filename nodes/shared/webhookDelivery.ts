import type { IDataObject } from 'n8n-workflow';

/**
 * The contract between the Tenant API Trigger and the Tenant API node: the trigger puts
 * `webhookDelivery` on every output item; the node finds the trigger among its parents by type and
 * derives its automatic Idempotency-Keys from `webhookDelivery.id`. Both sides import this module,
 * so neither can change the contract alone (test/unit/webhookDeliveryContract.test.ts).
 */

/** The trigger node's `description.name`; n8n's type is `<package>.<name>`. */
export const TRIGGER_NODE_NAME = 'tenantApiTrigger';

/** The output field that holds the delivery's identity (docs/trigger.md, Delivery identity). */
export const WEBHOOK_DELIVERY_FIELD = 'webhookDelivery';

/**
 * The credential's secrets in the order the trigger tries them; `webhookDelivery.secret` names the
 * one that matched.
 */
export const SECRET_NAMES = ['current', 'previous', 'test'] as const;

/**
 * `webhookDelivery` on every output item: who the delivery is, in one place later nodes can rely
 * on. `id` comes only from signed data, so a replayed delivery cannot be given a fresh identity.
 */
export interface WebhookDelivery extends IDataObject {
	/** The delivery's id: from signed data only, the same on every delivery of the same event. */
	id: string;
	/**
	 * Where `id` was read: `header:<name>` (a signed header), `body:<path>[,<path>]`, `body:sha256`,
	 * or `header.<name>+body:sha256` / `url+body:sha256` (a signed header or URL with the body).
	 */
	idSource: string;
	/** The signed timestamp (unix seconds), or null when the scheme signs none. */
	timestamp: number | null;
	/** The Verification setting that accepted the delivery. */
	verification: string;
	/** Which credential secret matched, or null without verification. */
	secret: (typeof SECRET_NAMES)[number] | null;
	/** How the body was read: `json` or `form`. */
	bodyType: 'json' | 'form';
	/** The header the signature covers (Custom HMAC's `{header.<name>}`), by its lower-case name. */
	signedHeaders?: IDataObject;
	/** The URL the signature covers (Custom HMAC's `{URL}`), query included. */
	signedUrl?: string;
	/**
	 * Include Headers: the request headers, which no scheme signs (credential-bearing ones left out).
	 */
	unsignedHeaders?: IDataObject;
	/**
	 * Include Query Parameters: the query parameters, as sent; not covered by the signature of most
	 * schemes.
	 */
	unsignedQuery?: IDataObject;
}

/**
 * Whether an n8n node type is this package's trigger (`n8n-nodes-tenant-api.tenantApiTrigger` when
 * installed from npm).
 */
export function isTriggerType(type: string): boolean {
	return type.endsWith(`.${TRIGGER_NODE_NAME}`);
}

/** The delivery id on a trigger output item, when it has one. */
export function deliveryIdOf(json: IDataObject | undefined): string | undefined {
	const delivery = json?.[WEBHOOK_DELIVERY_FIELD] as IDataObject | undefined;
	const id = delivery !== null && typeof delivery === 'object' ? delivery.id : undefined;
	return typeof id === 'string' && id !== '' ? id : undefined;
}
