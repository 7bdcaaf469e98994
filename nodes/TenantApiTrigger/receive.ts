/**
 * One delivery, from the request to what the workflow receives: authenticated on the raw bytes,
 * then read once in the Body Format, named and filtered by event type. Pure: the node only wires
 * n8n's request and answer to it.
 */
import type { IDataObject } from 'n8n-workflow';

import type { WebhookDelivery } from '../shared/webhookDelivery';
import { SECRET_NAMES, WEBHOOK_DELIVERY_FIELD } from '../shared/webhookDelivery';

import type { Authenticated, Seen } from './authenticate';
import { authenticate } from './authenticate';
import type { BodyFormat } from './body';
import { mediaTypeFits, readBody } from './body';
import type { HeaderBag } from './headers';
import { mediaType, unsignedHeaders, unsignedQuery } from './headers';
import { deliveryIdentity, eventAccepted, eventType } from './identity';
import type { RefusalReason, RefusalStatus } from './refusals';
import { refusalAnswer } from './refusals';
import type { TriggerSettings } from './settings';

export interface ReceivedRequest {
	/** The exact request bytes; undefined when n8n kept none (multipart). */
	rawBody?: Buffer;
	headers: HeaderBag;
	query: IDataObject;
	/** The URL the sender called, query string included (for `{url}`). */
	url?: string;
	nowSeconds: number;
}

export interface Refusal {
	action: 'refuse';
	reason: RefusalReason;
	status: RefusalStatus;
	message: string;
	seen?: Seen;
}

/**
 * What to do with a request: refuse it, acknowledge it (an event the filter leaves out), or start
 * the workflow.
 */
export type Decision =
	| Refusal
	| { action: 'acknowledge'; event: string | undefined }
	| { action: 'start'; item: IDataObject };

/**
 * A refusal: its reason, the status and message the sender gets (refusals.ts), and what
 * authentication saw.
 */
export function refusal(reason: RefusalReason, format: BodyFormat = 'json', seen?: Seen): Refusal {
	return {
		action: 'refuse',
		reason,
		...refusalAnswer(reason, format),
		...(seen === undefined ? {} : { seen }),
	};
}

/**
 * The one output rule: the body as read from the verified bytes, and beside it only
 * `webhookDelivery` (a name the body may not use), which carries the request data no signature
 * covers under names that say so. No secret of the credential, and no header carrying Secret in
 * Header's key, reaches it.
 */
function outputItem(
	settings: TriggerSettings,
	request: ReceivedRequest & { rawBody: Buffer },
	body: IDataObject,
	passed: Authenticated,
): IDataObject {
	const { verification, credentialSecrets: secrets = [] } = settings;
	const secretHeader = verification.kind === 'secretHeader' ? verification.header : [];
	const delivery: WebhookDelivery = {
		...deliveryIdentity(passed, request.rawBody, body, settings.idFields),
		timestamp: passed.timestamp ?? null,
		verification: verification.name,
		secret: passed.secretIndex === undefined ? null : (SECRET_NAMES[passed.secretIndex] ?? null),
		bodyType: settings.bodyFormat,
		...(passed.header && { signedHeaders: { [passed.header.name]: passed.header.value } }),
		...(passed.url === undefined ? {} : { signedUrl: passed.url }),
		...(settings.includeHeaders
			? { unsignedHeaders: unsignedHeaders(request.headers, secretHeader, secrets) }
			: {}),
		...(settings.includeQuery ? { unsignedQuery: unsignedQuery(request.query, secrets) } : {}),
	};
	// The body was read for this request alone, and has no field of that name (refused before).
	body[WEBHOOK_DELIVERY_FIELD] = delivery;
	return body;
}

/**
 * The decision for one request. Nothing of the body is read before the request is authenticated; a
 * request without bytes (n8n parsed multipart itself) or of another media type than the Body Format
 * is never read at all.
 */
export function receiveDelivery(settings: TriggerSettings, request: ReceivedRequest): Decision {
	const format = settings.bodyFormat;
	const passed = authenticate(settings.verification, format, settings.acceptedSecrets, request);
	if (!passed.ok) return refusal(passed.reason, format, passed.seen);
	const refuse = (reason: RefusalReason) => refusal(reason, format, passed.seen);
	if (!mediaTypeFits(format, mediaType(request.headers))) return refuse('unsupported_media_type');
	// Only None gets here without bytes: it checks nothing.
	const { rawBody } = request;
	if (rawBody === undefined) return refuse('raw_body_unavailable');
	const body = readBody(format, rawBody);
	if (!body.ok) return refuse(body.reason);
	if (Object.prototype.hasOwnProperty.call(body.object, WEBHOOK_DELIVERY_FIELD))
		return refuse('reserved_field');
	const event = eventType(body.object, settings.eventPath);
	if (!eventAccepted(settings.events, event)) return { action: 'acknowledge', event };
	return {
		action: 'start',
		item: outputItem(settings, { ...request, rawBody }, body.object, passed),
	};
}
