/**
 * Bodies as senders write them, byte by byte: JSON objects of every shape (deep nesting, numbers of every spelling,
 * among them numbers JavaScript cannot hold, strings with any escape, lone surrogates, long runs of escapes with
 * digits that look like a value, repeated names, `__proto__`, dotted names, blanks, a byte order mark) and form
 * fields (each encoder's escapes, repeated names, fields without `=`, empty fields, around the field limit); now and
 * then a body no sender should send. How the workflow must read them is reading.ts's.
 */
import fc from 'fast-check';

import { listOf, pick } from './common';
import type { Format } from './reading';

export type Json =
	| { kind: 'object'; entries: Array<[string, Json]> }
	| { kind: 'array'; items: Json[] }
	| { kind: 'string'; value: string }
	| { kind: 'number'; token: string }
	| { kind: 'literal'; value: true | false | null };

const str = (value: string): Json => ({ kind: 'string', value });

// ---- text ----

/** Texts that mean something to a reader, a filter, an id or a form. */
const SPECIAL_TEXT = [
	...['', ' ', '\u2028', '\ud800', 'x\udc00y', '\u0000', '"\\/'],
	...'a.b = & + %41 % é {"x":1} : %3A a:b , 😀 transfers.created'.split(' '),
];
export const text = fc.oneof(
	{ arbitrary: fc.string({ maxLength: 10 }), weight: 3 },
	{ arbitrary: pick(...SPECIAL_TEXT), weight: 2 },
	{ arbitrary: fc.string({ unit: 'binary', maxLength: 6 }), weight: 1 },
	{ arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }), weight: 1 },
);

/** A text with its lone surrogates replaced (what a form encoder can encode). */
const wellFormed = (value: string) =>
	value.replace(
		/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
		'\ufffd',
	);

// ---- numbers ----

/** Number tokens a double reads exactly, and tokens it cannot hold (beyond 2^53, too many digits, out of range). */
const NUMBER_TOKENS =
	`0 -0 1.0 1.50 10 1e1 1E+1 100e-1 -1.5e-3 0.1 5e-324 9007199254740991 9007199254740992
	9007199254740993 -9007199254740993 12345678901234567891 0.10000000000000001 1e400 -1e400 1e-400 4e-324 1e15 1e16
	1.5e300 123456789012.345678 1234567890123456 0.000000000000001 1.7976931348623157e308 1.7976931348623159e308
	2.2250738585072014e-308`.split(/\s+/);
/** A JSON number token (never one JSON.stringify would write only). */
const numberToken = fc.oneof(
	pick(...NUMBER_TOKENS),
	fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
	fc.integer().map(String),
	fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
	fc
		.tuple(
			fc.integer({ min: -99, max: 999 }),
			fc.integer({ min: -30, max: 30 }),
			pick('e', 'E', 'e+'),
		)
		.map(([units, power, e]) => `${units}${e}${power}`.replace('e+-', 'e-')),
);

// ---- JSON values ----

const KEYS = [
	'',
	...'id event type event_id data a.b __proto__ constructor kind object items 0'.split(' '),
];
export const key = fc.oneof(
	{ arbitrary: text, weight: 2 },
	{ arbitrary: pick(...KEYS), weight: 3 },
);

const leaf: fc.Arbitrary<Json> = fc.oneof(
	text.map(str),
	numberToken.map((token): Json => ({ kind: 'number', token })),
	pick<true | false | null>(true, false, null).map((value): Json => ({ kind: 'literal', value })),
);

/** Entries of an object; now and then a name repeated (JSON readers keep its last value). */
const entries = (value: fc.Arbitrary<Json>) =>
	fc
		.tuple(
			fc.array(fc.tuple(key, value), { maxLength: 4 }),
			fc.option(fc.tuple(fc.nat(), value), { freq: 4 }),
		)
		.map(([list, repeat]) => {
			if (repeat === null || list.length === 0) return list;
			const [at, again] = repeat;
			return [...list, [list[at % list.length][0], again] as [string, Json]];
		});

export const { value: jsonValue } = fc.letrec<{ value: Json }>((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		leaf,
		fc.array(tie('value'), { maxLength: 3 }).map((items): Json => ({ kind: 'array', items })),
		entries(tie('value')).map((list): Json => ({ kind: 'object', entries: list })),
	),
}));

/** A value nested `depth` times (in lists or objects), a number at the bottom: nesting no reader may pay for with stack. */
const deep = fc
	.record({ depth: fc.integer({ min: 20, max: 1500 }), token: numberToken, objects: fc.boolean() })
	.map(({ depth, token, objects }): Json => {
		let value: Json = { kind: 'number', token };
		for (let i = 0; i < depth; i += 1)
			value = objects
				? { kind: 'object', entries: [['d', value]] }
				: { kind: 'array', items: [value] };
		return value;
	});

/**
 * Pieces of a long text: characters JSON escapes (quotes, backslashes; a `\u` escape's own text), and what JSON text
 * kept in a string holds (`"data":"{\"id\":12345678901234567891,\"tags\":[\"a\",…]}"`).
 */
const LONG_TEXT_PIECES = ['"', '\\', '\\"', '"a",', 'x', 'é', '\u2028', ' ', '\\u0031', '{"id":1,'];
/** Digits where a value would start, inside a string: a reader that takes them for a value changes the string. */
const LOOKS_LIKE_A_VALUE = [
	':12345678901234567891',
	',1e400',
	'[1e16',
	':-0.10000000000000001',
	': 9007199254740993',
];
/**
 * A text of 16 to 32,768 characters (as often short as long), its pieces repeated, digits that look like a value at
 * its end: a reader whose work or stack grows with a string's length or escapes meets it (V8's regular expressions
 * give up after a few million escapes; a reader that gives up sooner gives up here).
 */
const longText = fc
	.record({
		pieces: fc.array(pick(...LONG_TEXT_PIECES), { minLength: 1, maxLength: 4 }),
		length: fc.integer({ min: 4, max: 15 }).map((power) => 2 ** power),
		value: pick(...LOOKS_LIKE_A_VALUE),
	})
	.map(({ pieces, length, value }) => {
		const unit = pieces.join('');
		return `${unit.repeat(Math.ceil(length / unit.length))}${value}`;
	});

// ---- events ----

const EVENTS = listOf('transfers.created|payout.approved|accounts.updated| transfers.created |x');
const idValue: fc.Arbitrary<Json> = fc.oneof(
	{ arbitrary: fc.stringMatching(/^evt_[a-z0-9]{1,8}$/).map(str), weight: 4 },
	{ arbitrary: pick('acme:42', '42:7', ' evt_1', 'a%3Ab', 'x,y', '%', '').map(str), weight: 2 },
	{ arbitrary: numberToken.map((token): Json => ({ kind: 'number', token })), weight: 2 },
	{ arbitrary: leaf, weight: 1 },
);

/** A webhook event: an id, an event type, data; optional fields, among them one in twenty-five the reserved name. */
const eventObject: fc.Arbitrary<Json> = fc
	.record(
		{
			id: idValue,
			event: fc.oneof(pick(...EVENTS).map(str), leaf),
			type: pick(...EVENTS).map(str),
			event_id: idValue,
			created_at: numberToken.map((token): Json => ({ kind: 'number', token })),
			data: fc.oneof(
				{ arbitrary: jsonValue, weight: 4 },
				{ arbitrary: deep, weight: 1 },
				{ arbitrary: longText.map(str), weight: 2 },
				{
					arbitrary: fc.record({ kind: pick(...EVENTS), id: idValue }).map(
						({ kind, id }): Json => ({
							kind: 'object',
							entries: [
								['kind', str(kind)],
								['object', id],
								['items', { kind: 'array', items: [{ kind: 'object', entries: [['id', id]] }] }],
							],
						}),
					),
					weight: 3,
				},
			),
			'a.b': idValue,
			// The same number in a string, after a colon as a value would be, then as a number: a
			// reader that takes digits in a string for a value would change one or the other.
			reference: numberToken.map(
				(token): Json => ({
					kind: 'object',
					entries: [
						['text', str(`at:${token}`)],
						['number', { kind: 'number', token }],
					],
				}),
			),
			webhookDelivery: fc.integer({ min: 0, max: 24 }),
			extra: entries(jsonValue),
		},
		{ requiredKeys: ['id', 'event', 'data', 'webhookDelivery', 'extra'] },
	)
	.map(
		({ webhookDelivery, extra, ...fields }): Json => ({
			kind: 'object',
			entries: [
				...Object.entries(fields).map(([name, value]) => [name, value] as [string, Json]),
				...(webhookDelivery === 0 ? [['webhookDelivery', str('forged')] as [string, Json]] : []),
				...extra,
			],
		}),
	);

// ---- writing JSON ----

/** How a sender writes JSON: blanks, escapes, what goes before and after. */
interface JsonStyle {
	/** Between tokens: '', one space, an indent with newlines, tabs, CR LF. */
	blank: '' | ' ' | '\n  ' | '\t' | '\r\n';
	/** Which characters are escaped beyond those that must be: none, every non-ASCII one, `/`; upper-case hex. */
	escapes: 'needed' | 'non-ASCII' | 'slash' | 'upper-case hex';
	around: 'none' | 'blanks' | 'byte order mark';
}

export const jsonStyle: fc.Arbitrary<JsonStyle> = fc.record({
	blank: pick<JsonStyle['blank']>('', '', ' ', '\n  ', '\t', '\r\n'),
	escapes: pick<JsonStyle['escapes']>('needed', 'needed', 'non-ASCII', 'slash', 'upper-case hex'),
	around: pick<JsonStyle['around']>('none', 'none', 'none', 'blanks', 'byte order mark'),
});

const hex4 = (char: string, upper = false) => {
	const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
	return `\\u${upper ? hex.toUpperCase() : hex}`;
};

/** A JSON string token: JSON.stringify's escapes (what must be), and what the style escapes beyond them. */
function jsonString(value: string, escapes: JsonStyle['escapes'] = 'needed'): string {
	const upper = escapes === 'upper-case hex';
	let out = JSON.stringify(value);
	if (upper || escapes === 'non-ASCII') out = out.replace(/[\u007f-\uffff]/g, (c) => hex4(c));
	if (escapes === 'slash') out = out.replace(/\//g, '\\/');
	if (!upper) return out;
	// Every control character as \u00XX, every hex digit in upper case.
	return out.replace(/\\(u[0-9a-f]{4}|.)/g, (escape, after: string) =>
		after.length > 1 || /[bfnrt]/.test(after)
			? hex4(JSON.parse(`"${escape}"`) as string, true)
			: escape,
	);
}

/** A JSON text of a value in a style. */
export function jsonText(root: Json, style: JsonStyle): string {
	const { blank, escapes } = style;
	const write = (value: Json): string => {
		if (value.kind === 'string') return jsonString(value.value, escapes);
		if (value.kind === 'number') return value.token;
		if (value.kind === 'literal') return String(value.value);
		const items =
			value.kind === 'array'
				? value.items.map(write)
				: value.entries.map(
						([name, inner]) => `${jsonString(name, escapes)}${blank}:${blank}${write(inner)}`,
					);
		const [open, close] = value.kind === 'array' ? '[]' : '{}';
		return `${open}${items.map((item) => blank + item).join(',')}${blank}${close}`;
	};
	const json = write(root);
	if (style.around === 'blanks') return ` \n${json}\t `;
	return style.around === 'byte order mark' ? `\ufeff${json}` : json;
}

// ---- form fields ----

/** How a sender encodes a form: the WHATWG serializer (`+` for spaces), encodeURIComponent, raw UTF-8, lower-case escapes. */
type FormEncoding = 'urlencoded' | 'component' | 'raw UTF-8' | 'lower-case escapes';

function formEncode(value: string, encoding: FormEncoding): string {
	const clean = wellFormed(value);
	if (encoding === 'urlencoded') return new URLSearchParams([['', clean]]).toString().slice(1);
	if (encoding === 'raw UTF-8') return clean.replace(/[%&=+#\s]/g, (c) => encodeURIComponent(c));
	const encoded = encodeURIComponent(clean);
	return encoding === 'lower-case escapes'
		? encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())
		: encoded;
}

const fieldName = fc.oneof(
	{ arbitrary: fc.string({ minLength: 1, maxLength: 6 }), weight: 20 },
	{ arbitrary: pick(...'id event type event_id a.b __proto__ data.kind'.split(' ')), weight: 20 },
	{ arbitrary: fc.constant('webhookDelivery'), weight: 1 },
);
const fieldValue = fc.oneof(text, pick(...EVENTS), fc.stringMatching(/^evt_[a-z0-9]{1,8}$/));

/** The pieces of a form field as written: name, value, and whether `=` separates them. */
const formField = fc.record({
	name: fieldName,
	value: fieldValue,
	equals: fc.oneof(
		{ arbitrary: fc.constant(true), weight: 9 },
		{ arbitrary: fc.constant(false), weight: 1 },
	),
});

const formBody = fc
	.record({
		fields: fc.array(formField, { minLength: 1, maxLength: 6 }),
		encoding: pick<FormEncoding>('urlencoded', 'component', 'raw UTF-8', 'lower-case escapes'),
		repeat: fc.boolean(),
		emptyFields: pick('', '', '', '&', '&&'),
	})
	.map(({ fields, encoding, repeat, emptyFields }) => {
		const list = repeat ? [...fields, { ...fields[0], value: 'again' }] : fields;
		const written = list.map(({ name, value, equals }) =>
			equals
				? `${formEncode(name, encoding)}=${formEncode(value, encoding)}`
				: formEncode(name, encoding),
		);
		return Buffer.from(`${emptyFields}${written.join(`&${emptyFields}`)}`, 'utf8');
	});

/** Forms around the limit of 1,000 fields. */
const bigForm = pick(999, 1000, 1001).map((n) =>
	Buffer.from(Array.from({ length: n }, (_, i) => `f${i}=${i}`).join('&')),
);

// ---- what senders send ----

/** Bodies no sender should send: the reader must refuse each after the signature is checked. */
const FAULTY_JSON = [
	'',
	'  \n',
	...`[1,2] "text" 42 null {"a":1,} {'a':1} {"a":NaN} {"a":1}x`.split(' '),
];
const faultyJson = fc.oneof(
	pick(...FAULTY_JSON).map((t) => Buffer.from(t)),
	pick(
		Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
		Buffer.from('{"a":"\xe9"}', 'latin1'),
	),
);
const FAULTY_FORM = ['=1', 'a=%zz', 'a=%E9', 'a=%', '%C3=1', 'a=%ED%A0%80', '&&', 'a=1&=2'];
const faultyForm = fc.oneof(
	pick(...FAULTY_FORM).map((t) => Buffer.from(t)),
	fc.constant(Buffer.from([0x61, 0x3d, 0xff])),
);

/** JSON bodies: events written in any style, any value, deep ones; now and then a faulty one. */
const jsonBodies: fc.Arbitrary<Buffer> = fc.oneof(
	{
		arbitrary: fc.tuple(eventObject, jsonStyle).map(([v, s]) => Buffer.from(jsonText(v, s))),
		weight: 12,
	},
	{
		arbitrary: fc
			.tuple(entries(jsonValue), jsonStyle)
			.map(([list, s]) => Buffer.from(jsonText({ kind: 'object', entries: list }, s))),
		weight: 2,
	},
	{ arbitrary: faultyJson, weight: 1 },
);

const formBodies: fc.Arbitrary<Buffer> = fc.oneof(
	{ arbitrary: formBody, weight: 12 },
	{ arbitrary: bigForm, weight: 1 },
	{ arbitrary: faultyForm, weight: 1 },
);

export const bodies = (format: Format) => (format === 'json' ? jsonBodies : formBodies);
