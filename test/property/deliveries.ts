/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Property-based model of the trigger's trust boundary: genuine deliveries of every signing scheme, and mutations
 * of them (bytes, Content-Type, JSON shape and types, form encoding, headers, query string), fed to the trigger's
 * pure reading (receiveDelivery: verification, body, identity). The rule checked: the workflow sees exactly what
 * was signed, read one way, or nothing. Used by test/unit/deliveryProperties.test.ts (a fixed seed) and by
 * `npm run fuzz` (test/property/campaign.ts, a long run).
 *
 * Where a scheme cannot protect something, the oracle names the class instead of failing (docs/trigger.md,
 * "Limits of each scheme"): Twilio signs the URL followed by the names and values of the sorted fields with nothing
 * between them (where one ends and the next begins, and the order of the fields, are not signed); Adyen payments
 * signs eight fields of each item, each item on its own (a batch can arrive cut down to some of its items); Secret in
 * Header and None sign nothing (the body must still be read in the configured format).
 */
import { createHash } from 'crypto';
import { isDeepStrictEqual } from 'util';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { Reception, ReceivedRequest, TriggerSettings } from '../../nodes/TenantApiTrigger/receive';
import { receiveDelivery } from '../../nodes/TenantApiTrigger/receive';
import { mediaType, mediaTypeFits } from '../../nodes/TenantApiTrigger/verification';
import type { SigningScheme } from '../../sandbox/signing';
import { SCHEMES, demoSecret, sign, signAdyenPayments, triggerParameters } from '../../sandbox/signing';
import { configForScheme, withoutDelivery } from '../harness/verifier';

import type { PropertyGroup, Verdict } from './common';
import { caseProperty, fraction } from './common';


const NOW = 1_700_000_000;
const BASE_URL = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
const FORM_TYPE = 'application/x-www-form-urlencoded';

type Format = 'json' | 'form';

/** A request as the trigger receives it; `query` is the raw query string ('' or '?…'). */
interface Delivery {
	body: Buffer;
	headers: Record<string, string | string[]>;
	query: string;
}

interface Case {
	scheme: SigningScheme;
	format: Format;
	genuine: Delivery;
}

const JSON_ONLY = new Set<SigningScheme>(['standard-webhooks', 'svix', 'stripe', 'paddle', 'square', 'adyen-platform', 'adyen-payments']);
const TIMESTAMPED = new Set<SigningScheme>(['standard-webhooks', 'svix', 'stripe', 'slack', 'paddle']);
const UNSIGNED = new Set<SigningScheme>(['none', 'secret-header']);

/** Every scheme with every body format its trigger can be set to. */
const COMBINATIONS: Array<[SigningScheme, Format]> = SCHEMES.flatMap((scheme) =>
	(JSON_ONLY.has(scheme) ? (['json'] as const) : (['json', 'form'] as const)).map((format): [SigningScheme, Format] => [scheme, format]),
);

/** The trigger's settings per scheme and body format, built once: the campaign reads them for every case. */
const SETTINGS = new Map<string, TriggerSettings>();

function settingsFor(scheme: SigningScheme, format: Format): TriggerSettings {
	const key = `${scheme} ${format}`;
	let settings = SETTINGS.get(key);
	if (!settings) {
		const parameters = triggerParameters(scheme, format);
		const config = configForScheme(scheme, [demoSecret(scheme)], parameters);
		settings = { verification: String(parameters.verification), config, events: [], eventPath: 'event', idFields: [], includeHeaders: false, includeQuery: false };
		SETTINGS.set(key, settings);
	}
	return settings;
}

function requestOf(delivery: Delivery): ReceivedRequest {
	return { rawBody: delivery.body, headers: delivery.headers, query: {}, url: BASE_URL + delivery.query, nowSeconds: NOW };
}

const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A delivery of `body` signed by the sandbox the way each provider signs. */
function signed(scheme: SigningScheme, format: Format, body: Buffer, query: string, id = 'msg_1'): Delivery {
	const contentType = format === 'form' ? FORM_TYPE : 'application/json';
	const signedQuery = scheme === 'twilio' && format === 'json' ? `${query}${query === '' ? '?' : '&'}bodySHA256=${sha256Hex(body)}` : query;
	if (scheme === 'adyen-payments') return { body, headers: { 'content-type': contentType }, query: signedQuery };
	const headers = sign({ secret: demoSecret(scheme), scheme, body, id, url: BASE_URL + signedQuery, contentType, timestamp: TIMESTAMPED.has(scheme) ? NOW : undefined });
	return { body, headers: { 'content-type': contentType, ...headers }, query: signedQuery };
}

// ---- generators of genuine deliveries ----

const SPECIAL_TEXT = ['x&event=payout.approved&amount=1000000&id=evt_new&y=', 'a.b', '=', '&', '+', '%41', '%', 'é', '\u2028', '{"x":1}', ':', '', ' '];
const text = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...SPECIAL_TEXT), fc.string({ unit: 'binary', maxLength: 6 }));
const key = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom('id', 'event', 'type', 'data', 'a.b', 'data.object', '__proto__', 'webhookDelivery'));
const leaf = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
	value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
}));

const eventBody = fc
	.record({ id: fc.string({ minLength: 1, maxLength: 8 }), event: text, created_at: fc.integer(), data: fc.dictionary(key, jsonValue, { maxKeys: 4 }) })
	.chain((event) => fc.constantFrom(0, 2).map((space) => Buffer.from(JSON.stringify(event, null, space))));

const fieldName = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom('event', 'id', 'a.b', 'payload', 'From'));
const formPairs = fc.array(fc.tuple(fieldName, text), { minLength: 1, maxLength: 6 });
/** Names must survive encoding as non-empty (lone surrogates become U+FFFD, still a name). */
const formBody = (distinctPairs: boolean) =>
	(distinctPairs ? formPairs.filter((pairs) => new Set(pairs.map((p) => JSON.stringify(p))).size === pairs.length) : formPairs).map((pairs) =>
		Buffer.from(new URLSearchParams(pairs).toString()),
	);

const alnum = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Z0-9]{${min},${max}}$`));
const adyenItem = fc.record(
	{
		pspReference: alnum(16, 16),
		originalReference: fc.oneof(alnum(16, 16), fc.constant('')),
		merchantAccountCode: fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/),
		merchantReference: text,
		amount: fc.record({ value: fc.integer({ min: 0, max: 10_000_000 }), currency: fc.constantFrom('EUR', 'USD', 'JPY') }),
		eventCode: fc.constantFrom('AUTHORISATION', 'CAPTURE', 'REFUND', 'CANCELLATION'),
		success: fc.constantFrom('true', 'false'),
		eventDate: fc.constant('2026-11-24T10:00:00+01:00'),
		reason: text,
		additionalData: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
	},
	{ requiredKeys: ['pspReference', 'merchantAccountCode', 'merchantReference', 'amount', 'eventCode', 'success'] },
);
const adyenBody = fc
	.uniqueArray(adyenItem, { minLength: 1, maxLength: 3, selector: (item) => JSON.stringify(adyenSignedFields(item).map((v) => (v === undefined ? '' : String(v)))) })
	.map((items) => Buffer.from(JSON.stringify(signAdyenPayments({ live: 'false', notificationItems: items.map((item) => ({ NotificationRequestItem: item })) }, demoSecret('adyen-payments')))));

const query = fc.oneof(
	fc.constant(''),
	fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 2 }).map((pairs) => `?${new URLSearchParams(pairs)}`),
);

function caseOf(scheme: SigningScheme, format: Format): fc.Arbitrary<Case> {
	const body = scheme === 'adyen-payments' ? adyenBody : format === 'form' ? formBody(scheme === 'twilio') : eventBody;
	return fc.record({ body, query, id: fc.stringMatching(/^msg_[a-z0-9]{1,8}$/) }).map(({ body: bytes, query: q, id }) => ({
		scheme,
		format,
		genuine: signed(scheme, format, bytes, q, id),
	}));
}

// ---- mutations ----

type JsonOp = 'set' | 'retype' | 'wrap' | 'literalTwin' | 'literalTwinKeepSigned' | 'reserialize' | 'dropKey' | 'addKey' | ItemOp;
/** Edits of signed items (Adyen payments): their list, and their signed fields. */
type ItemOp = 'duplicateItem' | 'reverseItems' | 'unsignedItem' | 'retypeSignedField' | 'literalSignedField';
type FormOp = 'reencode' | 'reorder' | 'duplicatePair' | 'emptyName' | 'moveBoundary';

type Mutation =
	| { kind: 'bytes'; edits: Array<{ op: 'flip' | 'insert' | 'delete'; at: number; byte: number }> }
	| { kind: 'splice'; at: number; length: number; text: string }
	| { kind: 'contentType'; value: string }
	| { kind: 'json'; op: JsonOp; at: number; at2: number; value: unknown }
	| { kind: 'form'; op: FormOp; at: number; text: string }
	| { kind: 'header'; op: 'drop' | 'replace' | 'repeat' | 'shiftTimestamp'; at: number; text: string; shift: number }
	| { kind: 'query'; op: 'add' | 'drop' | 'toBody' | 'fromBody'; at: number; text: string };

const CONTENT_TYPES = ['application/json', FORM_TYPE, 'text/plain', '', 'multipart/form-data; boundary=x', 'Application/X-WWW-Form-Urlencoded; charset=utf-8', 'application/json; charset=latin1', 'application/vnd.api+json'];

const byteEdits = fc.record({
	kind: fc.constant('bytes' as const),
	edits: fc.array(fc.record({ op: fc.constantFrom('flip' as const, 'insert' as const, 'delete' as const), at: fraction, byte: fc.integer({ min: 0, max: 255 }) }), {
		minLength: 1,
		maxLength: 3,
	}),
});
const splice = fc.record({ kind: fc.constant('splice' as const), at: fraction, length: fc.integer({ min: 0, max: 8 }), text });
const contentType = fc.record({ kind: fc.constant('contentType' as const), value: fc.constantFrom(...CONTENT_TYPES) });
const JSON_OPS: JsonOp[] = ['set', 'retype', 'wrap', 'literalTwin', 'literalTwinKeepSigned', 'reserialize', 'dropKey', 'addKey'];
const ITEM_OPS: ItemOp[] = ['duplicateItem', 'reverseItems', 'unsignedItem', 'retypeSignedField', 'literalSignedField'];
const jsonEdit = fc.record({ kind: fc.constant('json' as const), op: fc.constantFrom<JsonOp>(...JSON_OPS, ...ITEM_OPS), at: fraction, at2: fraction, value: jsonValue });
const formEdit = fc.record({ kind: fc.constant('form' as const), op: fc.constantFrom<FormOp>('reencode', 'reorder', 'duplicatePair', 'emptyName', 'moveBoundary'), at: fraction, text });
const headerEdit = fc.record({
	kind: fc.constant('header' as const),
	op: fc.constantFrom('drop' as const, 'replace' as const, 'repeat' as const, 'shiftTimestamp' as const),
	at: fraction,
	text,
	shift: fc.integer({ min: -400, max: 400 }),
});
const queryEdit = fc.record({ kind: fc.constant('query' as const), op: fc.constantFrom('add' as const, 'drop' as const, 'toBody' as const, 'fromBody' as const), at: fraction, text });

/** Structural edits weigh more than byte edits, most of which only make the body unreadable. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
	{ arbitrary: byteEdits, weight: 2 },
	{ arbitrary: splice, weight: 1 },
	{ arbitrary: contentType, weight: 2 },
	{ arbitrary: jsonEdit, weight: 4 },
	{ arbitrary: formEdit, weight: 2 },
	{ arbitrary: headerEdit, weight: 2 },
	{ arbitrary: queryEdit, weight: 2 },
);

const pick = <T>(list: T[], at: number): T | undefined => (list.length === 0 ? undefined : list[Math.floor(at * list.length)]);

function editBytes(body: Buffer, edits: Array<{ op: 'flip' | 'insert' | 'delete'; at: number; byte: number }>): Buffer {
	let bytes = Buffer.from(body);
	for (const { op, at, byte } of edits) {
		const i = Math.floor(at * (bytes.length + (op === 'insert' ? 1 : 0)));
		if (op === 'insert') bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([byte]), bytes.subarray(i)]);
		else if (bytes.length === 0) continue;
		else if (op === 'delete') bytes = Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]);
		else bytes[i] = bytes[i] ^ (byte || 1);
	}
	return bytes;
}

type Path = Array<string | number>;

/** Every path to a value in a JSON value (containers included), root excluded. */
function paths(value: unknown, prefix: Path = []): Path[] {
	if (value === null || typeof value !== 'object') return [];
	const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value as IDataObject);
	return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

function containerAt(root: unknown, path: Path): Record<string | number, unknown> | undefined {
	let current = root;
	for (const k of path) current = current !== null && typeof current === 'object' ? (current as Record<string | number, unknown>)[k] : undefined;
	return current !== null && typeof current === 'object' ? (current as Record<string | number, unknown>) : undefined;
}

function setOwn(target: Record<string | number, unknown>, k: string | number, v: unknown): void {
	Object.defineProperty(target, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function retype(value: unknown): unknown {
	if (typeof value === 'number') return String(value);
	if (typeof value === 'string') return /^-?\d+$/.test(value) ? Number(value) : value === 'true' ? true : [value];
	if (typeof value === 'boolean') return String(value);
	return [value];
}

const ADYEN_SIGNED_PATHS = ['pspReference', 'originalReference', 'merchantAccountCode', 'merchantReference', 'amount.value', 'amount.currency', 'eventCode', 'success'];

/** An edit of one signed field of one item: its type changed, or the nested value changed with the signed one beside it as a literal `a.b` key. */
function editSignedField(item: IDataObject, op: 'retypeSignedField' | 'literalSignedField', at: number, value: unknown): void {
	const path = ADYEN_SIGNED_PATHS[Math.floor(at * ADYEN_SIGNED_PATHS.length)].split('.');
	const parent = containerAt(item, path.slice(0, -1));
	if (parent === undefined) return;
	const last = path[path.length - 1];
	if (op === 'retypeSignedField') return setOwn(parent, last, retype(parent[last]));
	setOwn(item, path.join('.'), parent[last]);
	setOwn(parent, last, value);
}

/** A structural edit of a JSON body, serialized again; undefined when the body is not JSON or the edit does not apply. */
function editJson(body: Buffer, m: Extract<Mutation, { kind: 'json' }>): Buffer | undefined {
	const { op, at, at2, value } = m;
	let root: unknown;
	try {
		root = JSON.parse(body.toString('utf8'));
	} catch {
		return undefined;
	}
	if (root === null || typeof root !== 'object') return undefined;
	const items = (root as IDataObject).notificationItems;
	if (op === 'reserialize') return Buffer.from(JSON.stringify(root, null, 1 + Math.floor(at * 3)));
	if (op === 'duplicateItem' || op === 'reverseItems' || op === 'unsignedItem' || op === 'retypeSignedField' || op === 'literalSignedField') {
		if (!Array.isArray(items) || items.length === 0) return undefined;
		const i = Math.floor(at * items.length);
		if (op === 'duplicateItem') items.splice(i, 0, items[i]);
		else if (op === 'reverseItems') items.reverse();
		else if (op === 'unsignedItem') items.splice(i, 0, { NotificationRequestItem: { pspReference: 'UNSIGNED', amount: { value: 1, currency: 'EUR' }, eventCode: 'REFUND', success: 'true' } });
		else editSignedField((items[i] as { NotificationRequestItem: IDataObject }).NotificationRequestItem, op, at2, value);
		return Buffer.from(JSON.stringify(root));
	}
	const target = pick(paths(root), at);
	if (target === undefined) return undefined;
	const parent = containerAt(root, target.slice(0, -1));
	const last = target[target.length - 1];
	if (parent === undefined) return undefined;
	const current = parent[last];
	if (op === 'set') setOwn(parent, last, value);
	else if (op === 'retype') setOwn(parent, last, retype(current));
	else if (op === 'wrap') setOwn(parent, last, [current]);
	else if (op === 'dropKey' && Array.isArray(parent)) parent.splice(Number(last), 1);
	else if (op === 'dropKey') delete parent[last];
	else if (op === 'addKey' && !Array.isArray(parent)) setOwn(parent, typeof value === 'string' ? value : 'extra', value);
	else if (op === 'literalTwin' || op === 'literalTwinKeepSigned') {
		// `a.b` written as one key beside `a: { b }`, the real value changed (or the literal one), at the top or in between.
		if (target.length < 2) return undefined;
		const split = 1 + Math.floor(at2 * (target.length - 1));
		const holder = containerAt(root, target.slice(0, split - 1));
		if (holder === undefined || Array.isArray(holder)) return undefined;
		const literal = target.slice(split - 1).join('.');
		if (op === 'literalTwin') {
			setOwn(holder, literal, current);
			setOwn(parent, last, value);
		} else {
			setOwn(holder, literal, value);
		}
	} else return undefined;
	return Buffer.from(JSON.stringify(root));
}

/** The body's pairs as WHATWG reads them, edited, and encoded again. */
function editForm(body: Buffer, op: FormOp, at: number, extra: string): Buffer | undefined {
	const pairs = whatwgPairs(body);
	if (pairs.length === 0) return undefined;
	const i = Math.floor(at * pairs.length);
	if (op === 'emptyName') return Buffer.concat([body, Buffer.from(`&=${encodeURIComponent(extra)}`)]);
	if (op === 'reencode') return Buffer.from(pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&'));
	if (op === 'reorder') pairs.reverse();
	else if (op === 'duplicatePair') pairs.splice(i, 0, pairs[i]);
	else {
		const joined = pairs[i][0] + pairs[i][1];
		const split = 1 + Math.floor(at * Math.max(joined.length - 1, 1));
		pairs[i] = [joined.slice(0, split), joined.slice(split)];
	}
	return Buffer.from(new URLSearchParams(pairs).toString());
}

function editHeader(headers: Delivery['headers'], m: Extract<Mutation, { kind: 'header' }>): Delivery['headers'] {
	const names = Object.keys(headers).sort();
	const name = pick(names, m.at);
	if (name === undefined) return headers;
	const out = { ...headers };
	const current = String(out[name]);
	if (m.op === 'drop') delete out[name];
	else if (m.op === 'replace') out[name] = m.text;
	else if (m.op === 'repeat') out[name] = [current, m.text];
	else out[name] = current.replace(/\d{10}/, (ts) => String(Number(ts) + m.shift));
	return out;
}

function editQuery(delivery: Delivery, m: Extract<Mutation, { kind: 'query' }>): Delivery {
	const { body, query: q } = delivery;
	if (m.op === 'add') return { ...delivery, query: `${q}${q === '' ? '?' : '&'}${encodeURIComponent(m.text || 'x')}=1` };
	if (m.op === 'drop') return { ...delivery, query: q.includes('&') ? q.slice(0, q.lastIndexOf('&')) : '' };
	// Bytes moved across the join of `{url}{body}` (Square signs the two concatenated).
	const n = 1 + Math.floor(m.at * 4);
	if (m.op === 'toBody') return q.length <= 1 ? delivery : { ...delivery, query: q.slice(0, -n), body: Buffer.concat([Buffer.from(q.slice(-n)), body]) };
	const moved = body.subarray(0, n).toString('latin1');
	return { ...delivery, query: (q === '' ? '?' : q) + moved, body: body.subarray(n) };
}

function applyMutation(delivery: Delivery, m: Mutation): Delivery {
	switch (m.kind) {
		case 'bytes':
			return { ...delivery, body: editBytes(delivery.body, m.edits) };
		case 'splice': {
			const i = Math.floor(m.at * (delivery.body.length + 1));
			return { ...delivery, body: Buffer.concat([delivery.body.subarray(0, i), Buffer.from(m.text), delivery.body.subarray(i + m.length)]) };
		}
		case 'contentType':
			return { ...delivery, headers: { ...delivery.headers, 'content-type': m.value } };
		case 'json':
			return { ...delivery, body: editJson(delivery.body, m) ?? delivery.body };
		case 'form':
			return { ...delivery, body: editForm(delivery.body, m.op, m.at, m.text) ?? delivery.body };
		case 'header':
			return { ...delivery, headers: editHeader(delivery.headers, m) };
		case 'query':
			return editQuery(delivery, m);
	}
}

// ---- the oracle ----

/**
 * A form body's pairs as WHATWG's urlencoded parser reads them, by Node's URLSearchParams: its bytes above 0x7F
 * escaped first (the same bytes once decoded; Node misreads a '%' followed by some non-ASCII characters), and '&'
 * put first (URLSearchParams drops a leading '?', as for a query string; the parser does not).
 */
function whatwgPairs(body: Buffer): Array<[string, string]> {
	const ascii = [...body].map((byte) => (byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase()}`)).join('');
	return [...new URLSearchParams(`&${ascii}`)];
}

/** Adyen's signed fields of one item, with their JSON types (what the HMAC and the type rules cover). */
function adyenSignedFields(item: IDataObject): unknown[] {
	const amount = (item.amount ?? {}) as IDataObject;
	return [item.pspReference, item.originalReference, item.merchantAccountCode, item.merchantReference, amount.value, amount.currency, item.eventCode, item.success];
}

function adyenProjection(json: IDataObject): string[] {
	const items = (json.notificationItems ?? []) as Array<{ NotificationRequestItem: IDataObject }>;
	return items.map((entry) => JSON.stringify(adyenSignedFields(entry.NotificationRequestItem).map((v) => v ?? ''))).sort();
}

/** Twilio's signed text of a form: names sorted, each followed by its distinct values sorted (the sandbox signer's rule). */
function twilioSignedText(body: Buffer): string {
	const fields = new Map<string, string[]>();
	for (const [name, value] of whatwgPairs(body)) fields.set(name, [...(fields.get(name) ?? []), value]);
	return [...fields.keys()].sort().map((name) => [...new Set(fields.get(name))].sort().map((value) => name + value).join('')).join('');
}

/** The body as an independent reader reads it: JSON.parse, or WHATWG's URLSearchParams (one value, or a list). */
function referenceReading(format: Format, body: Buffer): IDataObject | undefined {
	try {
		if (format === 'json') return JSON.parse(body.toString('utf8').replace(/^\ufeff/, '')) as IDataObject;
	} catch {
		return undefined;
	}
	const out: IDataObject = {};
	for (const [name, value] of whatwgPairs(body)) {
		const before = Object.prototype.hasOwnProperty.call(out, name) ? out[name] : undefined;
		setOwn(out, name, before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value]);
	}
	return out;
}

/**
 * What a mutated delivery did, and whether it kept the rule: refused or acknowledged, or started with exactly what
 * the genuine delivery started with, or (where a scheme cannot protect it) within the named class.
 */
function judge(c: Case, genuine: Extract<Reception, { action: 'start' }>, sent: Delivery, got: Reception): Verdict {
	if (got.action === 'refuse') return { ok: true, outcome: `refused ${got.status} ${got.reason}` };
	if (got.action === 'acknowledge') return { ok: true, outcome: 'acknowledged' };
	if (isDeepStrictEqual(got.json, genuine.json)) return { ok: true, outcome: 'started as signed' };
	if (UNSIGNED.has(c.scheme)) {
		const type = mediaType(sent.headers['content-type']);
		const same = mediaTypeFits(c.format, type) && isDeepStrictEqual(withoutDelivery(got.json), referenceReading(c.format, sent.body));
		return same ? { ok: true, outcome: 'started unsigned (nothing is signed)' } : { ok: false, outcome: 'started', why: 'unsigned body not read one way in the configured format' };
	}
	if (c.scheme === 'twilio' && c.format === 'form' && sent.query + twilioSignedText(sent.body) === c.genuine.query + twilioSignedText(c.genuine.body)) {
		return { ok: true, outcome: "started: Twilio's signed text unchanged (where the query, names and values meet, and field order, are not signed)" };
	}
	if (c.scheme === 'adyen-payments') {
		const seen = adyenProjection(got.json);
		const signedItems = adyenProjection(genuine.json);
		if (isDeepStrictEqual(seen, signedItems) && isDeepStrictEqual(got.json.webhookDelivery, genuine.json.webhookDelivery)) {
			return { ok: true, outcome: "started: Adyen's signed fields unchanged (other fields are not signed)" };
		}
		if (seen.every((item) => signedItems.includes(item))) return { ok: true, outcome: "started: some of Adyen's signed items (each is signed on its own)" };
	}
	return { ok: false, outcome: 'started', why: 'the workflow would see something that was not signed' };
}

/** One mutation case, end to end: the genuine delivery must start; the mutated one must keep the rule. */
function checkMutation(c: Case, m: Mutation): Verdict {
	const settings = settingsFor(c.scheme, c.format);
	const genuine = receiveDelivery(settings, requestOf(c.genuine));
	if (genuine.action !== 'start') return { ok: false, outcome: `genuine ${genuine.action}`, why: `a genuine delivery was not started: ${JSON.stringify(genuine)}` };
	const sent = applyMutation(c.genuine, m);
	return judge(c, genuine, sent, receiveDelivery(settings, requestOf(sent)));
}

/** A genuine delivery starts the workflow with the body as an independent reader reads it. */
function checkGenuine(c: Case): Verdict {
	const got = receiveDelivery(settingsFor(c.scheme, c.format), requestOf(c.genuine));
	if (got.action !== 'start') return { ok: false, outcome: got.action, why: JSON.stringify(got) };
	const expected = referenceReading(c.format, c.genuine.body);
	return isDeepStrictEqual(withoutDelivery(got.json), expected) ? { ok: true, outcome: 'started as signed' } : { ok: false, outcome: 'started', why: 'read differently' };
}

/** Any request at all: the trigger answers without throwing, with a well-formed reception. */
const anyRequest = fc.record({
	body: fc.oneof(fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), text.map((t) => Buffer.from(t))),
	headers: fc.dictionary(
		fc.constantFrom('content-type', 'x-signature', 'stripe-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-twilio-signature', 'x-slack-signature', 'x-slack-request-timestamp', 'paddle-signature', 'hmacsignature', 'x-square-hmacsha256-signature', 'x-webhook-secret', 'x-timestamp'),
		fc.oneof(text, fc.array(text, { maxLength: 2 }), fc.constantFrom('t=1700000000,v1=00', 'v1,AAAA', 'sha256=00', 'a'.repeat(3000))),
	),
	query: fc.oneof(fc.constant(''), text.map((t) => `?${t}`)),
});

function checkNeverThrows(scheme: SigningScheme, format: Format, request: Delivery): Verdict {
	try {
		const got = receiveDelivery(settingsFor(scheme, format), requestOf(request));
		const wellFormed = got.action === 'start' ? typeof got.json === 'object' : got.action === 'refuse' ? [400, 401, 413, 415].includes(got.status) : true;
		const verb = { refuse: 'refused', start: 'started', acknowledge: 'acknowledged' }[got.action];
		return wellFormed ? { ok: true, outcome: `arbitrary request ${verb}` } : { ok: false, outcome: got.action, why: 'malformed reception' };
	} catch (error) {
		return { ok: false, outcome: 'threw', why: (error as Error).stack ?? String(error) };
	}
}

/** A group per signing scheme and body format: mutations of genuine deliveries, genuine ones, arbitrary requests. */
export function deliveryGroups(): PropertyGroup[] {
	return COMBINATIONS.map(([scheme, format]) => {
		const cases = caseOf(scheme, format);
		return {
			key: scheme,
			label: `${scheme} (${format})`,
			properties: [
				caseProperty('mutated deliveries', 0.8, fc.tuple(cases, mutation), ([c, m]: [Case, Mutation]) => checkMutation(c, m)),
				caseProperty('genuine deliveries', 0.1, cases, checkGenuine),
				caseProperty('arbitrary requests', 0.1, anyRequest, (request: Delivery) => checkNeverThrows(scheme, format, request)),
			],
		};
	});
}
