/**
 * Generated delivery bodies, as a sender writes them, and the body as an independent reader reads it: JSON with
 * lossless-json (a number JavaScript cannot hold kept as its text), form fields with the URL Standard's parser
 * (Node's URLSearchParams). Numbers can be any JSON number token, not only those JSON.stringify writes.
 */
import fc from 'fast-check';
import {
	LosslessNumber,
	isSafeNumber,
	parse as parseLossless,
	stringify as stringifyLossless,
} from 'lossless-json';
import type { IDataObject } from 'n8n-workflow';

export type Format = 'json' | 'form';

/** Number tokens a double reads exactly, and tokens it cannot hold (beyond 2^53, too many digits, overflow). */
const NUMBER_TOKENS = [
	'0',
	'-0',
	'1.0',
	'1.50',
	'1e2',
	'1E+2',
	'-1.5e-3',
	'0.1',
	'5e-324',
	'9007199254740991',
	'1e15',
	'9007199254740992',
	'9007199254740993',
	'12345678901234567891',
	'0.10000000000000001',
	'1e400',
	'-1e400',
	'1e-400',
	'4e-324',
	'1e16',
	'123456789012.345678',
	'1.7976931348623159e308',
];

const bigInteger = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => String(n));
/** A JSON number as its exact token. */
export const numberToken = fc.oneof(
	fc.constantFrom(...NUMBER_TOKENS),
	bigInteger,
	fc.integer().map(String),
	fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);
const number = numberToken.map((token) => new LosslessNumber(token));

const SPECIAL_TEXT = [
	'x&event=payout.approved&amount=1000000&id=evt_new&y=',
	'a.b',
	'=',
	'&',
	'+',
	'%41',
	'%',
	'é',
	'\u2028',
	'{"x":1}',
	':',
	'',
	' ',
	'%3A',
	'a:b',
	',',
];
export const text = fc.oneof(
	fc.string({ maxLength: 10 }),
	fc.constantFrom(...SPECIAL_TEXT),
	fc.string({ unit: 'binary', maxLength: 6 }),
);
/** Object keys, including the names the trigger and n8n care about. */
export const key = fc.oneof(
	fc.string({ minLength: 1, maxLength: 6 }),
	fc.constantFrom(
		'id',
		'event',
		'type',
		'event_id',
		'data',
		'a.b',
		'data.object',
		'__proto__',
		'webhookQuery',
		'webhookHeaders',
		'unsignedQuery',
	),
);
const leaf = fc.oneof(text, number, fc.boolean(), fc.constant(null));
export const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		leaf,
		fc.array(tie('value'), { maxLength: 3 }),
		fc.dictionary(key, tie('value'), { maxKeys: 3 }),
	),
}));

/** A JSON text of a value whose numbers are LosslessNumbers (written as their tokens). */
export function jsonText(value: unknown, space?: number): string {
	return stringifyLossless(value, undefined, space) ?? 'null';
}

/** Id values: text (with the characters that join id parts), numbers of every kind, or no usable id. */
const idValue = fc.oneof(
	{ arbitrary: fc.stringMatching(/^evt_[a-z0-9]{1,8}$/), weight: 4 },
	{
		arbitrary: fc.constantFrom('acme:42', 'acme', '42:7', ' evt_1', 'evt_1 ', 'a%3Ab', 'x,y'),
		weight: 2,
	},
	{ arbitrary: number, weight: 2 },
	{ arbitrary: fc.constantFrom('', null, true, [], {}), weight: 1 },
);

/** A webhook event: an id, an event type, fields; one in twenty has the reserved `webhookDelivery` field. */
const eventObject: fc.Arbitrary<IDataObject> = fc
	.tuple(
		fc.record(
			{
				id: idValue,
				event: fc.oneof(
					fc.constantFrom(
						'transfers.created',
						'payout.approved',
						'accounts.updated',
						' transfers.created ',
					),
					text,
				),
				event_id: idValue,
				type: fc.constantFrom('transfers.created', 'payout.approved'),
				created_at: number,
				data: fc.dictionary(key, jsonValue, { maxKeys: 4 }),
			},
			{ requiredKeys: ['id', 'event', 'data'] },
		),
		fc.integer({ min: 0, max: 19 }),
	)
	.map(
		([event, reserved]) =>
			(reserved === 0 ? { ...event, webhookDelivery: { id: 'forged' } } : event) as IDataObject,
	);

export const eventBody = fc
	.tuple(eventObject, fc.constantFrom(undefined, 2))
	.map(([event, space]) => Buffer.from(jsonText(event, space)));

/** Slack's URL verification (its challenge printable text, now and then text Slack never sends: blanks, too long, none). */
export const slackUrlVerification = fc
	.record({
		token: fc.stringMatching(/^[A-Za-z0-9]{1,24}$/),
		challenge: fc.oneof(
			{ arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,64}$/), weight: 4 },
			fc.constantFrom('', 'a b', 'x'.repeat(513), 42),
		),
	})
	.map((fields) => Buffer.from(JSON.stringify({ ...fields, type: 'url_verification' })));

/** GitHub's ping: `zen` and the hook's id (the sender marks it with `X-GitHub-Event: ping`). */
export const githubPing = fc
	.record({
		zen: fc.constantFrom('Keep it logically awesome.', 'Design for failure.', ''),
		hook_id: fc.integer({ min: 1, max: 1e9 }),
	})
	.map((fields) => Buffer.from(JSON.stringify(fields)));

const fieldName = fc.oneof(
	fc.string({ minLength: 1, maxLength: 6 }),
	fc.constantFrom('event', 'id', 'a.b', 'payload', 'From', 'webhookDelivery'),
);
const formPairs = fc.array(fc.tuple(fieldName, text), { minLength: 1, maxLength: 6 });

/** Form bodies; Twilio's may not repeat a pair (it signs each distinct value once). */
export function formBody(distinctPairs: boolean): fc.Arbitrary<Buffer> {
	const pairs = distinctPairs
		? formPairs.filter((list) => new Set(list.map((p) => JSON.stringify(p))).size === list.length)
		: formPairs;
	return pairs.map((list) => Buffer.from(new URLSearchParams(list).toString()));
}

const hex32 = fc.stringMatching(/^[0-9a-f]{32}$/);
/** Twilio message deliveries: SIDs (two letters, 32 hex digits) next to free text. */
export const twilioForm = fc
	.record({
		MessageSid: hex32.map((h) => `SM${h}`),
		MessagingServiceSid: hex32.map((h) => `MG${h}`),
		AccountSid: hex32.map((h) => `AC${h}`),
		Body: text,
		From: fc.constantFrom('+15550001', 'whatsapp:+1555'),
	})
	.chain((fields) =>
		fc
			.subarray(Object.entries(fields), { minLength: 1 })
			.map((pairs) => Buffer.from(new URLSearchParams(pairs).toString())),
	);

// ---- the independent reading ----

/**
 * A form body's pairs as WHATWG's urlencoded parser reads them, by Node's URLSearchParams: its bytes above 0x7F
 * escaped first (the same bytes once decoded; Node misreads a '%' followed by some non-ASCII characters), and '&'
 * put first (URLSearchParams drops a leading '?', as for a query string; the parser does not).
 */
export function whatwgPairs(body: Buffer): Array<[string, string]> {
	const ascii = [...body]
		.map((byte) =>
			byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase()}`,
		)
		.join('');
	return [...new URLSearchParams(`&${ascii}`)];
}

export function setOwn(
	target: Record<string | number, unknown>,
	k: string | number,
	v: unknown,
): void {
	Object.defineProperty(target, k, {
		value: v,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** lossless-json's numbers as the trigger must deliver them: a number where JavaScript holds it, else the token's text. */
function plainNumbers(value: unknown): unknown {
	if (value instanceof LosslessNumber)
		return isSafeNumber(value.value) ? Number.parseFloat(value.value) : value.value;
	if (Array.isArray(value)) return value.map(plainNumbers);
	if (value === null || typeof value !== 'object') return value;
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(value)) setOwn(out, k, plainNumbers(v));
	return out;
}

/** A copy of a JSON text's value, numbers kept as written. */
export function cloneJson(json: string): unknown {
	return parseLossless(json);
}

/**
 * JSON read losslessly (numbers as LosslessNumber), or undefined when it is not a JSON object. A name an object
 * repeats (only mutations make such bodies) keeps its last value, in its first place, as JavaScript's JSON.parse reads it.
 */
export function losslessObject(body: Buffer): IDataObject | undefined {
	try {
		const value = parseLossless(body.toString('utf8').replace(/^\ufeff/, ''), undefined, {
			onDuplicateKey: ({ newValue }) => newValue,
		});
		return value !== null && typeof value === 'object' && !Array.isArray(value)
			? (value as IDataObject)
			: undefined;
	} catch {
		return undefined;
	}
}

/** The body as an independent reader reads it: lossless JSON, or WHATWG's form fields (one value, or a list). */
export function referenceReading(format: Format, body: Buffer): IDataObject | undefined {
	if (format === 'json') {
		const object = losslessObject(body);
		return object === undefined ? undefined : (plainNumbers(object) as IDataObject);
	}
	return pairsObject(whatwgPairs(body));
}

/** Name-value pairs as one object: a name's one value, or the list of its values when it repeats. */
export function pairsObject(pairs: Iterable<[string, string]>): IDataObject {
	const out: IDataObject = {};
	for (const [name, value] of pairs) {
		const before = Object.prototype.hasOwnProperty.call(out, name) ? out[name] : undefined;
		setOwn(
			out,
			name,
			before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value],
		);
	}
	return out;
}
