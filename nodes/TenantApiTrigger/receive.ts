import type { IDataObject } from 'n8n-workflow';

import type { WebhookDelivery } from '../shared/webhookDelivery';
import { WEBHOOK_DELIVERY_FIELD } from '../shared/webhookDelivery';

import type { Answer, HandshakeName } from './answers';
import { HANDSHAKES } from './answers';
import { deliveryIdentity, eventAccepted, eventType, safeHeaders, safeQuery } from './delivery';
import type { BodyFailure, BodyFormat, DeliveryReading, HeaderBag, SignedUnit, VerificationConfig } from './verification';
import { deliveryFormat, mismatchedMediaType, readDelivery } from './verification';

/** The trigger's settings, as read from the node. */
export interface TriggerSettings {
	/** The Verification setting's value (reported in `webhookDelivery.verification`). */
	verification: string;
	config: VerificationConfig;
	/** Accepted event types (empty: all). */
	events: string[];
	eventPath: string;
	/** Delivery ID Fields (empty: the scheme's). */
	idFields: string[];
	includeHeaders: boolean;
	includeQuery: boolean;
	/** Every secret of the credential, accepted here or not: none may reach the output. */
	credentialSecrets: unknown[];
	/** The handshake the Verification's sender makes before it delivers events, if any. */
	handshake?: HandshakeName;
}

export interface ReceivedRequest {
	/** The exact request bytes; undefined when n8n kept none (multipart). */
	rawBody: Buffer | undefined;
	headers: HeaderBag;
	query: IDataObject;
	/** The URL the sender signed (Square, Twilio, `{url}`). */
	url?: string;
	nowSeconds: number;
}

/**
 * What to do with a request: refuse it, answer a sender's handshake, acknowledge it (filtered out), or start the
 * workflow. Only a refusal or a start ever runs anything.
 */
export type Reception =
	| { action: 'refuse'; status: 400 | 401 | 413 | 415 | 503; reason: string; message: string }
	| { action: 'handshake'; handshake: HandshakeName; answer: Answer }
	| { action: 'acknowledge'; event: string | undefined }
	| { action: 'start'; items: IDataObject[] };

export type Refusal = Extract<Reception, { action: 'refuse' }>;

/** What every refusal that is not about the body's format tells the sender: nothing that helps a forger. */
export const INVALID_SIGNATURE = 'Invalid signature';

const MEDIA_TYPE_OF: Record<BodyFormat, string> = { json: 'application/json', form: 'application/x-www-form-urlencoded' };

/** A refusal: the status and message the sender gets, and the reason (diagnosis.ts explains each). */
export function refusal(status: Refusal['status'], reason: string, message: string): Refusal {
	return { action: 'refuse', status, reason, message };
}


const unsupportedMessage = (format: BodyFormat) => `Unsupported content type: this trigger reads ${MEDIA_TYPE_OF[format]} bodies (Body Format)`;

function unsupported(format: BodyFormat): Reception {
	return refusal(415, 'unsupported_media_type', unsupportedMessage(format));
}

/** The 400 answer for a verified body that cannot be read. */
function bodyMessage(format: BodyFormat, reason: BodyFailure): string {
	if (reason === 'empty_body') return 'Empty body';
	if (format === 'form') return reason === 'not_utf8' ? 'Body must be UTF-8 form fields' : 'Body must be form fields with names (at most 1,000)';
	return reason === 'not_utf8' ? 'Body must be UTF-8 JSON' : 'Body must be a JSON object';
}

/** What the sender is told for a reading's refusal (its status is the reading's). */
function refusalMessage(reading: Extract<DeliveryReading, { ok: false }>): string {
	if (reading.status === 415) return unsupportedMessage(reading.bodyFormat);
	if (reading.status === 400) return bodyMessage(reading.bodyFormat, reading.reason);
	return reading.status === 413 ? 'Body too large to verify' : INVALID_SIGNATURE;
}

/** A request without bytes (n8n parsed multipart itself): nothing can be verified or read. */
function withoutBytes(settings: TriggerSettings, request: ReceivedRequest): Reception {
	if (settings.config.mode !== 'none') return refusal(401, 'raw_body_unavailable', INVALID_SIGNATURE);
	const format = deliveryFormat(settings.config, request.url);
	if (mismatchedMediaType(format, request.headers) !== undefined) return unsupported(format);
	return refusal(400, 'raw_body_unavailable', 'Could not read the request body');
}

type Started = { json: IDataObject; event: string | undefined; id: string | null; signed: IDataObject };

/** One signed unit as the workflow gets it, or why the delivery is refused. */
function startUnit(settings: TriggerSettings, request: ReceivedRequest, reading: Extract<DeliveryReading, { ok: true }>, unit: SignedUnit): Started | Refusal {
	if (Object.prototype.hasOwnProperty.call(unit.object, WEBHOOK_DELIVERY_FIELD)) return refusal(400, 'reserved_field', `Body must not have a top-level ${WEBHOOK_DELIVERY_FIELD} field`);
	const delivery = deliveryIdentity(settings.config, reading.verification, request.headers, unit, settings.idFields, settings.verification);
	if (typeof delivery === 'string') return refusal(401, delivery, INVALID_SIGNATURE);
	return { json: outputItem(settings, request, unit.object, delivery), event: eventType(unit.signed, settings.eventPath), id: delivery.id, signed: unit.signed };
}

/**
 * Whether two units of one delivery name the same event (the same id, or without an id the same signed content): a
 * sender never sends an event twice in one delivery.
 */
function repeatsAnEvent(units: Started[]): boolean {
	const events = units.map((unit) => (unit.id !== null ? `id ${unit.id}` : `signed ${JSON.stringify(unit.signed)}`));
	return new Set(events).size !== events.length;
}

/**
 * One delivery, from the request to what the workflow receives: verified, read once in the configured format, a
 * sender's handshake answered, each signed unit (the body, or each signed item) given its identity and filtered by
 * event type. Pure: the node only wires n8n's request and answer to it.
 */
export function receiveDelivery(settings: TriggerSettings, request: ReceivedRequest): Reception {
	if (request.rawBody === undefined) return withoutBytes(settings, request);
	const reading = readDelivery(settings.config, { rawBody: request.rawBody, headers: request.headers, nowSeconds: request.nowSeconds, url: request.url });
	if (!reading.ok) return refusal(reading.status, reading.reason, refusalMessage(reading));
	const handshake = settings.handshake;
	const answer = handshake === undefined ? undefined : HANDSHAKES[handshake].answer(reading.units[0].signed, request.headers);
	if (handshake !== undefined && answer !== undefined) return { action: 'handshake', handshake, answer };
	const units: Started[] = [];
	for (const unit of reading.units) {
		const started = startUnit(settings, request, reading, unit);
		if ('action' in started) return started;
		units.push(started);
	}
	if (repeatsAnEvent(units)) return refusal(401, 'duplicate_item', INVALID_SIGNATURE);
	const accepted = units.filter((unit) => eventAccepted(settings.events, unit.event));
	if (accepted.length === 0) return { action: 'acknowledge', event: units[0]?.event };
	return { action: 'start', items: accepted.map((unit) => unit.json) };
}

/** The secrets a configuration holds (to keep them out of the unsigned request data). */
export function secretsOf(config: VerificationConfig): unknown[] {
	return config.mode === 'none' ? [] : config.secrets;
}

/**
 * The one output rule: the body as read from the verified bytes, and beside it only `webhookDelivery` (a name the
 * body may not use), which carries the request data no signature covers under names that say so. No secret of the
 * credential (accepted here or not), and no header carrying Secret in Header's shared key, ever reach it.
 */
function outputItem(settings: TriggerSettings, request: ReceivedRequest, body: IDataObject, delivery: WebhookDelivery): IDataObject {
	const { config, credentialSecrets } = settings;
	if (settings.includeHeaders) delivery.unsignedHeaders = safeHeaders(request.headers, config.mode === 'secretHeader' ? config.secretHeader : '', credentialSecrets);
	if (settings.includeQuery) delivery.unsignedQuery = safeQuery(request.query, credentialSecrets);
	return { ...body, [WEBHOOK_DELIVERY_FIELD]: delivery };
}
