import type { IDataObject } from 'n8n-workflow';

import type { BodyFormat, HeaderBag, VerificationConfig, VerificationResult } from './verification';
import { headerValue, valueAtPath } from './verification';

export const DEFAULT_EVENT_PATH = 'event';
export const FALLBACK_EVENT_PATH = 'type';

/** The event type at `eventPath`, else at `type`; undefined when neither is a non-empty string. */
export function eventType(body: IDataObject, eventPath: string): string | undefined {
	for (const path of [eventPath || DEFAULT_EVENT_PATH, FALLBACK_EVENT_PATH]) {
		const value = valueAtPath(body, path);
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	}
	return undefined;
}

/** Accepted event types from free text: comma or newline separated, blanks dropped. */
export function parseEventList(text: string | undefined): string[] {
	if (typeof text !== 'string') return [];
	return text
		.split(/[,\n\r]+/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/**
 * True when the delivery passes the filter. Empty list = everything. An entry ending in `*` matches by
 * prefix (`transfers.*`), `*` alone matches everything; otherwise the match is exact and case-sensitive.
 * A delivery without an event type passes only an empty filter or `*`.
 */
export function eventAccepted(accepted: string[], type: string | undefined): boolean {
	if (accepted.length === 0 || accepted.includes('*')) return true;
	if (type === undefined) return false;
	return accepted.some((entry) => (entry.endsWith('*') ? type.startsWith(entry.slice(0, -1)) : entry === type));
}

/** Headers never copied into the output: they can carry credentials. */
const ALWAYS_REDACTED = ['authorization', 'proxy-authorization', 'cookie'];

/** A copy of the headers without credential-bearing ones (and without the secret-in-header header). */
export function safeHeaders(headers: HeaderBag, extraRedacted: string[]): IDataObject {
	const redacted = new Set([...ALWAYS_REDACTED, ...extraRedacted.map((h) => h.trim().toLowerCase()).filter((h) => h !== '')]);
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(headers)) {
		if (value === undefined || redacted.has(key.toLowerCase())) continue;
		out[key] = value;
	}
	return out;
}

/** The output field that holds the delivery's identity (README "Delivery identity"). */
export const WEBHOOK_DELIVERY_FIELD = 'webhookDelivery';

/**
 * `webhookDelivery` on every output item: who the delivery is, in one place later nodes can rely on.
 * `id` comes only from signed data, so a replayed delivery cannot be given a fresh identity.
 */
export interface WebhookDelivery extends IDataObject {
	/** The delivery's id, or null when the scheme signs none and the body has none. */
	id: string | null;
	/** Where `id` was read: `header:<name>` (a signed header), `body:<path>[,<path>]` or `items:<field>,…`; null with `id`. */
	idSource: string | null;
	/** The signed timestamp (unix seconds), or null when the scheme signs none. */
	timestamp: number | null;
	/** The Verification setting that accepted the delivery. */
	verification: string;
	/** Which credential secret matched: `current`, `previous`, or null without verification. */
	secret: 'current' | 'previous' | null;
	/** How the body was read: `json` or `form`. */
	bodyType: BodyFormat;
}

/** A scalar body field as id text; undefined for anything else (objects, arrays, blanks). */
function idText(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'boolean') return String(value);
	return undefined;
}

/** The name of the header alternative that is present (for `idSource`). */
function presentHeader(headers: HeaderBag, names: string): string | undefined {
	return names
		.split(',')
		.map((n) => n.trim().toLowerCase())
		.find((name) => name !== '' && headerValue(headers, name) !== undefined);
}

/** The id made of body fields (all must hold a scalar; several are joined with ':'), with its source. */
function bodyFieldsId(body: IDataObject, paths: string[]): [string, string] | undefined {
	const parts = paths.map((path) => idText(valueAtPath(body, path)));
	if (parts.length === 0 || !parts.every((part): part is string => part !== undefined)) return undefined;
	return [parts.join(':'), `body:${paths.join(',')}`];
}

/**
 * The rule: a signed id header when the scheme signs one (Standard Webhooks: `webhook-id` / `svix-id`);
 * otherwise the body fields `chosenIdFields` (Delivery ID Fields) when set; otherwise the signed items' ids
 * (Adyen payments); otherwise the scheme's body fields (`id` without a scheme). Undefined: none.
 */
function identify(config: VerificationConfig, result: VerificationResult, headers: HeaderBag, body: IDataObject, chosenIdFields: string[]): [string, string] | undefined {
	if (config.mode !== 'hmac') return bodyFieldsId(body, chosenIdFields.length > 0 ? chosenIdFields : ['id']);
	const { scheme } = config;
	if (result.id !== undefined) return [result.id, `header:${presentHeader(headers, scheme.idHeader) ?? scheme.idHeader}`];
	if (chosenIdFields.length > 0) return bodyFieldsId(body, chosenIdFields);
	if (result.itemsId !== undefined) return [result.itemsId, `items:${scheme.itemIdFields.join(',')}`];
	return bodyFieldsId(body, scheme.idFields);
}

export function deliveryIdentity(
	config: VerificationConfig,
	result: VerificationResult,
	headers: HeaderBag,
	body: IDataObject,
	chosenIdFields: string[],
	verification: string,
): WebhookDelivery {
	const [id, idSource] = identify(config, result, headers, body, chosenIdFields) ?? [null, null];
	const secret = result.secretIndex === undefined ? null : result.secretIndex === 0 ? 'current' : 'previous';
	return { id, idSource, timestamp: result.timestamp ?? null, verification, secret, bodyType: result.bodyFormat ?? 'json' };
}
