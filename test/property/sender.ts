/**
 * The sender's side of a generated set-up: the bodies it posts and how it signs them. The presets sign through the
 * sandbox (sandbox/signing.js, checked against the providers' own libraries); Custom HMAC through `signCustom`
 * below, the settings as a sender implements them, written apart from the product's verifier.
 */
import { createHash } from 'crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	ADYEN_SIGNED_FIELDS,
	base64Key,
	fieldText,
	hexKey,
	hmac,
	sign,
	signAdyenPayments,
	sortedFormFields,
} from '../../sandbox/signing';

import {
	eventBody,
	formBody,
	githubPing,
	jsonText,
	losslessObject,
	setOwn,
	slackUrlVerification,
	text,
	twilioForm,
} from './bodies';
import type { CustomSpec, Setup, TemplatePiece } from './settings';
import { BASE_URL, SIGNED_URL_OVERRIDE } from './settings';

export const NOW = 1_700_000_000;
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A request as the trigger receives it; `query` is the raw query string ('' or '?…'). */
export interface Delivery {
	body: Buffer;
	headers: Record<string, string | string[]>;
	query: string;
}

const alnum = (min: number, max: number) =>
	fc.stringMatching(new RegExp(`^[A-Z0-9]{${min},${max}}$`));

// ---- bodies ----

const adyenItem = fc.record(
	{
		pspReference: alnum(16, 16),
		originalReference: fc.oneof(alnum(16, 16), fc.constant('')),
		merchantAccountCode: fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/),
		merchantReference: text,
		amount: fc.record({
			value: fc.integer({ min: 0, max: 10_000_000 }),
			currency: fc.constantFrom('EUR', 'USD', 'JPY'),
		}),
		eventCode: fc.constantFrom('AUTHORISATION', 'CAPTURE', 'REFUND', 'CANCELLATION'),
		success: fc.constantFrom('true', 'false'),
		eventDate: fc.constant('2026-11-24T10:00:00+01:00'),
		reason: text,
		additionalData: fc.dictionary(
			fc.string({ minLength: 1, maxLength: 5 }),
			fc.string({ maxLength: 5 }),
			{ maxKeys: 2 },
		),
	},
	{
		requiredKeys: [
			'pspReference',
			'merchantAccountCode',
			'merchantReference',
			'amount',
			'eventCode',
			'success',
		],
	},
);

const adyenBody = fc
	.uniqueArray(adyenItem, {
		minLength: 1,
		maxLength: 3,
		selector: (item) => JSON.stringify(ADYEN_SIGNED_FIELDS.map((path) => fieldText(item, path))),
	})
	.map((items) => ({
		live: 'false',
		notificationItems: items.map((item) => ({ NotificationRequestItem: item })),
	}));

/** The item paths (each once) and separators of a Custom template. */
export const itemPaths = (spec: CustomSpec) => [
	...new Set(spec.template.flatMap((piece) => ('item' in piece ? [piece.item] : []))),
];
const separatorChars = (spec: CustomSpec) =>
	spec.template.flatMap((piece) => ('literal' in piece ? [...piece.literal] : []));

/**
 * A signed field's value as a sender has it: text without the template's separators, a number, a flag, or nothing;
 * now and then text holding a separator (such a delivery is refused, so that fields split one way only).
 */
function fieldValue(spec: CustomSpec): fc.Arbitrary<unknown> {
	const forbidden = separatorChars(spec);
	// Mapped, not filtered: a filter that rarely passes would make fast-check retry for ever.
	const clean = (value: string) => [...value].filter((c) => !forbidden.includes(c)).join('');
	return fc.oneof(
		{ arbitrary: text.map(clean), weight: 4 },
		{
			arbitrary: fc
				.tuple(text.map(clean), fc.constantFrom(...(forbidden.length > 0 ? forbidden : [':'])))
				.map(([t, c]) => `${t}${c}${t}`),
			weight: 1,
		},
		{ arbitrary: fc.integer({ min: 0, max: 100_000 }), weight: 2 },
		{
			arbitrary: fc
				.integer({ min: 0, max: 10_000 })
				.map((n) => (clean(String(n / 100)) === String(n / 100) ? n / 100 : n)),
			weight: 1,
		},
		{ arbitrary: fc.constantFrom(true, false, null, undefined), weight: 1 },
		// Event types some set-ups filter on (Events, with Event Path on an item field).
		{ arbitrary: fc.constantFrom('AUTHORISATION', 'CAPTURE'), weight: 1 },
	);
}

/** Sets the value at a dotted path as an own key, making the objects on the way; an undefined value is left out. */
export function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let current = target;
	for (const key of keys.slice(0, -1)) {
		if (!Object.prototype.hasOwnProperty.call(current, key)) setOwn(current, key, {});
		current = current[key] as IDataObject;
	}
	if (value !== undefined) setOwn(current, keys[keys.length - 1], value);
}

/**
 * The body Custom HMAC with signed items reads: the items at the items path, and nothing else on the way. A `*`
 * followed by more keys wraps each item (`batch.*.entry` → `{ batch: [{ entry: item }, …] }`).
 */
function itemsBody(spec: CustomSpec, items: IDataObject[]): IDataObject {
	const [before, after] = spec.itemsPath.split('.*');
	const nest = (keys: string[], inner: unknown) =>
		keys.reduceRight<unknown>((value, key) => ({ [key]: value }), inner);
	const list = items.map((item) => (after ? nest(after.slice(1).split('.'), item) : item));
	return nest(before.split('.'), list) as IDataObject;
}

function customItemsBody(spec: CustomSpec): fc.Arbitrary<IDataObject> {
	const item = fc
		.record(Object.fromEntries(itemPaths(spec).map((path) => [path, fieldValue(spec)])), {
			noNullPrototype: true,
		})
		.map((fields) => {
			const object: IDataObject = { eventDate: '2026-11-24T10:00:00+01:00' };
			for (const [path, value] of Object.entries(fields)) setPath(object, path, value);
			return object;
		});
	return fc
		.uniqueArray(item, {
			minLength: 1,
			maxLength: 3,
			selector: (i) => JSON.stringify(itemPaths(spec).map((p) => fieldText(i, p))),
		})
		.map((items) => itemsBody(spec, items));
}

/** The body a set-up's sender posts, before it is signed (items are signed inside the body, by `deliver`). */
export function bodies(setup: Setup): fc.Arbitrary<Buffer | IDataObject> {
	if (setup.sender.kind === 'adyenPayments') return adyenBody;
	if (setup.sender.kind === 'custom' && setup.sender.spec.signatureIn === 'items')
		return customItemsBody(setup.sender.spec);
	if (setup.format === 'json' && setup.verification === 'slack')
		return fc.oneof(
			{ arbitrary: eventBody, weight: 9 },
			{ arbitrary: slackUrlVerification, weight: 1 },
		);
	if (setup.format === 'json' && setup.verification === 'hmacSha256')
		return fc.oneof({ arbitrary: eventBody, weight: 9 }, { arbitrary: githubPing, weight: 1 });
	if (setup.format === 'json') return eventBody;
	if (setup.verification === 'twilio') return fc.oneof(twilioForm, formBody(true));
	// Twilio's rule for form fields signs each distinct pair once: a sender that follows it repeats none.
	const signsFields =
		setup.sender.kind === 'custom' &&
		setup.sender.spec.template.some(
			(piece) => 'placeholder' in piece && piece.placeholder === 'formFields',
		);
	return formBody(signsFields);
}

export const queries = fc.oneof(
	fc.constant(''),
	fc
		.array(
			fc.tuple(
				fc.oneof(
					fc.string({ minLength: 1, maxLength: 4 }),
					fc.constantFrom('event', 'id', 'approved'),
				),
				fc.string({ maxLength: 4 }),
			),
			{ minLength: 1, maxLength: 2 },
		)
		.map((pairs) => `?${new URLSearchParams(pairs)}`),
);

// ---- signing ----

export function valueAt(object: unknown, path: string): unknown {
	let current = object;
	for (const key of path.split('.'))
		current =
			current !== null && typeof current === 'object' ? (current as IDataObject)[key] : undefined;
	return current;
}

/** The items an items path finds (`list.*`, or `list.*.inner` for the object inside each entry); undefined without a list there. */
export function itemsAt(body: unknown, itemsPath: string): unknown[] | undefined {
	const [before, after] = itemsPath.split('.*');
	const list = valueAt(body, before);
	return Array.isArray(list)
		? list.map((entry) => (after ? valueAt(entry, after.slice(1)) : entry))
		: undefined;
}

function hmacKey(spec: CustomSpec, secret: string): Buffer {
	if (spec.secretEncoding === 'hex') return hexKey(secret);
	if (spec.secretEncoding === 'base64') return base64Key(secret);
	return Buffer.from(secret, 'utf8');
}

/** The value of each placeholder for one delivery (or one item); `formFields` already in Twilio's order. */
export interface TemplateValues {
	body: Buffer;
	formFields: string;
	timestamp: string;
	id: string;
	url: string;
	item?: IDataObject;
}

/** The signed content: each piece of the template with its value. */
export function renderTemplate(
	template: TemplatePiece[],
	values: TemplateValues,
): Array<string | Buffer> {
	return template.map((piece) => {
		if ('literal' in piece) return piece.literal;
		if ('item' in piece) return fieldText(values.item, piece.item);
		if (piece.placeholder === 'body') return values.body;
		return {
			formFields: values.formFields,
			timestamp: values.timestamp,
			id: values.id,
			url: values.url,
		}[piece.placeholder];
	});
}

/** The URL a set-up's sender signs, before the query string: Signed URL when set, else the webhook's. */
export const signedBase = (setup: Setup) =>
	typeof setup.parameters.signedUrl === 'string' ? SIGNED_URL_OVERRIDE : BASE_URL;

function signature(spec: CustomSpec, secret: string, parts: Array<string | Buffer>): string {
	return hmac(spec.algorithm, hmacKey(spec, secret), parts).toString(spec.signatureEncoding);
}

/** The signature header of Custom HMAC in its format. */
function signatureHeader(spec: CustomSpec, sig: string, timestamp: string): string {
	if (spec.signatureFormat === 'prefixed') return `${spec.label}${sig}`;
	if (spec.signatureFormat === 'keyValue')
		return `${spec.timestampKey}=${timestamp}${spec.pairSeparator}${spec.label}=${sig}`;
	if (spec.signatureFormat === 'versioned') return `${spec.label},${sig}`;
	return sig;
}

const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The raw query string with `name=value` appended (both as given, already encoded where needed). */
export const withParameter = (query: string, name: string, value: string) =>
	`${query}${query === '' ? '?' : '&'}${name}=${value}`;

/** A genuine delivery of `body` for the set-up: signed by its sender with the secret the set-up names. */
export function deliver(
	setup: Setup,
	body: Buffer | IDataObject,
	query: string,
	id: string,
): Delivery {
	const secret =
		setup.signWith === null
			? ''
			: setup.credential[
					`${setup.signWith === 'current' ? 'signing' : setup.signWith === 'previous' ? 'previousSigning' : 'testSigning'}Secret`
				];
	const contentType = setup.format === 'form' ? FORM_TYPE : 'application/json';
	const base = signedBase(setup);
	const { sender } = setup;
	if (sender.kind === 'adyenPayments')
		return {
			body: Buffer.from(jsonText(signAdyenPayments(body as never, secret))),
			headers: { 'content-type': contentType },
			query,
		};
	if (sender.kind === 'custom' && sender.spec.signatureIn === 'items') {
		const signed = signCustomItems(sender.spec, secret, body as IDataObject);
		return {
			body: Buffer.from(JSON.stringify(signed)),
			headers: { 'content-type': contentType },
			query,
		};
	}
	const bytes = body as Buffer;
	if (sender.kind === 'none')
		return { body: bytes, headers: { 'content-type': contentType }, query };
	if (sender.kind === 'secretHeader')
		return {
			body: bytes,
			headers: { 'content-type': contentType, [sender.header]: secret },
			query,
		};
	if (sender.kind === 'custom') {
		const { spec } = sender;
		const signedQuery =
			spec.bodyHashParameter === ''
				? query
				: withParameter(query, spec.bodyHashParameter, sha256Hex(bytes));
		const timestamp = String(NOW);
		const formFields = setup.format === 'form' ? sortedFormFields(bytes) : '';
		const sig = signature(
			spec,
			secret,
			renderTemplate(spec.template, {
				body: bytes,
				formFields,
				timestamp,
				id,
				url: base + signedQuery,
			}),
		);
		const headers: Record<string, string> = {
			'content-type': contentType,
			[spec.signatureHeader]: signatureHeader(spec, sig, timestamp),
			[spec.idHeader]: id,
		};
		if (spec.signatureFormat !== 'keyValue') headers[spec.timestampHeader] = timestamp;
		return { body: bytes, headers, query: signedQuery };
	}
	const signedQuery =
		sender.scheme === 'twilio' && setup.format === 'json'
			? withParameter(query, 'bodySHA256', sha256Hex(bytes))
			: query;
	const signedHeaders = sign({
		secret,
		scheme: sender.scheme,
		body: bytes,
		id,
		url: base + signedQuery,
		contentType,
		timestamp: useTimestamp(setup) ? NOW : undefined,
	});
	const headers: Record<string, string> = {
		'content-type': contentType,
		...(isGithubPing(setup, bytes) ? { 'x-github-event': 'ping' } : {}),
	};
	for (const [name, value] of Object.entries(signedHeaders))
		headers[sender.rename[name] ?? name] = value;
	return { body: bytes, headers, query: signedQuery };
}

/** GitHub sends its ping (a body with `zen`) with `X-GitHub-Event: ping`. */
const isGithubPing = (setup: Setup, body: Buffer) =>
	setup.verification === 'hmacSha256' &&
	setup.format === 'json' &&
	typeof losslessObject(body)?.zen === 'string';

/** Whether the sender signs a timestamp (the presets that always do, and the body HMAC with Use Timestamp). */
function useTimestamp(setup: Setup): boolean {
	return (
		['standardWebhooks', 'stripe', 'slack', 'paddle'].includes(setup.verification) ||
		setup.parameters.useTimestamp === true
	);
}

/** Every item of the body signed in its Signature Path in Item (the items found as the items path says). */
function signCustomItems(spec: CustomSpec, secret: string, body: IDataObject): IDataObject {
	const copy = JSON.parse(JSON.stringify(body)) as IDataObject;
	for (const item of itemsAt(copy, spec.itemsPath) as IDataObject[]) {
		setPath(
			item,
			spec.itemSignaturePath,
			signature(
				spec,
				secret,
				renderTemplate(spec.template, {
					body: Buffer.alloc(0),
					formFields: '',
					timestamp: '',
					id: '',
					url: '',
					item,
				}),
			),
		);
	}
	return copy;
}
