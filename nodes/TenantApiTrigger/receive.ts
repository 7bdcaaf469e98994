import type { IDataObject } from 'n8n-workflow';

import type { WebhookDelivery } from '../shared/webhookDelivery';
import { WEBHOOK_DELIVERY_FIELD } from '../shared/webhookDelivery';

import type { Answer, HandshakeName } from './answers';
import { HANDSHAKES } from './answers';
import { deliveryIdentity, eventAccepted, eventType, safeHeaders, safeQuery } from './delivery';
import type { RefusalReason, RefusalStatus } from './refusals';
import { refusalAnswer } from './refusals';
import type {
	BodyFormat,
	HeaderBag,
	Reading,
	Seen,
	SignedUnit,
	VerificationConfig,
} from './verifier';
import { deliveryFormat, mismatchedMediaType, readDelivery } from './verifier';

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
export type Outcome =
	| {
			action: 'refuse';
			status: RefusalStatus;
			reason: RefusalReason;
			message: string;
			seen?: Seen;
	  }
	| { action: 'handshake'; handshake: HandshakeName; answer: Answer }
	| { action: 'acknowledge'; event: string | undefined }
	| { action: 'start'; items: IDataObject[] };

export type Refusal = Extract<Outcome, { action: 'refuse' }>;

/** A refusal: the reason, the status and message the sender gets for it (refusals.ts), and what the verifier saw. */
export function refusal(reason: RefusalReason, format: BodyFormat = 'json', seen?: Seen): Refusal {
	return {
		action: 'refuse',
		reason,
		...refusalAnswer(reason, format),
		...(seen === undefined ? {} : { seen }),
	};
}

/** A request without bytes (n8n parsed multipart itself): nothing can be verified or read. */
function withoutBytes(settings: TriggerSettings, request: ReceivedRequest): Outcome {
	const format = deliveryFormat(settings.config, request.url);
	if (settings.config.mode === 'none' && mismatchedMediaType(format, request.headers) !== undefined)
		return refusal('unsupported_media_type', format);
	return refusal('raw_body_unavailable');
}

type Started = {
	json: IDataObject;
	event: string | undefined;
	id: string | null;
	signed: IDataObject;
};

/** One signed unit as the workflow gets it, or why the delivery is refused. */
function startUnit(
	settings: TriggerSettings,
	request: ReceivedRequest,
	reading: Extract<Reading, { ok: true }>,
	unit: SignedUnit,
): Started | Refusal {
	if (Object.prototype.hasOwnProperty.call(unit.object, WEBHOOK_DELIVERY_FIELD))
		return refusal('reserved_field');
	const delivery = deliveryIdentity(
		settings.config,
		reading.check,
		request.headers,
		unit,
		settings.idFields,
		settings.verification,
	);
	if (typeof delivery === 'string') return refusal(delivery);
	return {
		json: outputItem(settings, request, unit.object, delivery),
		event: eventType(unit.signed, settings.eventPath),
		id: delivery.id,
		signed: unit.signed,
	};
}

/**
 * Whether two units of one delivery name the same event (the same id, or without an id the same signed content): a
 * sender never sends an event twice in one delivery.
 */
function repeatsAnEvent(units: Started[]): boolean {
	const events = units.map((unit) =>
		unit.id !== null ? `id ${unit.id}` : `signed ${JSON.stringify(unit.signed)}`,
	);
	return new Set(events).size !== events.length;
}

/**
 * One delivery, from the request to what the workflow receives: verified, read once in the configured format, a
 * sender's handshake answered, each signed unit (the body, or each signed item) given its identity and filtered by
 * event type. Pure: the node only wires n8n's request and answer to it.
 */
export function receiveDelivery(settings: TriggerSettings, request: ReceivedRequest): Outcome {
	if (request.rawBody === undefined) return withoutBytes(settings, request);
	const reading = readDelivery(settings.config, {
		rawBody: request.rawBody,
		headers: request.headers,
		nowSeconds: request.nowSeconds,
		url: request.url,
	});
	if (!reading.ok)
		return refusal(
			reading.reason,
			'bodyFormat' in reading ? reading.bodyFormat : 'json',
			reading.seen,
		);
	const handshake = settings.handshake;
	const answer =
		handshake === undefined
			? undefined
			: HANDSHAKES[handshake].answer(reading.units[0].signed, request.headers);
	if (handshake !== undefined && answer !== undefined)
		return { action: 'handshake', handshake, answer };
	const units: Started[] = [];
	for (const unit of reading.units) {
		const started = startUnit(settings, request, reading, unit);
		if ('action' in started) return started;
		units.push(started);
	}
	if (repeatsAnEvent(units)) return refusal('duplicate_item');
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
function outputItem(
	settings: TriggerSettings,
	request: ReceivedRequest,
	body: IDataObject,
	delivery: WebhookDelivery,
): IDataObject {
	const { config, credentialSecrets } = settings;
	if (settings.includeHeaders)
		delivery.unsignedHeaders = safeHeaders(
			request.headers,
			config.mode === 'secretHeader' ? config.secretHeader : '',
			credentialSecrets,
		);
	if (settings.includeQuery) delivery.unsignedQuery = safeQuery(request.query, credentialSecrets);
	return { ...body, [WEBHOOK_DELIVERY_FIELD]: delivery };
}
