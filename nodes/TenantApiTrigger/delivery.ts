import type { IDataObject } from 'n8n-workflow';

import type { WebhookDelivery } from '../shared/webhookDelivery';
import { setOwn } from '../shared/ownProperty';
import { SECRET_NAMES } from '../shared/webhookDelivery';

import type { HeaderBag, SignedUnit, SignaturePassed, VerificationConfig } from './verifier';
import {
	headerNames,
	headerValue,
	joinIdParts,
	joinItemIds,
	usableSecrets,
	valueAtPath,
} from './verifier';

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
	return accepted.some((entry) =>
		entry.endsWith('*') ? type.startsWith(entry.slice(0, -1)) : entry === type,
	);
}

/** Headers never copied into the output: they can carry credentials. */
const ALWAYS_REDACTED = ['authorization', 'proxy-authorization', 'cookie'];

/** Whether a name or value holds one of the secrets (the shared key of Secret in Header, or one sent by mistake). */
function holdsSecret(secrets: string[], ...texts: unknown[]): boolean {
	return texts.some((text) =>
		secrets.some((secret) =>
			(Array.isArray(text) ? text : [text]).some((t) => String(t).includes(secret)),
		),
	);
}

/** The request headers without those that carry credentials: `secretHeaders` (a setting's list) and any holding a secret. */
export function safeHeaders(
	headers: HeaderBag,
	secretHeaders: string,
	secrets: unknown[],
): IDataObject {
	const redacted = new Set([...ALWAYS_REDACTED, ...headerNames(secretHeaders)]);
	const usable = usableSecrets(secrets);
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(headers)) {
		if (value === undefined || redacted.has(key.toLowerCase()) || holdsSecret(usable, key, value))
			continue;
		out[key] = value;
	}
	return out;
}

/** The query parameters without any that hold a secret. */
export function safeQuery(query: IDataObject, secrets: unknown[]): IDataObject {
	const usable = usableSecrets(secrets);
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(query)) {
		if (!holdsSecret(usable, key, value)) setOwn(out, key, value);
	}
	return out;
}

/** A scalar field as id text, exactly as signed; undefined for anything else (objects, lists, empty text). */
function idText(value: unknown): string | undefined {
	if (typeof value === 'string') return value === '' ? undefined : value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'boolean') return String(value);
	return undefined;
}

/** The name of the header alternative that is present (for `idSource`). */
function presentHeader(headers: HeaderBag, names: string): string | undefined {
	return headerNames(names).find((name) => headerValue(headers, name) !== undefined);
}

/**
 * Why a delivery cannot be named: Delivery ID Fields under a signature that does not say where a form field ends
 * (Twilio's rule, Custom `{formFields}`), where any field could be re-cut into another id.
 */
export type IdRefusal = 'unprotected_id';

type Identity = [string, string] | undefined | IdRefusal;

/** The id made of signed body fields (all must hold a scalar; several are joined by joinIdParts), with its source. */
function bodyFieldsId(signed: IDataObject, paths: string[]): Identity {
	const parts = paths.map((path) => idText(valueAtPath(signed, path)));
	if (parts.length === 0 || !parts.every((part): part is string => part !== undefined))
		return undefined;
	return [joinIdParts(parts), `body:${paths.join(',')}`];
}

/**
 * The rule: a signed id header when the scheme signs one (Standard Webhooks: `webhook-id` / `svix-id`); the digest of
 * the signed text where the signature leaves field boundaries open (Delivery ID Fields refused there); otherwise the
 * body fields `chosenIdFields` (Delivery ID Fields) when set; otherwise a signed item's id fields (Adyen payments);
 * otherwise the scheme's body fields (`id` without a scheme). Undefined: none.
 */
function identify(
	config: VerificationConfig,
	result: SignaturePassed,
	headers: HeaderBag,
	unit: SignedUnit,
	chosenIdFields: string[],
): Identity {
	if (config.mode !== 'hmac')
		return bodyFieldsId(unit.signed, chosenIdFields.length > 0 ? chosenIdFields : ['id']);
	const { scheme } = config;
	if (result.id !== undefined)
		return [result.id, `header:${presentHeader(headers, scheme.idHeader) ?? scheme.idHeader}`];
	if (result.signedTextSha256 !== undefined)
		return chosenIdFields.length > 0
			? 'unprotected_id'
			: [result.signedTextSha256, SIGNED_TEXT_ID_SOURCE];
	if (chosenIdFields.length > 0) return bodyFieldsId(unit.signed, chosenIdFields);
	if (unit.itemId !== undefined)
		return [joinItemIds([unit.itemId]), `items:${(result.itemIdFields ?? []).join(',')}`];
	return bodyFieldsId(unit.signed, scheme.idFields);
}

/** `idSource` of an id that is the SHA-256 of the signed text. */
export const SIGNED_TEXT_ID_SOURCE = 'signedText:sha256';

/** A unit's identity, read from what the signature covers, or why its id fields cannot name it. */
export function deliveryIdentity(
	config: VerificationConfig,
	result: SignaturePassed,
	headers: HeaderBag,
	unit: SignedUnit,
	chosenIdFields: string[],
	verification: string,
): WebhookDelivery | IdRefusal {
	const identity = identify(config, result, headers, unit, chosenIdFields);
	if (typeof identity === 'string') return identity;
	const [id, idSource] = identity ?? [null, null];
	const secret =
		result.secretIndex === undefined ? null : (SECRET_NAMES[result.secretIndex] ?? null);
	return {
		id,
		idSource,
		timestamp: result.timestamp ?? null,
		verification,
		secret,
		bodyType: result.bodyFormat,
	};
}
