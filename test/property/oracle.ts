/**
 * The model: what the trigger must do with a request under a set-up, written from the documented behaviour (the
 * node's description, docs/trigger.md), not from the trigger's code: no bytes refused; authentication on the raw
 * bytes and headers with the secrets the URL accepts; the Content-Type, the body read once in the Body Format
 * (reading.ts), the reserved field, Events; the item and its `webhookDelivery` (the id by the rule, no secret in any
 * spelling). Whether a signature header no sender wrote is read is the one thing it cannot say: it then allows
 * both outcomes (judge.ts).
 */
import { createHash, createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import type { HeaderBag } from '../../nodes/TenantApiTrigger/headers';
import type { RefusalReason } from '../../nodes/TenantApiTrigger/refusals';

import type { Format } from './reading';
import { collect, hasOwn, readAs, setOwn } from './reading';
import { secretFinder, texts } from './secretReadings';
import type { Delivery } from './sender';
import type { Setup } from './settings';
import { PRODUCTION_URL, TEST_URL } from './settings';
import { parseTemplate, templateProblems } from './templates';
import { headerBag } from './transport';

/** A request as the trigger receives it. */
export interface Received {
	body: Buffer | undefined;
	headers: HeaderBag;
	query: IDataObject;
	rawQuery: string;
	testUrl: boolean;
	now: number;
}

/**
 * The query as n8n parses it: each name's value, a repeated name's values as a list; a name `a[b]` as a field `b` of
 * `a` when n8n parses queries the extended way (n8n 1.x), as the name itself otherwise.
 */
function queryObject(rawQuery: string, extended: boolean): IDataObject {
	const out: IDataObject = {};
	for (const [name, value] of new URLSearchParams(rawQuery)) {
		const [, holder, field] = (extended && /^([^[\]]+)\[([^[\]]+)\]$/.exec(name)) || [];
		if (field === undefined) collect(out, name, value);
		else {
			const before = hasOwn(out, holder) ? out[holder] : undefined;
			const nested = typeof before === 'object' && before !== null ? (before as IDataObject) : {};
			setOwn(nested, field, value);
			setOwn(out, holder, nested);
		}
	}
	return out;
}

export function received(request: Delivery): Received {
	return {
		body: request.body,
		headers: headerBag(request.lines, request.transport),
		// The direct callers parse queries the extended way; n8n 2.x (Node's transport here) the simple way.
		query: queryObject(request.query, request.transport === 'direct'),
		rawQuery: request.query,
		testUrl: request.testUrl,
		now: request.receivedAt,
	};
}

// ---- headers ----

/** The value of the first of `names` the request has (any letter case), a repeated one's values joined with ', '. */
export function headerText(headers: HeaderBag, names: string[]): string | undefined {
	for (const name of names) {
		const found = Object.entries(headers).find(
			([key, value]) => key.toLowerCase() === name && value !== undefined,
		);
		if (found !== undefined)
			return Array.isArray(found[1]) ? found[1].join(', ') : String(found[1]);
	}
	return undefined;
}

/** The name of the first of `names` the request has, else the first. */
const presentName = (headers: HeaderBag, names: string[]) =>
	names.find((name) => headerText(headers, [name]) !== undefined) ?? names[0];

/** The media type: the Content-Type before any `;`, trimmed, in lower case ('' without one). */
function mediaType(headers: HeaderBag): string {
	return (headerText(headers, ['content-type']) ?? '').split(';')[0].trim().toLowerCase();
}

/** JSON: application/json, any +json type, text/plain, or none; form fields: application/x-www-form-urlencoded. */
export function mediaTypeFits(format: Format, headers: HeaderBag): boolean {
	const type = mediaType(headers);
	if (format === 'form') return type === 'application/x-www-form-urlencoded';
	return ['', 'application/json', 'text/plain'].includes(type) || type.endsWith('+json');
}

// ---- secrets ----

const SLOT_NAMES = ['current', 'previous', 'test'] as const;

/** The credential's secrets by slot, trimmed. */
const slots = (setup: Setup) =>
	[
		setup.credential.signingSecret,
		setup.credential.previousSigningSecret,
		setup.credential.testSigningSecret,
	].map((secret, slot) => ({ slot, secret: secret.trim() }));

/** Every secret of the credential (blanks left out): none may reach the output. None selects no credential. */
export const credentialSecrets = (setup: Setup): string[] =>
	setup.verification === 'none'
		? []
		: slots(setup).flatMap(({ secret }) => (secret === '' ? [] : [secret]));

/** The secrets a URL accepts, by slot: production the current and previous; the Test URL its own alone once set. */
function acceptedSecrets(setup: Setup, testUrl: boolean): Array<{ slot: number; secret: string }> {
	const all = slots(setup);
	const accepted = testUrl && all[2].secret !== '' ? [all[2]] : all.slice(0, 2);
	return accepted.filter(({ secret }) => secret !== '');
}

/** The HMAC key a secret stands for in an encoding, or undefined when the secret is not valid in it. */
export function hmacKey(secret: string, encoding: string): Buffer | undefined {
	if (encoding === 'text') return Buffer.from(secret, 'utf8');
	if (encoding === 'hex')
		return /^([0-9a-fA-F]{2})+$/.test(secret) ? Buffer.from(secret, 'hex') : undefined;
	// Base64 or base64url (one alphabet or the other), an optional whsec_ prefix, padding optional.
	const text = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) && !/^[A-Za-z0-9_-]+={0,2}$/.test(text))
		return undefined;
	const standard = text.replace(/-/g, '+').replace(/_/g, '/');
	const key = Buffer.from(standard, 'base64');
	const exact = key.toString('base64').replace(/=+$/, '') === standard.replace(/=+$/, '');
	return exact && key.length > 0 ? key : undefined;
}

// ---- the signed content ----

/** What authentication found. */
type Authentication =
	| {
			ok: true;
			slot: number | null;
			timestamp: number | null;
			id?: { value: string; name: string };
			/** The signed header (by the name present) or URL: they name the delivery with its body. */
			header?: { name: string; value: string };
			url?: string;
	  }
	| { ok: false; reasons: RefusalReason[] };

interface HmacReading {
	/** The placeholder values read from the request, or why one cannot be read. */
	values: { body: Buffer; timestamp?: string; id?: string; url?: string; header?: string };
	problem?: RefusalReason;
	text: Buffer;
	/** The id header's name where `{id}` is signed. */
	idName?: string;
	/** The signed header's name, as present, where `{header.…}` is signed. */
	headerName?: string;
}

const UNIX_SECONDS = /^[0-9]{1,12}$/;

/** A signed header as it arrived: absent, blank or padded reads as none. */
function exactHeader(headers: HeaderBag, names: string[]): string | undefined {
	const value = headerText(headers, names);
	return value === undefined || value === '' || value.trim() !== value ? undefined : value;
}

/** The `key=value` entries of a key=value signature header, each trimmed. */
function entries(header: string, separator: string): Array<[string, string]> {
	return header.split(separator).flatMap((entry) => {
		const at = entry.indexOf('=');
		return at > 0
			? [[entry.slice(0, at).trim(), entry.slice(at + 1).trim()] as [string, string]]
			: [];
	});
}

/** The base of `{url}`: Signed URL when set (without its query or fragment), else the webhook's URL at this URL. */
export function urlBase(setup: Setup, testUrl: boolean): string {
	const set =
		typeof setup.parameters.signedUrl === 'string' ? setup.parameters.signedUrl.trim() : '';
	return set === '' ? (testUrl ? TEST_URL : PRODUCTION_URL) : set.split('#')[0].split('?')[0];
}

const isHmac = (setup: Setup) => setup.sender.kind === 'hmac';

/** The signed content of a request under an HMAC set-up: each part read from it, and the signed bytes. */
export function readSignedContent(setup: Setup, request: Received): HmacReading | undefined {
	const parts = parseTemplate(setup.meaning.template);
	if (!isHmac(setup) || request.body === undefined || parts === undefined) return undefined;
	const { meaning, sender } = setup;
	const values: HmacReading['values'] = { body: request.body };
	let problem: RefusalReason | undefined;
	const fail = (reason: RefusalReason) => {
		problem ??= reason;
	};
	const signature = headerText(request.headers, meaning.signatureHeaders) ?? '';
	const kinds = new Set(parts.map((part) => part.kind));
	if (kinds.has('timestamp')) {
		const text =
			sender.kind === 'hmac' && sender.format === 'keyValue'
				? entries(signature, sender.pairSeparator).find(([key]) => key === sender.timestampKey)?.[1]
				: headerText(request.headers, meaning.timestampHeaders);
		if (text === undefined || text === '') fail('missing_timestamp');
		else if (!UNIX_SECONDS.test(text)) fail('invalid_timestamp');
		else if (Math.abs(request.now - Number(text)) > meaning.tolerance)
			fail('timestamp_out_of_window');
		values.timestamp = text;
	}
	let idName: string | undefined;
	if (kinds.has('id')) {
		const id = exactHeader(request.headers, meaning.idHeaders);
		if (id === undefined || id.length > 256) fail('missing_id');
		values.id = id;
		idName = presentName(request.headers, meaning.idHeaders);
	}
	if (kinds.has('url')) values.url = urlBase(setup, request.testUrl) + request.rawQuery;
	const header = parts.find((part) => part.kind === 'header');
	let headerName: string | undefined;
	if (header?.kind === 'header') {
		const names = header.name
			.split(',')
			.map((n) => n.trim())
			.filter((n) => n !== '');
		values.header = exactHeader(request.headers, names);
		if (values.header === undefined) fail('missing_signed_header');
		headerName = presentName(request.headers, names);
	}
	const text = Buffer.concat(
		parts.map((part) => {
			if (part.kind === 'literal') return Buffer.from(part.text, 'utf8');
			const value = values[part.kind];
			return Buffer.isBuffer(value) ? value : Buffer.from(value ?? '', 'utf8');
		}),
	);
	return { values, problem, text, idName, headerName };
}

/** The slots whose key's HMAC of the signed text the signature header carries (in any form a signature may take). */
function slotsCarried(setup: Setup, request: Received, text: Buffer): number[] {
	const { sender } = setup;
	if (sender.kind !== 'hmac') return [];
	const header = headerText(request.headers, setup.meaning.signatureHeaders) ?? '';
	return acceptedSecrets(setup, request.testUrl).flatMap(({ slot, secret }) => {
		const key = hmacKey(secret, sender.keyEncoding);
		if (key === undefined) return [];
		const digest = createHmac(sender.algorithm, key).update(text).digest();
		const forms = [digest.toString('base64').replace(/=+$/, ''), digest.toString('base64url')];
		const carried =
			header.toLowerCase().includes(digest.toString('hex')) ||
			forms.some((form) => header.includes(form));
		return carried ? [slot] : [];
	});
}

/**
 * How sure the judge is of the signature header: a sender's own for this content, which the trigger must read
 * (`readable`); a faulty sender's, which it must not (`unreadable`); or any other (`unknown`: only a header that
 * carries the HMAC may pass).
 */
type SignatureState = 'readable' | 'unreadable' | 'unknown';

/** Authentication as the model sees it; `either` when an unknown signature header carries a valid HMAC. */
export function authenticate(
	setup: Setup,
	request: Received,
	state: SignatureState,
): Authentication | { either: Extract<Authentication, { ok: true }>; or: RefusalReason[] } {
	if (setup.sender.kind === 'none') return { ok: true, slot: null, timestamp: null };
	const accepted = acceptedSecrets(setup, request.testUrl);
	if (accepted.length === 0) return { ok: false, reasons: ['no_secret_configured'] };
	if (setup.sender.kind === 'secretHeader') {
		const sent = headerText(request.headers, setup.meaning.secretHeaders)?.trim();
		if (sent === undefined || sent === '') return { ok: false, reasons: ['missing_secret_header'] };
		const match = accepted.find(({ secret }) => secret === sent);
		return match === undefined
			? { ok: false, reasons: ['secret_mismatch'] }
			: { ok: true, slot: match.slot, timestamp: null };
	}
	const { sender } = setup;
	if (templateProblems(setup.meaning.template, setup.format).length > 0)
		return { ok: false, reasons: ['invalid_signed_content'] };
	if (accepted.every(({ secret }) => hmacKey(secret, sender.keyEncoding) === undefined))
		return { ok: false, reasons: ['invalid_secret'] };
	const signature = headerText(request.headers, setup.meaning.signatureHeaders);
	if (signature === undefined || signature.trim() === '')
		return { ok: false, reasons: ['missing_signature'] };
	const reading = readSignedContent(setup, request) as HmacReading;
	const unread: RefusalReason[] = ['malformed_signature', 'signature_mismatch'];
	if (reading.problem !== undefined)
		return {
			ok: false,
			reasons: state === 'readable' ? [reading.problem] : [reading.problem, 'malformed_signature'],
		};
	const carried = slotsCarried(setup, request, reading.text);
	if (state === 'unreadable' || carried.length === 0) return { ok: false, reasons: unread };
	const { timestamp, id, header, url } = reading.values;
	const passed = {
		ok: true as const,
		slot: carried[0],
		timestamp: timestamp === undefined ? null : Number(timestamp),
		id: id === undefined ? undefined : { value: id, name: reading.idName as string },
		header:
			header === undefined ? undefined : { name: reading.headerName as string, value: header },
		url,
	};
	return state === 'readable' ? passed : { either: passed, or: unread };
}

// ---- identity, events, unsigned data ----

/** The value at a dot path: each segment an own field, or a list's index; a blank path has none. */
function valueAt(body: unknown, path: string): unknown {
	const trimmed = path.trim();
	if (trimmed === '') return undefined;
	let current = body;
	for (const segment of trimmed.split('.')) {
		if (Array.isArray(current))
			current = /^(0|[1-9][0-9]*)$/.test(segment) ? current[Number(segment)] : undefined;
		else if (current !== null && typeof current === 'object' && hasOwn(current, segment))
			current = (current as IDataObject)[segment];
		else return undefined;
	}
	return current;
}

const list = (text: unknown, separators: RegExp) =>
	typeof text === 'string'
		? text
				.split(separators)
				.map((entry) => entry.trim())
				.filter((entry) => entry !== '')
		: [];

const options = (setup: Setup) => (setup.parameters.options ?? {}) as IDataObject;

/** A field as an id: text as it is (not empty), a number as written, a flag's word; nothing else names a delivery. */
function idText(value: unknown, written: () => unknown): string | undefined {
	if (typeof value === 'string') return value === '' ? undefined : value;
	if (typeof value === 'number') return written() as string;
	if (typeof value === 'boolean') return String(value);
	return undefined;
}

/** Several fields' texts joined one way: `%`, `:` and `,` percent-encoded in each, `:` between them. */
const joinIds = (parts: string[]) =>
	parts.length === 1
		? parts[0]
		: parts
				.map((part) =>
					part.replace(/[%:,]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
				)
				.join(':');

interface Identity {
	id: string;
	idSource: string;
	/** What makes two deliveries the same: the signed id, the named fields' texts, or the bytes. */
	key: string;
}

/** What a signature fixed besides the body and the timestamp. */
interface SignedBeside {
	id?: { value: string; name: string };
	header?: { name: string; value: string };
	url?: string;
}

/**
 * The id rule: the signed id header; else Delivery ID Fields when the body has all of them; else the SHA-256 of
 * the signed header's value or the signed URL, as a JSON string, followed by the body's bytes (the body's bytes
 * alone when neither is signed).
 */
export function identity(
	setup: Setup,
	body: Buffer,
	object: IDataObject,
	signed: SignedBeside = {},
): Identity {
	if (signed.id !== undefined)
		return {
			id: signed.id.value,
			idSource: `header:${signed.id.name}`,
			key: `header ${signed.id.value}`,
		};
	const paths = list(options(setup).idFields, /,/);
	// A number as the sender wrote it: the body read again with every number as its text.
	const written = () => (readAs('json', body, 'written') as { object: IDataObject }).object;
	const parts = paths.map((path) => idText(valueAt(object, path), () => valueAt(written(), path)));
	if (paths.length > 0 && parts.every((part) => part !== undefined))
		return {
			id: joinIds(parts as string[]),
			idSource: `body:${paths.join(',')}`,
			key: `fields ${JSON.stringify(parts)}`,
		};
	const beside = signed.header?.value ?? signed.url;
	const prefix = beside === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(beside));
	const digest = createHash('sha256')
		.update(Buffer.concat([prefix, body]))
		.digest('hex');
	const named = signed.header ? `header.${signed.header.name}+` : signed.url ? 'url+' : '';
	return {
		id: digest,
		idSource: `${named}body:sha256`,
		key: `signed ${JSON.stringify(beside ?? null)} bytes ${body.toString('hex')}`,
	};
}

/** The event type: the text at Event Path (`event` when blank), else at `type`; trimmed. */
function eventType(setup: Setup, object: IDataObject): string | undefined {
	const path = options(setup).eventPath;
	for (const candidate of [typeof path === 'string' && path !== '' ? path : 'event', 'type']) {
		const value = valueAt(object, candidate);
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	}
	return undefined;
}

/** Events: empty or `*` takes every event; an entry ending in `*` a prefix; any other its own type. */
function eventAccepted(setup: Setup, type: string | undefined): boolean {
	const accepted = list(setup.parameters.events, /[,\n\r]+/);
	if (accepted.length === 0 || accepted.includes('*')) return true;
	return (
		type !== undefined &&
		accepted.some((entry) =>
			entry.endsWith('*') ? type.startsWith(entry.slice(0, -1)) : entry === type,
		)
	);
}

/**
 * The unsigned headers or query as the item shows them: without the names left out (any letter case) and without
 * any name or value that holds a secret in any spelling (secretReadings.ts), at any depth (a parsed query can nest).
 */
function unsigned(
	setup: Setup,
	fields: IDataObject | HeaderBag,
	leftOut: string[] = [],
): IDataObject {
	const holds = secretFinder(credentialSecrets(setup));
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(fields))
		if (
			value !== undefined &&
			!leftOut.includes(name.toLowerCase()) &&
			!texts([name, value]).some(holds)
		)
			setOwn(out, name, value);
	return out;
}

// ---- the decision ----

export type ModelDecision =
	| { action: 'refuse'; reasons: RefusalReason[] }
	| { action: 'acknowledge' }
	| { action: 'start'; item: IDataObject; identity: Identity };

/** What the trigger must do with a request once it is authenticated (the Content-Type, the body, Events, the item). */
function afterAuthentication(
	setup: Setup,
	request: Received & { body: Buffer },
	passed: Extract<Authentication, { ok: true }>,
): ModelDecision {
	if (!mediaTypeFits(setup.format, request.headers))
		return { action: 'refuse', reasons: ['unsupported_media_type'] };
	const reading = readAs(setup.format, request.body);
	if (!reading.ok) return { action: 'refuse', reasons: [reading.reason] };
	const { object } = reading;
	if (hasOwn(object, 'webhookDelivery')) return { action: 'refuse', reasons: ['reserved_field'] };
	if (!eventAccepted(setup, eventType(setup, object))) return { action: 'acknowledge' };
	const who = identity(setup, request.body, object, passed);
	const delivery: IDataObject = {
		id: who.id,
		idSource: who.idSource,
		timestamp: passed.timestamp,
		verification: setup.verification,
		secret: passed.slot === null ? null : SLOT_NAMES[passed.slot],
		bodyType: setup.format,
	};
	if (passed.header !== undefined)
		delivery.signedHeaders = { [passed.header.name]: passed.header.value };
	if (passed.url !== undefined) delivery.signedUrl = passed.url;
	if (options(setup).includeHeaders === true)
		delivery.unsignedHeaders = unsigned(setup, request.headers, [
			...['authorization', 'proxy-authorization', 'cookie'],
			...(setup.sender.kind === 'secretHeader' ? setup.meaning.secretHeaders : []),
		]);
	if (options(setup).includeQuery === true) delivery.unsignedQuery = unsigned(setup, request.query);
	const item: IDataObject = {};
	for (const [name, value] of Object.entries(object)) setOwn(item, name, value);
	setOwn(item, 'webhookDelivery', delivery);
	return { action: 'start', item, identity: who };
}

/** The decisions the trigger may take for a request: one, or (an unknown signature header that carries the HMAC) two. */
export function expected(setup: Setup, request: Received, state: SignatureState): ModelDecision[] {
	const { body } = request;
	// Without bytes nothing is authenticated: only None, which checks nothing, gets to the media type.
	if (body === undefined) {
		const media = setup.verification === 'none' && !mediaTypeFits(setup.format, request.headers);
		return [
			{ action: 'refuse', reasons: [media ? 'unsupported_media_type' : 'raw_body_unavailable'] },
		];
	}
	const auth = authenticate(setup, request, state);
	if ('either' in auth)
		return [
			afterAuthentication(setup, { ...request, body }, auth.either),
			{ action: 'refuse', reasons: auth.or },
		];
	if (!auth.ok) return [{ action: 'refuse', reasons: auth.reasons }];
	return [afterAuthentication(setup, { ...request, body }, auth)];
}
