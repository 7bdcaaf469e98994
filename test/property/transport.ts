/**
 * How a request's headers reach the trigger: n8n hands it Node's `req.headers`, built by Node's HTTP server from the
 * lines sent; a program calling `receiveDelivery` itself may hand it any header bag. And how a text (a secret) is
 * spelled on its way into a header or the query.
 */
import fc from 'fast-check';

import type { HeaderBag } from '../../nodes/TenantApiTrigger/headers';

/** Header lines as sent: [name, value] in order. */
export type HeaderLines = Array<[string, string]>;

/** `node`: as n8n's server (Node's http module) hands them over; `direct`: the lines as a bag, names as written. */
export type Transport = 'node' | 'direct';

/** Headers Node keeps once, the first line winning (`matchKnownFields` in Node 20's lib/_http_incoming.js). */
const FIRST_WINS = new Set(
	`content-type content-length user-agent referer host authorization proxy-authorization if-modified-since
	if-unmodified-since from location max-forwards retry-after etag last-modified server age expires`.split(
		/\s+/,
	),
);

/** Blanks (space, tab) around a header value, which Node's parser drops. */
const OUTER_BLANKS = /^[ \t]+|[ \t]+$/g;

/**
 * `req.headers` as Node builds it from the lines: names in lower case, values without the blanks around them;
 * a repeated name joined with ', ' (`cookie` with '; ', `set-cookie` kept as a list), or its first value for the
 * names Node keeps once. test/unit/deliveryProperties.test.ts checks this against Node's own server.
 */
export function nodeHeaders(lines: HeaderLines): HeaderBag {
	const bag: Record<string, string | string[]> = {};
	for (const [rawName, rawValue] of lines) {
		const name = rawName.toLowerCase();
		const value = rawValue.replace(OUTER_BLANKS, '');
		const before = bag[name];
		if (before === undefined) bag[name] = name === 'set-cookie' ? [value] : value;
		else if (name === 'set-cookie') (before as string[]).push(value);
		else if (!FIRST_WINS.has(name))
			bag[name] = `${before}${name === 'cookie' ? '; ' : ', '}${value}`;
	}
	return bag;
}

/** The lines as a bag for a direct caller: each name as written (the last line of a name written twice wins). */
function directHeaders(lines: HeaderLines): HeaderBag {
	return Object.fromEntries(lines);
}

export function headerBag(lines: HeaderLines, transport: Transport): HeaderBag {
	return transport === 'node' ? nodeHeaders(lines) : directHeaders(lines);
}

/** Whether a line can travel in an HTTP request: a token for a name; no CR, LF or NUL, and Latin-1 only, in a value. */
export function sendable([name, value]: [string, string]): boolean {
	return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}

// ---- how a secret is spelled on its way ----

/** The bytes a sender writes: the text itself, or base64 / base64url of it with text around it (Basic credentials). */
const BYTES = ['text', 'base64', 'base64url'] as const;
/** A text as is, or JSON-escaped (a JSON document in a header), with `\/` for `/`. */
const JSON_ESCAPING = ['none', 'escaped', 'escaped with \\/'] as const;
/**
 * How an encoder percent-encodes: every character but letters, digits and `-._~` (`all`); as JavaScript's
 * encodeURIComponent (`component`, which also leaves `!*'()`); as a form (`form`, URLSearchParams: a space as `+`,
 * `~` escaped); as a path (`path`, Python's quote: `/` left as is).
 */
const STYLES = ['all', 'component', 'form', 'path'] as const;
const TIMES = [0, 1, 2] as const;
const HEX = ['upper', 'lower'] as const;
/** A text's letters as written or folded (base64 keeps its letters: folded, it no longer decodes to the secret). */
const LETTERS = ['as is', 'lower', 'upper'] as const;

/** One way a secret reaches a header or the query, the encoders composed in the order they run. */
export interface Spelling {
	bytes: (typeof BYTES)[number];
	/** Before the secret in the encoded bytes (its offset in base64: 0, 1 or 2 bytes), and after it. */
	before: string;
	after: string;
	json: (typeof JSON_ESCAPING)[number];
	/** Percent-encoded 0, 1 or 2 times, in a style, hex digits in upper or lower case. */
	percent: (typeof TIMES)[number];
	style: (typeof STYLES)[number];
	hex: (typeof HEX)[number];
	letters: (typeof LETTERS)[number];
}

export const spelling: fc.Arbitrary<Spelling> = fc.record({
	bytes: fc.constantFrom(...BYTES, 'text'),
	before: fc.constantFrom('', 'a:', 'ab:', 'user:', 'x'),
	after: fc.constantFrom('', ':', ':extra'),
	// Text and `\/` weigh more: a secret's `/` (most have one) escaped is how JSON-escaping reaches it.
	json: fc.constantFrom(...JSON_ESCAPING, 'escaped with \\/'),
	// Unencoded weighs more: in the query, only that leaves a `+` for n8n's parser to read as a space.
	percent: fc.constantFrom(0, ...TIMES),
	style: fc.constantFrom(...STYLES),
	hex: fc.constantFrom(...HEX),
	letters: fc.constantFrom(...LETTERS),
});

/** The encoders of a spelling, each as `<encoder>: <value>` (for the campaign's report), only those that apply. */
export function spellingParts(s: Spelling): string[] {
	return [
		`bytes: ${s.bytes}${s.bytes === 'text' ? '' : `, ${Buffer.byteLength(s.before) % 3} bytes before`}`,
		`JSON: ${s.json}`,
		`percent-encoded: ${s.percent}`,
		...(s.percent > 0 ? [`percent style: ${s.style}`, `hex: ${s.hex}`] : []),
		...(s.bytes === 'text' ? [`letters: ${s.letters}`] : []),
	];
}

/** Every part a spelling can have. */
export const SPELLING_PARTS: string[] = [
	'bytes: text',
	...['base64', 'base64url'].flatMap((bytes) =>
		[0, 1, 2].map((n) => `bytes: ${bytes}, ${n} bytes before`),
	),
	...JSON_ESCAPING.map((json) => `JSON: ${json}`),
	...TIMES.map((times) => `percent-encoded: ${times}`),
	...STYLES.map((style) => `percent style: ${style}`),
	...HEX.map((hex) => `hex: ${hex}`),
	...LETTERS.map((letters) => `letters: ${letters}`),
];

const KEPT: Record<Spelling['style'], RegExp> = {
	all: /[A-Za-z0-9\-._~]/,
	component: /[A-Za-z0-9\-._~!*'()]/,
	form: /[A-Za-z0-9\-._*]/,
	path: /[A-Za-z0-9\-._~/]/,
};

function percentEncoded(text: string, style: Spelling['style'], hex: Spelling['hex']): string {
	const escape = (byte: number) => {
		const digits = byte.toString(16).padStart(2, '0');
		return `%${hex === 'upper' ? digits.toUpperCase() : digits}`;
	};
	return [...text]
		.map((character) => {
			if (KEPT[style].test(character)) return character;
			if (style === 'form' && character === ' ') return '+';
			return [...Buffer.from(character, 'utf8')].map(escape).join('');
		})
		.join('');
}

/** The text a secret becomes, each encoder applied in turn. */
export function spelled(secret: string, s: Spelling): string {
	const letters =
		s.letters === 'lower'
			? secret.toLowerCase()
			: s.letters === 'upper'
				? secret.toUpperCase()
				: secret;
	let out =
		s.bytes === 'text'
			? `${s.before}${letters}${s.after}`
			: Buffer.from(`${s.before}${secret}${s.after}`).toString(s.bytes);
	if (s.json !== 'none') {
		out = JSON.stringify(out).slice(1, -1);
		if (s.json === 'escaped with \\/') out = out.replace(/\//g, '\\/');
	}
	for (let i = 0; i < s.percent; i++) out = percentEncoded(out, s.style, s.hex);
	return out;
}
