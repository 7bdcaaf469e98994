/**
 * Who a delivery is (`webhookDelivery.id`) and which event type it carries, read from what the
 * signature covers only, so that a captured delivery sent again cannot be given a new identity, and
 * two deliveries never share one.
 */
import type { IDataObject } from 'n8n-workflow';
import { createHash } from 'crypto';

import type { WebhookDelivery } from '../shared/webhookDelivery';

import type { Authenticated } from './authenticate';
import { parseNumbersAsWritten } from './exactJson';

export const DEFAULT_EVENT_PATH = 'event';

function child(current: unknown, key: string): unknown {
	if (Array.isArray(current)) return /^(0|[1-9]\d*)$/.test(key) ? current[Number(key)] : undefined;
	if (current === null || typeof current !== 'object') return undefined;
	return Object.prototype.hasOwnProperty.call(current, key)
		? (current as Record<string, unknown>)[key]
		: undefined;
}

/**
 * The value at a dot path (`data.object.id`, `items.0.id`), or undefined. Each segment is an own
 * key or a list index: a key that holds dots itself cannot be reached, so a body cannot shadow
 * `a.b` with a `"a.b"` key.
 */
function valueAtPath(body: unknown, path: string): unknown {
	const keys = path.trim() === '' ? [] : path.trim().split('.');
	return keys.length === 0 ? undefined : keys.reduce(child, body);
}

/**
 * A scalar field as id text: text as it is, a number as the sender wrote it (read from the bytes
 * again, only then), a boolean's word; undefined for anything else (objects, lists, empty text).
 */
function idText(value: unknown, writtenAt: () => unknown): string | undefined {
	if (typeof value === 'string') return value === '' ? undefined : value;
	if (typeof value === 'number') return writtenAt() as string;
	if (typeof value === 'boolean') return String(value);
	return undefined;
}

/**
 * Several id fields in one text that splits into the same parts one way only: each part
 * percent-encodes `%`, `:` and `,` (RFC 3986), and `:` joins them. One field is its text as it is.
 */
function joinIdParts(parts: string[]): string {
	const escape = (text: string) =>
		text.replace(/[%:,]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
	return parts.length === 1 ? parts[0] : parts.map(escape).join(':');
}

/**
 * The rule: the id the scheme signs in a header (`webhook-id`); else the body fields the user
 * names (Delivery ID Fields), when the delivery has all of them; else the SHA-256 of everything
 * signed but the timestamp: the signed header's value or URL (as a JSON string, so that it ends
 * where the body begins) and the verified bytes. The same event delivered again, re-signed later,
 * keeps its id; anything else signed that differs gives another.
 */
export function deliveryIdentity(
	signed: Pick<Authenticated, 'id' | 'header' | 'url'>,
	rawBody: Buffer,
	body: IDataObject,
	idFields: string[],
): Pick<WebhookDelivery, 'id' | 'idSource'> {
	if (signed.id !== undefined)
		return { id: signed.id.value, idSource: `header:${signed.id.header}` };
	// The bytes are UTF-8 (read before), so the lenient decoder reads them as the strict one did.
	let written: unknown;
	const writtenBody = () => (written ??= parseNumbersAsWritten(new TextDecoder().decode(rawBody)));
	const parts = idFields.map((path) =>
		idText(valueAtPath(body, path), () => valueAtPath(writtenBody(), path)),
	);
	if (parts.length > 0 && parts.every((part) => part !== undefined))
		return { id: joinIdParts(parts as string[]), idSource: `body:${idFields.join(',')}` };
	const hash = createHash('sha256');
	const beside = signed.header?.value ?? signed.url;
	if (beside !== undefined) hash.update(JSON.stringify(beside));
	const source = signed.header ? `header.${signed.header.name}+` : signed.url ? 'url+' : '';
	return { id: hash.update(rawBody).digest('hex'), idSource: `${source}body:sha256` };
}

/** The event type at `eventPath`, else at `type`; undefined when neither holds text. */
export function eventType(body: IDataObject, eventPath: string): string | undefined {
	for (const path of [eventPath || DEFAULT_EVENT_PATH, 'type']) {
		const value = valueAtPath(body, path);
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	}
	return undefined;
}

/**
 * Whether an event type passes the filter: an empty list or `*` passes everything; an entry ending
 * in `*` matches by prefix (`transfers.*`), any other exactly. A delivery without an event type
 * passes only those two.
 */
export function eventAccepted(accepted: string[], type: string | undefined): boolean {
	if (accepted.length === 0 || accepted.includes('*')) return true;
	if (type === undefined) return false;
	return accepted.some((entry) =>
		entry.endsWith('*') ? type.startsWith(entry.slice(0, -1)) : entry === type,
	);
}
