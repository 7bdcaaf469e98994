/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The rule, written apart from the trigger: the workflow sees exactly what was signed, read one way, or nothing.
 * `expected` is what the documented behaviour gives for a request (docs/trigger.md: answers, handshakes, bodies,
 * delivery identity, signed items, events, output), from the body as an independent reader reads it (bodies.ts), taking the
 * request as the sender's own; judge.ts says whether what the trigger did with a request that is not (a mutation,
 * a replay) keeps the rule.
 */
import { createHash } from 'crypto';
import { isDeepStrictEqual } from 'util';

import type { IDataObject } from 'n8n-workflow';

import type { Outcome } from '../../nodes/TenantApiTrigger/receive';
import { ADYEN_SIGNED_FIELDS, fieldText } from '../../sandbox/signing';

import { pairsObject, referenceReading, setOwn, whatwgPairs } from './bodies';
import type { Delivery } from './sender';
import { NOW, itemPaths, itemsAt, renderTemplate, setPath, signedBase, valueAt } from './sender';
import type { CustomSpec, Setup, TemplatePiece } from './settings';

type Refusal = { action: 'refuse'; why: string };
/** A sender's handshake answered: the status, and the text echoed as `text/plain` (none: an empty body). */
type Handshake = { action: 'handshake'; status: number; body?: string };
export type Expected =
	| Refusal
	| Handshake
	| { action: 'acknowledge' }
	| { action: 'start'; items: IDataObject[] };

/** What one signed unit (the body, or one signed item) gives the workflow, before Events and the duplicate check. */
export interface Unit {
	json: IDataObject;
	id: string | null;
	event: string | undefined;
	/** What the signature covers of it: two units without an id name the same event when it is the same. */
	signed: IDataObject;
}

const TIMESTAMPED = ['standardWebhooks', 'stripe', 'slack', 'paddle'];
/** The body fields each Verification names the delivery by, when nothing else does (docs: Delivery identity). */
const ID_FIELDS: Record<string, string[]> = {
	slack: ['event_id'],
	paddle: ['event_id'],
	square: ['event_id'],
	adyenPlatform: [],
	twilio: [],
	standardWebhooks: [],
	adyenPayments: [],
};
const ADYEN_ITEMS = 'notificationItems.*.NotificationRequestItem';
const ADYEN_ID_FIELDS = ['eventCode', 'pspReference', 'success'];
const ADYEN_TYPED = new Set(['amount.value']);
/** Twilio's signature as a Custom HMAC template (docs: Verification presets). */
const TWILIO_TEMPLATE: TemplatePiece[] = [{ placeholder: 'url' }, { placeholder: 'formFields' }];
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

const options = (setup: Setup) => (setup.parameters.options ?? {}) as IDataObject;
const names = (list: string) =>
	list
		.split(',')
		.map((n) => n.trim().toLowerCase())
		.filter((n) => n !== '');
const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
const refuse = (why: string): Refusal => ({ action: 'refuse', why });

// ---- secrets ----

/** Every secret of the credential (current, previous, Test URL), none without verification: none may reach the output, at either URL. */
export function credentialSecrets(setup: Setup): string[] {
	if (setup.verification === 'none') return [];
	return Object.values(setup.credential)
		.map((s) => s.trim())
		.filter((s) => s !== '');
}

/**
 * Why the secret the sender signed with is not accepted where the request goes: the Production URL takes the current
 * and previous secrets; the Test URL takes the Test URL Signing Secret alone once it is set, else those two.
 */
export function secretRefused(setup: Setup): string | undefined {
	if (setup.signWith === null) return undefined;
	if (!setup.testUrl)
		return setup.signWith === 'test' ? 'the test secret at the Production URL' : undefined;
	const testSecretSet = setup.credential.testSigningSecret.trim() !== '';
	return testSecretSet && setup.signWith !== 'test'
		? 'a production secret at the Test URL, which takes only its own secret once set'
		: undefined;
}

// ---- what the signature covers ----

/** An item reduced to its signed fields (text, or the JSON value of a typed field). */
function signedFields(item: unknown, paths: readonly string[], typed: Set<string>): IDataObject {
	const view: IDataObject = {};
	for (const path of paths) {
		const value = valueAt(item, path);
		setPath(view, path, typed.has(path) && value !== undefined ? value : fieldText(item, path));
	}
	return view;
}

/** A signed item as a delivery of that item alone holds it: the path to it, with one element at each `*`. */
function alone(itemsPath: string, leaf: unknown): IDataObject {
	return itemsPath
		.split('.')
		.reduceRight<unknown>(
			(inner, key) => (key === '*' ? [inner] : { [key]: inner }),
			leaf,
		) as IDataObject;
}

/** The signature covers form fields by Twilio's rule (no boundaries between them), and nothing else covers the body. */
export function openBoundaries(setup: Setup, delivery: Delivery): boolean {
	if (setup.format !== 'form') return false;
	if (setup.verification === 'twilio') return true;
	const { sender } = setup;
	if (sender.kind !== 'custom' || sender.spec.signatureIn !== 'header') return false;
	const signs = (p: string) =>
		sender.spec.template.some((piece) => 'placeholder' in piece && piece.placeholder === p);
	// A body hash counts only in a signed URL, under the configured parameter.
	const hashed =
		signs('url') &&
		sender.spec.bodyHashParameter !== '' &&
		new URLSearchParams(delivery.query).has(sender.spec.bodyHashParameter);
	return signs('formFields') && !signs('body') && !hashed;
}

/** Form fields in Twilio's signed order: names sorted, each followed by its distinct values sorted. */
export function signedPairs(body: Buffer): Array<[string, string]> {
	const fields = new Map<string, string[]>();
	for (const [name, value] of whatwgPairs(body))
		fields.set(name, [...(fields.get(name) ?? []), value]);
	return [...fields.keys()]
		.sort()
		.flatMap((name) =>
			[...new Set(fields.get(name))].sort().map((value): [string, string] => [name, value]),
		);
}

/** A header as one text (a repeated one joined as Node joins it), trimmed. */
function headerText(delivery: Delivery, name: string): string {
	const value = delivery.headers[name];
	return (Array.isArray(value) ? value.join(', ') : (value ?? '')).trim();
}

/**
 * The signed text of a delivery whose signature leaves field boundaries open: Twilio's URL followed by its sorted
 * fields, or Custom HMAC's template with the delivery's values.
 */
export function signedText(setup: Setup, delivery: Delivery): Buffer {
	const { sender } = setup;
	const template = sender.kind === 'custom' ? sender.spec.template : TWILIO_TEMPLATE;
	const values = {
		body: delivery.body,
		formFields: signedPairs(delivery.body)
			.map(([name, value]) => name + value)
			.join(''),
		timestamp: String(NOW),
		id: sender.kind === 'custom' ? headerText(delivery, sender.spec.idHeader) : '',
		url: signedBase(setup) + delivery.query,
	};
	return Buffer.concat(
		renderTemplate(template, values).map((part) =>
			Buffer.isBuffer(part) ? part : Buffer.from(part),
		),
	);
}

/** Each item's signed fields hold none of the literal text between them and their neighbouring fields (docs: Custom HMAC). */
function splitsOneWay(spec: CustomSpec, item: IDataObject): boolean {
	const pieces = spec.template;
	const separators = new Map<string, string>();
	pieces.forEach((piece, i) => {
		const [literal, next] = [pieces[i + 1], pieces[i + 2]];
		if (
			!('item' in piece) ||
			literal === undefined ||
			!('literal' in literal) ||
			next === undefined ||
			!('item' in next)
		)
			return;
		for (const field of [piece.item, next.item])
			separators.set(field, (separators.get(field) ?? '') + literal.literal);
	});
	return [...separators].every(
		([field, chars]) => ![...chars].some((c) => String(valueAt(item, field)).includes(c)),
	);
}

/** One signed unit as read: what the workflow gets, what the signature covers of it, and a signed item's id fields. */
interface Reading {
	object: IDataObject;
	signed: IDataObject;
	item?: { fields: string[]; parts: string[] };
}

/** Adyen: each entry with `live` beside it, as the workflow gets it; its eight signed fields are what names it. */
function adyenReadings(read: IDataObject): Reading[] {
	const entries = Array.isArray(read.notificationItems)
		? (read.notificationItems as IDataObject[])
		: [];
	const top = hasOwn(read, 'live') ? { live: read.live } : {};
	return entries.map((entry) => {
		const item = entry?.NotificationRequestItem;
		const signed = alone(ADYEN_ITEMS, signedFields(item, ADYEN_SIGNED_FIELDS, ADYEN_TYPED));
		return {
			object: { ...top, notificationItems: [entry] },
			signed,
			item: { fields: ADYEN_ID_FIELDS, parts: ADYEN_ID_FIELDS.map((f) => fieldText(item, f)) },
		};
	});
}

/** Custom HMAC with signed items: each item's signed fields alone, each as the text that was signed. */
function customItemReadings(spec: CustomSpec, read: IDataObject): Reading[] | undefined {
	const views = (itemsAt(read, spec.itemsPath) ?? []).map((item) =>
		signedFields(item, itemPaths(spec), new Set()),
	);
	if (!views.every((view) => splitsOneWay(spec, view))) return undefined;
	return views.map((view) => {
		const unit = alone(spec.itemsPath, view);
		return {
			object: unit,
			signed: unit,
			item: { fields: itemPaths(spec), parts: itemPaths(spec).map((p) => fieldText(view, p)) },
		};
	});
}

/** The units of a body: one per signed item, else the body itself; undefined when it cannot be read one way. */
function readings(setup: Setup, body: Buffer): Reading[] | undefined {
	const read = referenceReading(setup.format, body);
	if (read === undefined) return undefined;
	const { sender } = setup;
	if (sender.kind === 'adyenPayments') return adyenReadings(read);
	if (sender.kind === 'custom' && sender.spec.signatureIn === 'items')
		return customItemReadings(sender.spec, read);
	return [{ object: read, signed: read }];
}

// ---- identity ----

function idText(value: unknown): string | undefined {
	if (typeof value === 'string') return value === '' ? undefined : value;
	if (typeof value === 'number') return String(value);
	if (typeof value === 'boolean') return String(value);
	return undefined;
}

const escapePart = (part: string) =>
	part.replace(/%/g, '%25').replace(/:/g, '%3A').replace(/,/g, '%2C');
const joinParts = (parts: string[]) =>
	parts.length === 1 ? parts[0] : parts.map(escapePart).join(':');

/** The id a scheme signs in a header (Standard Webhooks; Custom HMAC with {id}), and the header it came in. */
function signedIdHeader(setup: Setup, delivery: Delivery): [string, string] | undefined {
	const { sender } = setup;
	if (setup.verification === 'standardWebhooks') {
		const name = ['webhook-id', 'svix-id'].find((n) => delivery.headers[n] !== undefined);
		return name === undefined ? undefined : [String(delivery.headers[name]), name];
	}
	if (
		sender.kind === 'custom' &&
		sender.spec.signatureIn === 'header' &&
		sender.spec.template.some((p) => 'placeholder' in p && p.placeholder === 'id')
	) {
		return [String(delivery.headers[sender.spec.idHeader]), sender.spec.idHeader];
	}
	return undefined;
}

type Identity = { id: string | null; idSource: string | null } | 'unprotected';

/** The SHA-256 of the signed text where the signature leaves field boundaries open (docs: Delivery identity, 2). */
function signedTextId(setup: Setup, delivery: Delivery): string | undefined {
	return openBoundaries(setup, delivery)
		? createHash('sha256').update(signedText(setup, delivery)).digest('hex')
		: undefined;
}

/**
 * The id the signature itself fixes, whatever the body reads as: a signed id header, else the signed text's SHA-256
 * where field boundaries are open. Every re-cut of a delivery keeps it.
 */
export function signatureFixedId(setup: Setup, delivery: Delivery): string | undefined {
	return signedIdHeader(setup, delivery)?.[0] ?? signedTextId(setup, delivery);
}

function fromFields(signed: IDataObject, paths: string[]): Identity {
	const parts = paths.map((path) => idText(valueAt(signed, path)));
	if (paths.length === 0 || parts.some((p) => p === undefined)) return { id: null, idSource: null };
	return { id: joinParts(parts as string[]), idSource: `body:${paths.join(',')}` };
}

/**
 * docs: Delivery identity, in order: a signed id header; the SHA-256 of the signed text where field boundaries are
 * open (Delivery ID Fields refused there); Delivery ID Fields; a signed item's id fields; the scheme's body fields.
 */
function identity(setup: Setup, delivery: Delivery, unit: Reading): Identity {
	const header = signedIdHeader(setup, delivery);
	if (header !== undefined) return { id: header[0], idSource: `header:${header[1]}` };
	const chosen =
		typeof options(setup).idFields === 'string'
			? (options(setup).idFields as string)
					.split(',')
					.map((p) => p.trim())
					.filter((p) => p !== '')
			: [];
	const digest = signedTextId(setup, delivery);
	if (digest !== undefined)
		return chosen.length > 0 ? 'unprotected' : { id: digest, idSource: 'signedText:sha256' };
	if (chosen.length > 0) return fromFields(unit.signed, chosen);
	if (unit.item !== undefined)
		return {
			id: unit.item.parts.map(escapePart).join(':'),
			idSource: `items:${unit.item.fields.join(',')}`,
		};
	return fromFields(unit.signed, ID_FIELDS[setup.verification] ?? ['id']);
}

function signedTimestamp(setup: Setup): number | null {
	const { sender } = setup;
	if (TIMESTAMPED.includes(setup.verification) || setup.parameters.useTimestamp === true)
		return NOW;
	if (
		sender.kind === 'custom' &&
		sender.spec.template.some((p) => 'placeholder' in p && p.placeholder === 'timestamp')
	)
		return NOW;
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
	const entries = filter
		.split(/[,\n\r]+/)
		.map((e) => e.trim())
		.filter((e) => e !== '');
	if (entries.length === 0 || entries.includes('*')) return true;
	return (
		type !== undefined &&
		entries.some((e) => (e.endsWith('*') ? type.startsWith(e.slice(0, -1)) : e === type))
	);
}

// ---- unsigned request data ----

/** The query as n8n hands it to the trigger: one value, or a list for a repeated name. */
export function queryObject(query: string): IDataObject {
	return pairsObject(new URLSearchParams(query));
}

export const holdsSecret = (secrets: string[], ...texts: unknown[]) =>
	texts.some((t) =>
		secrets.some((s) => JSON.stringify(t).includes(JSON.stringify(s).slice(1, -1))),
	);

function unsignedHeaders(setup: Setup, delivery: Delivery): IDataObject {
	const secretHeader =
		setup.verification === 'secretHeader'
			? names(String(setup.parameters.sharedKeyHeader ?? 'x-webhook-secret'))
			: [];
	const redacted = [
		...CREDENTIAL_HEADERS,
		...(secretHeader.length > 0
			? secretHeader
			: setup.verification === 'secretHeader'
				? ['x-webhook-secret']
				: []),
	];
	const secrets = credentialSecrets(setup);
	return Object.fromEntries(
		Object.entries(delivery.headers).filter(
			([name, value]) =>
				!redacted.includes(name.toLowerCase()) && !holdsSecret(secrets, name, value),
		),
	);
}

function unsignedQuery(setup: Setup, delivery: Delivery): IDataObject {
	const secrets = credentialSecrets(setup);
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(queryObject(delivery.query)))
		if (!holdsSecret(secrets, name, value)) setOwn(out, name, value);
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
		const pinned =
			next.placeholder === 'url' ||
			(setup.format === 'json' && (piece.placeholder === 'body' || next.placeholder === 'body'));
		return !pinned && !(piece.placeholder === 'url' && next.placeholder === 'formFields');
	});
}

// ---- handshakes ----

/** Slack's challenge as the trigger echoes it: printable text without blanks, up to 512 characters. */
const SLACK_CHALLENGE = /^[\x21-\x7e]{1,512}$/;

/**
 * A sender's check of the URL before it delivers events (docs: What the sender gets back): Slack's `url_verification`
 * with its challenge, GitHub's ping (`X-GitHub-Event: ping`, a signed body with `zen`). Verified, answered, never started.
 */
function handshake(setup: Setup, delivery: Delivery): Handshake | undefined {
	if (setup.verification !== 'slack' && setup.verification !== 'hmacSha256') return undefined;
	const read = referenceReading(setup.format, delivery.body);
	if (read === undefined) return undefined;
	if (setup.verification === 'slack') {
		const { type, challenge } = read;
		return type === 'url_verification' &&
			typeof challenge === 'string' &&
			SLACK_CHALLENGE.test(challenge)
			? { action: 'handshake', status: 200, body: challenge }
			: undefined;
	}
	return headerText(delivery, 'x-github-event') === 'ping' && typeof read.zen === 'string'
		? { action: 'handshake', status: 200 }
		: undefined;
}

// ---- the expectation ----

function webhookDelivery(
	setup: Setup,
	delivery: Delivery,
	id: Exclude<Identity, 'unprotected'>,
): IDataObject {
	return {
		...id,
		timestamp: signedTimestamp(setup),
		verification: setup.verification,
		secret: setup.signWith,
		bodyType: setup.format,
		...(options(setup).includeHeaders === true
			? { unsignedHeaders: unsignedHeaders(setup, delivery) }
			: {}),
		...(options(setup).includeQuery === true
			? { unsignedQuery: unsignedQuery(setup, delivery) }
			: {}),
	};
}

/**
 * Each signed unit of a request as the workflow would get it, taking the request as the sender's own (every item as
 * a delivery of that item alone gives it), or why the whole request is refused. Neither the URL's secrets, Events
 * nor the duplicate check applied: the identities the sender gave.
 */
export function expectedUnits(setup: Setup, delivery: Delivery): Unit[] | Refusal {
	if (ambiguousTemplate(setup)) return refuse('placeholders that meet without a boundary');
	const units = readings(setup, delivery.body);
	if (units === undefined) return refuse('unreadable body');
	if (units.length === 0) return refuse('no signed item');
	const eventPath =
		typeof options(setup).eventPath === 'string' && options(setup).eventPath !== ''
			? (options(setup).eventPath as string)
			: 'event';
	const out: Unit[] = [];
	for (const unit of units) {
		if (hasOwn(unit.object, 'webhookDelivery')) return refuse('reserved field');
		const id = identity(setup, delivery, unit);
		if (id === 'unprotected')
			return refuse('Delivery ID Fields under a signature without field boundaries');
		out.push({
			json: { ...unit.object, webhookDelivery: webhookDelivery(setup, delivery, id) },
			id: id.id,
			event: eventType(unit.signed, eventPath),
			signed: unit.signed,
		});
	}
	return out;
}

/** What the trigger must do with a request, by the documented rules, taking the request as the sender's own. */
export function expected(setup: Setup, delivery: Delivery): Expected {
	const secret = secretRefused(setup);
	if (secret !== undefined) return refuse(secret);
	const answered = handshake(setup, delivery);
	if (answered !== undefined) return answered;
	const units = expectedUnits(setup, delivery);
	if (!Array.isArray(units)) return units;
	const events = units.map((unit) =>
		unit.id !== null ? `id ${unit.id}` : `signed ${JSON.stringify(unit.signed)}`,
	);
	if (new Set(events).size !== events.length)
		return refuse(
			'two signed items naming the same event (the same id, or without one the same signed fields)',
		);
	const started = units.filter((unit) =>
		accepted(String(setup.parameters.events ?? ''), unit.event),
	);
	return started.length === 0
		? { action: 'acknowledge' }
		: { action: 'start', items: started.map((unit) => unit.json) };
}

/** Whether what the trigger did is what was expected (a refusal may have any reason the docs list). */
export function sameOutcome(want: Expected, got: Outcome): boolean {
	if (want.action === 'start')
		return got.action === 'start' && isDeepStrictEqual(got.items, want.items);
	if (want.action === 'handshake') {
		const { answer } = got.action === 'handshake' ? got : { answer: undefined };
		return (
			answer?.status === want.status &&
			answer.body === want.body &&
			(want.body === undefined
				? answer.contentType === undefined
				: /^text\/plain\b/.test(answer.contentType ?? ''))
		);
	}
	return want.action === got.action;
}
