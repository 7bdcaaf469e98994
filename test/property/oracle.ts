/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The rule, written apart from the trigger: the workflow sees exactly what was signed, read one way, or nothing.
 * `expected` is what the documented behaviour gives for a request (docs/trigger.md: answers, bodies, delivery
 * identity, events, output), from the body as an independent reader reads it (bodies.ts); `judge` says whether what
 * the trigger did with a mutated request keeps the rule.
 */
import { isDeepStrictEqual } from 'util';

import type { IDataObject } from 'n8n-workflow';

import type { Reception } from '../../nodes/TenantApiTrigger/receive';
import { ADYEN_SIGNED_FIELDS, fieldText } from '../../sandbox/signing';

import { pairsObject, referenceReading, setOwn, whatwgPairs } from './bodies';
import type { Verdict } from './common';
import type { Delivery } from './sender';
import { NOW, itemPaths, itemsAt, setPath, valueAt } from './sender';
import type { CustomSpec, Setup } from './settings';

type Expected = { action: 'refuse'; why: string } | { action: 'acknowledge' } | { action: 'start'; json: IDataObject };

const TIMESTAMPED = ['standardWebhooks', 'stripe', 'slack', 'paddle'];
/** The body fields each Verification names the delivery by, when nothing else does (docs: Delivery identity). */
const ID_FIELDS: Record<string, string[]> = { slack: ['event_id'], paddle: ['event_id'], square: ['event_id'], adyenPlatform: [], twilio: [], standardWebhooks: [], adyenPayments: [] };
const ADYEN_TYPED = new Set(['amount.value']);
const TWILIO_SID = /^[A-Z]{2}[0-9a-fA-F]{32}$/;
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

const options = (setup: Setup) => (setup.parameters.options ?? {}) as IDataObject;
const names = (list: string) => list.split(',').map((n) => n.trim().toLowerCase()).filter((n) => n !== '');

/** The secrets the trigger holds for this request: current and previous, the test secret only at the Test URL. */
export function configuredSecrets(setup: Setup): string[] {
	if (setup.verification === 'none') return [];
	const { signingSecret, previousSigningSecret, testSigningSecret } = setup.credential;
	return [signingSecret, previousSigningSecret, ...(setup.testUrl ? [testSigningSecret] : [])].map((s) => s.trim()).filter((s) => s !== '');
}

// ---- what the signature covers ----

/** Each item reduced to its signed fields (text, or the JSON value of a typed field), on the path to the items. */
function signedFieldsView(body: IDataObject, itemsPath: string, paths: readonly string[], typed: Set<string>): IDataObject {
	const reduce = (item: unknown) => {
		const view: IDataObject = {};
		for (const path of paths) {
			const value = valueAt(item, path);
			setPath(view, path, typed.has(path) && value !== undefined ? value : fieldText(item, path));
		}
		return view;
	};
	const walk = (value: unknown, keys: string[]): unknown => {
		if (keys.length === 0) return reduce(value);
		const [key, ...rest] = keys;
		if (key === '*') return (value as unknown[]).map((element) => walk(element, rest));
		return { [key]: walk((value as IDataObject)[key], rest) };
	};
	return walk(body, itemsPath.split('.')) as IDataObject;
}

/** The signature covers form fields by Twilio's rule (no boundaries between them), and nothing else covers the body. */
function unboundedFields(setup: Setup, delivery: Delivery): boolean {
	if (setup.format !== 'form') return false;
	if (setup.verification === 'twilio') return true;
	const { sender } = setup;
	if (sender.kind !== 'custom' || sender.spec.signatureIn !== 'header') return false;
	const signs = (p: string) => sender.spec.template.some((piece) => 'placeholder' in piece && piece.placeholder === p);
	// A body hash counts only in a signed URL, under the configured parameter.
	const hashed = signs('url') && sender.spec.bodyHashParameter !== '' && new URLSearchParams(delivery.query).has(sender.spec.bodyHashParameter);
	return signs('formFields') && !signs('body') && !hashed;
}

/** Every item's signed fields hold none of the literal text between them and their neighbouring fields (docs: Custom HMAC). */
function splitsOneWay(spec: CustomSpec, view: IDataObject): boolean {
	const pieces = spec.template;
	const separators = new Map<string, string>();
	pieces.forEach((piece, i) => {
		const [literal, next] = [pieces[i + 1], pieces[i + 2]];
		if (!('item' in piece) || literal === undefined || !('literal' in literal) || next === undefined || !('item' in next)) return;
		for (const field of [piece.item, next.item]) separators.set(field, (separators.get(field) ?? '') + literal.literal);
	});
	const items = itemsAt(view, spec.itemsPath) as unknown[];
	return items.every((item) => [...separators].every(([field, chars]) => ![...chars].some((c) => String(valueAt(item, field)).includes(c))));
}

/** What the workflow gets of signed items: Adyen's whole body, Custom HMAC's signed fields. */
function signedItemsOutput(setup: Setup, read: IDataObject): IDataObject {
	const { sender } = setup;
	if (sender.kind !== 'custom' || sender.spec.signatureIn !== 'items') return read;
	return signedFieldsView(read, sender.spec.itemsPath, itemPaths(sender.spec), new Set());
}

/** The body as read (what the workflow gets) and what the signature covers (where the id and the event come from). */
function reading(setup: Setup, body: Buffer): { output: IDataObject; signed: IDataObject } | undefined {
	const read = referenceReading(setup.format, body);
	if (read === undefined) return undefined;
	const { sender } = setup;
	if (sender.kind === 'adyenPayments') return { output: read, signed: signedFieldsView(read, 'notificationItems.*.NotificationRequestItem', ADYEN_SIGNED_FIELDS, ADYEN_TYPED) };
	if (sender.kind === 'custom' && sender.spec.signatureIn === 'items') {
		const view = signedFieldsView(read, sender.spec.itemsPath, itemPaths(sender.spec), new Set());
		return splitsOneWay(sender.spec, view) ? { output: view, signed: view } : undefined;
	}
	return { output: read, signed: read };
}

// ---- identity ----

function idText(value: unknown): string | undefined {
	if (typeof value === 'string') return value === '' ? undefined : value;
	if (typeof value === 'number') return String(value);
	if (typeof value === 'boolean') return String(value);
	return undefined;
}

const escapePart = (part: string) => part.replace(/%/g, '%25').replace(/:/g, '%3A').replace(/,/g, '%2C');
const joinParts = (parts: string[]) => (parts.length === 1 ? parts[0] : parts.map(escapePart).join(':'));

/** The id a scheme signs in a header (Standard Webhooks; Custom HMAC with {id}), and the header it came in. */
function signedIdHeader(setup: Setup, delivery: Delivery): [string, string] | undefined {
	const { sender } = setup;
	if (setup.verification === 'standardWebhooks') {
		const name = ['webhook-id', 'svix-id'].find((n) => delivery.headers[n] !== undefined);
		return name === undefined ? undefined : [String(delivery.headers[name]), name];
	}
	if (sender.kind === 'custom' && sender.spec.signatureIn === 'header' && sender.spec.template.some((p) => 'placeholder' in p && p.placeholder === 'id')) {
		return [String(delivery.headers[sender.spec.idHeader]), sender.spec.idHeader];
	}
	return undefined;
}

type Identity = { id: string | null; idSource: string | null } | 'malformed' | 'unprotected';

/** Signed items' ids: the signed text of their id fields (Adyen: eventCode, pspReference, success; Custom HMAC: every signed field). */
function itemIds(setup: Setup, signed: IDataObject): { fields: string[]; ids: string[][] } | undefined {
	const { sender } = setup;
	const scheme =
		sender.kind === 'adyenPayments'
			? { itemsPath: 'notificationItems.*.NotificationRequestItem', fields: ['eventCode', 'pspReference', 'success'] }
			: sender.kind === 'custom' && sender.spec.signatureIn === 'items'
				? { itemsPath: sender.spec.itemsPath, fields: itemPaths(sender.spec) }
				: undefined;
	if (scheme === undefined) return undefined;
	const items = itemsAt(signed, scheme.itemsPath) as unknown[];
	return { fields: scheme.fields, ids: items.map((item) => scheme.fields.map((field) => fieldText(item, field))) };
}

function identity(setup: Setup, delivery: Delivery, signed: IDataObject): Identity {
	const header = signedIdHeader(setup, delivery);
	if (header !== undefined) return { id: header[0], idSource: `header:${header[1]}` };
	const chosen = typeof options(setup).idFields === 'string' ? (options(setup).idFields as string).split(',').map((p) => p.trim()).filter((p) => p !== '') : [];
	const fromFields = (paths: string[]): Identity => {
		const parts = paths.map((path) => idText(valueAt(signed, path)));
		if (setup.verification === 'twilio' && paths.length > 0 && !parts.every((p) => p !== undefined && TWILIO_SID.test(p))) return 'malformed';
		if (paths.length === 0 || parts.some((p) => p === undefined)) return { id: null, idSource: null };
		return { id: joinParts(parts as string[]), idSource: `body:${paths.join(',')}` };
	};
	if (setup.verification === 'customHmac' && unboundedFields(setup, delivery)) return chosen.length > 0 ? 'unprotected' : { id: null, idSource: null };
	if (chosen.length > 0) return fromFields(chosen);
	const items = itemIds(setup, signed);
	if (items !== undefined) return { id: items.ids.map((parts) => parts.map(escapePart).join(':')).sort().join(','), idSource: `items:${items.fields.join(',')}` };
	return fromFields(ID_FIELDS[setup.verification] ?? ['id']);
}

function signedTimestamp(setup: Setup): number | null {
	const { sender } = setup;
	if (TIMESTAMPED.includes(setup.verification) || setup.parameters.useTimestamp === true) return NOW;
	if (sender.kind === 'custom' && sender.spec.template.some((p) => 'placeholder' in p && p.placeholder === 'timestamp')) return NOW;
	return null;
}

// ---- events ----

function eventType(signed: IDataObject, eventPath: string): string | undefined {
	for (const path of [eventPath, 'type']) {
		const value = valueAt(signed, path);
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	}
	return undefined;
}

function accepted(filter: string, type: string | undefined): boolean {
	const entries = filter.split(/[,\n\r]+/).map((e) => e.trim()).filter((e) => e !== '');
	if (entries.length === 0 || entries.includes('*')) return true;
	return type !== undefined && entries.some((e) => (e.endsWith('*') ? type.startsWith(e.slice(0, -1)) : e === type));
}

// ---- unsigned request data ----

/** The query as n8n hands it to the trigger: one value, or a list for a repeated name. */
export function queryObject(query: string): IDataObject {
	return pairsObject(new URLSearchParams(query));
}

const holdsSecret = (secrets: string[], ...texts: unknown[]) => texts.some((t) => secrets.some((s) => JSON.stringify(t).includes(JSON.stringify(s).slice(1, -1))));

function unsignedHeaders(setup: Setup, delivery: Delivery): IDataObject {
	const secretHeader = setup.verification === 'secretHeader' ? names(String(setup.parameters.sharedKeyHeader ?? 'x-webhook-secret')) : [];
	const redacted = [...CREDENTIAL_HEADERS, ...(secretHeader.length > 0 ? secretHeader : setup.verification === 'secretHeader' ? ['x-webhook-secret'] : [])];
	const secrets = configuredSecrets(setup);
	return Object.fromEntries(Object.entries(delivery.headers).filter(([name, value]) => !redacted.includes(name.toLowerCase()) && !holdsSecret(secrets, name, value)));
}

function unsignedQuery(setup: Setup, delivery: Delivery): IDataObject {
	const secrets = configuredSecrets(setup);
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(queryObject(delivery.query))) if (!holdsSecret(secrets, name, value)) setOwn(out, name, value);
	return out;
}

/**
 * A Custom template whose placeholders meet without literal text between them, where bytes could move across the
 * join (docs: Custom HMAC): every delivery is refused.
 */
function ambiguousTemplate(setup: Setup): boolean {
	const { sender } = setup;
	if (sender.kind !== 'custom' || sender.spec.signatureIn !== 'header') return false;
	const pieces = sender.spec.template;
	return pieces.some((piece, i) => {
		const next = pieces[i + 1];
		if (next === undefined || !('placeholder' in piece) || !('placeholder' in next)) return false;
		const pinned = next.placeholder === 'url' || (setup.format === 'json' && (piece.placeholder === 'body' || next.placeholder === 'body'));
		return !pinned && !(piece.placeholder === 'url' && next.placeholder === 'formFields');
	});
}

// ---- the expectation ----

/** What the trigger must do with a request, by the documented rules, taking the request as the sender's own. */
export function expected(setup: Setup, delivery: Delivery): Expected {
	if (setup.signWith === 'test' && !setup.testUrl) return { action: 'refuse', why: 'the test secret outside the Test URL' };
	if (ambiguousTemplate(setup)) return { action: 'refuse', why: 'placeholders that meet without a boundary' };
	const read = reading(setup, delivery.body);
	if (read === undefined) return { action: 'refuse', why: 'unreadable body' };
	if (Object.prototype.hasOwnProperty.call(read.output, 'webhookDelivery')) return { action: 'refuse', why: 'reserved field' };
	const id = identity(setup, delivery, read.signed);
	if (id === 'malformed') return { action: 'refuse', why: 'Twilio id not a SID' };
	if (id === 'unprotected') return { action: 'refuse', why: 'Delivery ID Fields under a signature without field boundaries' };
	const eventPath = typeof options(setup).eventPath === 'string' ? (options(setup).eventPath as string) : 'event';
	if (!accepted(String(setup.parameters.events ?? ''), eventType(read.signed, eventPath || 'event'))) return { action: 'acknowledge' };
	const webhookDelivery: IDataObject = {
		...id,
		timestamp: signedTimestamp(setup),
		verification: setup.verification,
		secret: setup.signWith,
		bodyType: setup.format,
		...(options(setup).includeHeaders === true ? { unsignedHeaders: unsignedHeaders(setup, delivery) } : {}),
		...(options(setup).includeQuery === true ? { unsignedQuery: unsignedQuery(setup, delivery) } : {}),
	};
	return { action: 'start', json: { ...read.output, webhookDelivery } };
}

/** Whether what the trigger did is what was expected (a refusal may have any reason the docs list). */
export function sameOutcome(want: Expected, got: Reception): boolean {
	if (want.action !== got.action) return false;
	return want.action !== 'start' || (got.action === 'start' && isDeepStrictEqual(got.json, want.json));
}

// ---- judging a mutated request ----

/** Twilio's signed text of a form: names sorted, each followed by its distinct values sorted. */
function twilioSignedText(body: Buffer): string {
	const fields = new Map<string, string[]>();
	for (const [name, value] of whatwgPairs(body)) fields.set(name, [...(fields.get(name) ?? []), value]);
	return [...fields.keys()].sort().map((name) => [...new Set(fields.get(name))].sort().map((value) => name + value).join('')).join('');
}

/** The signed fields of each signed item, as a sorted list (each item is signed on its own, so order is not signed). */
function itemProjection(setup: Setup, json: IDataObject): string[] | undefined {
	const { sender } = setup;
	if (sender.kind === 'adyenPayments') {
		const items = (json.notificationItems ?? []) as Array<{ NotificationRequestItem: IDataObject }>;
		return items.map((entry) => JSON.stringify(ADYEN_SIGNED_FIELDS.map((path) => valueAt(entry.NotificationRequestItem, path) ?? ''))).sort();
	}
	if (sender.kind !== 'custom' || sender.spec.signatureIn !== 'items') return undefined;
	return (itemsAt(json, sender.spec.itemsPath) ?? []).map((item) => JSON.stringify(item)).sort();
}

const withoutUnsigned = (json: IDataObject) => {
	const delivery = { ...(json.webhookDelivery as IDataObject) };
	delete delivery.unsignedHeaders;
	delete delivery.unsignedQuery;
	return { ...json, webhookDelivery: delivery };
};

/**
 * A mutated request kept the rule when it was refused or acknowledged, or started the workflow with exactly what the
 * genuine one started with (the unsigned request data as this request carried it), or, where a scheme cannot
 * protect something (docs: Limits of each scheme), within the named class. No secret is ever in the output.
 */
export function judge(setup: Setup, genuine: Delivery, sent: Delivery, got: Reception): Verdict {
	if (got.action === 'refuse') return { ok: true, outcome: `refused ${got.status} ${got.reason}` };
	if (got.action === 'acknowledge') return { ok: true, outcome: 'acknowledged' };
	if (holdsSecret(configuredSecrets(setup), got.json)) return { ok: false, outcome: 'started', why: 'a secret reached the output' };
	const asSent = expected(setup, sent);
	const want = expected(setup, genuine);
	if (want.action === 'start' && isDeepStrictEqual(withoutUnsigned(got.json), withoutUnsigned(want.json))) {
		return sameOutcome(asSent, got) ? { ok: true, outcome: 'started as signed' } : { ok: false, outcome: 'started', why: 'the unsigned request data is not as sent' };
	}
	if (!sameOutcome(asSent, got)) return { ok: false, outcome: 'started', why: 'the workflow would see something that was not signed, or not read one way' };
	if (setup.verification === 'none' || setup.verification === 'secretHeader') return { ok: true, outcome: 'started unsigned (nothing is signed), read one way' };
	if (unboundedFields(setup, genuine) && sent.query + twilioSignedText(sent.body) === genuine.query + twilioSignedText(genuine.body)) {
		const sameId = want.action !== 'start' || (want.json.webhookDelivery as IDataObject).id === null || isDeepStrictEqual((got.json.webhookDelivery as IDataObject).id, (want.json.webhookDelivery as IDataObject).id);
		return sameId
			? { ok: true, outcome: "started: form fields signed by Twilio's rule, signed text unchanged (where the query, names and values meet, and field order, are not signed)" }
			: { ok: false, outcome: 'started', why: 'a replay with moved field boundaries got a fresh delivery id' };
	}
	// Beside the signed items Adyen's body holds only `live`; every entry of the list only its item.
	const adyenShape = (json: IDataObject) =>
		Object.keys(json).every((k) => ['live', 'notificationItems', 'webhookDelivery'].includes(k)) &&
		((json.notificationItems ?? []) as IDataObject[]).every((entry) => Object.keys(entry).join() === 'NotificationRequestItem');
	if (setup.verification === 'adyenPayments' && !adyenShape(got.json)) return { ok: false, outcome: 'started', why: 'unsigned data beside the signed items' };
	const seen = itemProjection(setup, got.json);
	// The items the sender signed, each on its own, whether or not the whole genuine delivery was accepted.
	const genuineRead = referenceReading(setup.format, genuine.body);
	const signedItems = genuineRead === undefined ? undefined : itemProjection(setup, signedItemsOutput(setup, genuineRead));
	if (seen !== undefined && signedItems !== undefined) {
		if (isDeepStrictEqual(seen, signedItems)) return { ok: true, outcome: 'started: the signed items, in another order or with other unsigned fields (each item is signed on its own)' };
		if (seen.every((item) => signedItems.includes(item))) return { ok: true, outcome: 'started: some of the signed items (each is signed on its own)' };
	}
	return { ok: false, outcome: 'started', why: 'the workflow would see something that was not signed' };
}
