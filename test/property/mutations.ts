/**
 * An attacker's edits of one captured genuine delivery, without the secret: each table below names what it does to
 * the body, the fields, the Content-Type, the headers (a look-alike is `svix-id` for `webhook-id`; a signature's
 * second half forged catches a reader that compares part of a digest), the query, or how the request is handed over;
 * and where it copies a secret of the credential, in any spelling (transport.ts).
 */
import fc from 'fast-check';

import { text } from './bodies';
import { entryAt, fraction, listOf, pick } from './common';
import type { Delivery } from './sender';
import type { HeaderLines, Spelling } from './transport';
import { sendable, spelled, spelling } from './transport';

const BODY_OPS = listOf('flip|insert|delete|truncated|extended|spliced');
const REENCODINGS = listOf('byte order mark|blank|escape|number spelling');
const FIELD_OPS = listOf(
	'repeated behind|added in front|reserved field|__proto__|form field added|form field in front|form fields reordered|form escape respelled',
);
const HEADER_OPS = listOf(
	'dropped|replaced|repeated|repeated, same value|letter case|value letter case|added|alias first|look-alike|timestamp shifted|signature respelled|signature half forged|padded',
);
/** Where an edit puts a secret of the credential. */
export const SECRET_PLACES = listOf(
	'header name|header value|authorization|x-forwarded-uri|x-original-url|referer|basic credentials|query name|query value',
);
const QUERY_OPS = listOf('added|dropped|respelled');
type Op<T extends readonly string[]> = T[number];

export type Mutation =
	| { kind: 'body'; op: Op<typeof BODY_OPS>; at: number; count: number; text: string }
	| { kind: 're-encoded'; op: Op<typeof REENCODINGS>; at: number }
	| { kind: 'field'; op: Op<typeof FIELD_OPS>; at: number; text: string }
	| { kind: 'content type'; value: string | undefined; repeated: boolean }
	| { kind: 'header'; op: Op<typeof HEADER_OPS>; at: number; text: string }
	| { kind: 'secret'; place: Op<typeof SECRET_PLACES>; spelling: Spelling; at: number }
	| { kind: 'query'; op: Op<typeof QUERY_OPS>; at: number; text: string }
	| { kind: 'transport' };

const CONTENT_TYPES = listOf(
	'application/json|application/x-www-form-urlencoded|text/plain||multipart/form-data; boundary=x|Application/X-WWW-Form-Urlencoded; charset=utf-8|application/json; charset=latin1|application/vnd.api+json|text/html',
);

const edit = <K extends string, T extends readonly string[]>(
	kind: K,
	ops: T,
	weight: number,
	rest: Record<string, fc.Arbitrary<unknown>> = {},
) => ({
	arbitrary: fc.record({ kind: fc.constant(kind), op: pick(...ops), at: fraction, ...rest }),
	weight,
});

const secretEdit: fc.Arbitrary<Extract<Mutation, { kind: 'secret' }>> = fc.record({
	kind: fc.constant('secret' as const),
	// The query value twice: only there does a `+` sent as is reach n8n's parser, which reads it as a space.
	place: pick(...SECRET_PLACES, 'query value'),
	spelling,
	at: fraction,
});

const mutation = fc.oneof(
	edit('body', BODY_OPS, 3, { count: fc.integer({ min: 1, max: 8 }), text }),
	edit('re-encoded', REENCODINGS, 3),
	edit('field', FIELD_OPS, 3, { text }),
	{
		arbitrary: fc.record({
			kind: fc.constant('content type' as const),
			value: fc.option(pick(...CONTENT_TYPES), { nil: undefined }),
			repeated: fc.boolean(),
		}),
		weight: 2,
	},
	// Padding reaches the trigger from direct callers only: it weighs as much as every other header edit.
	edit('header', HEADER_OPS, 5, {
		op: fc.oneof(pick(...HEADER_OPS.slice(0, -1)), fc.constant('padded')),
		text: fc.oneof(
			text,
			pick('1700000000', 'v1,AAAA', 't=1700000000,v1=00', 'sha256=00', 'a'.repeat(3000)),
		),
	}),
	{ arbitrary: secretEdit, weight: 3 },
	edit('query', QUERY_OPS, 1, { text }),
	{ arbitrary: fc.constant({ kind: 'transport' as const }), weight: 1 },
) as fc.Arbitrary<Mutation>;

/**
 * One or two edits; a fifth of the time secrets alone, which leave the signature whole so that the item, started,
 * shows where they went (most other edits get the delivery refused).
 */
export const mutations: fc.Arbitrary<Mutation[]> = fc.oneof(
	{ arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }), weight: 4 },
	{ arbitrary: fc.array(secretEdit, { minLength: 1, maxLength: 2 }), weight: 1 },
);

export function mutationName(m: Mutation): string {
	if (m.kind === 'content type') return `content type${m.repeated ? ' repeated' : ''}`;
	if (m.kind === 'secret') return `secret in the ${m.place}`;
	if (m.kind === 'transport') return 'handed over the other way';
	return `${m.kind}: ${m.op}`;
}

// ---- the body ----

function editBytes(body: Buffer, m: Extract<Mutation, { kind: 'body' }>): Buffer {
	const i = Math.floor(m.at * (body.length + 1));
	const added = Buffer.from(m.text);
	switch (m.op) {
		case 'flip':
			return body.length === 0
				? Buffer.from([0x20])
				: Buffer.from(
						body.map((byte, j) =>
							j === Math.min(i, body.length - 1) ? byte ^ (m.count * 17 || 1) : byte,
						),
					);
		case 'insert':
			return Buffer.concat([
				body.subarray(0, i),
				added.length > 0 ? added : Buffer.from(' '),
				body.subarray(i),
			]);
		case 'delete':
			return Buffer.concat([body.subarray(0, i), body.subarray(i + m.count)]);
		case 'truncated':
			return body.subarray(0, Math.max(0, body.length - m.count));
		case 'extended':
			return Buffer.concat([
				body,
				Buffer.from(entryAt([' ', '\n', '}', ',"x":1', '&x=1', '\ufeff', m.text], m.at) ?? ' '),
			]);
		default:
			return Buffer.concat([body.subarray(0, i), added, body.subarray(i + m.count)]);
	}
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,\]}])/g;

/** Another spelling of a number: `10` as `1e1`, `1.5` as `1.50`, `1e2` as `1E+2`. */
function respell(token: string): string {
	if (/[eE]/.test(token)) return token.replace(/[eE]\+?/, 'E+');
	if (token.includes('.')) return `${token}0`;
	return /^-?[1-9]\d*0$/.test(token) ? `${token.slice(0, -1)}e1` : `${token}.0`;
}

function reencode(body: Buffer, op: Op<typeof REENCODINGS>, position: number): Buffer {
	const textOf = body.toString('utf8');
	if (op === 'byte order mark')
		return textOf.startsWith('\ufeff')
			? body.subarray(3)
			: Buffer.concat([Buffer.from('\ufeff'), body]);
	if (op === 'blank') {
		const places = [...textOf.matchAll(/[:,{[]/g)].map((match) => match.index ?? 0);
		const i = entryAt(places, position) ?? 0;
		return Buffer.from(`${textOf.slice(0, i + 1)} ${textOf.slice(i + 1)}`);
	}
	if (op === 'number spelling') {
		const numbers = [...textOf.matchAll(NUMBER)];
		const found = entryAt(numbers, position);
		if (found === undefined) return Buffer.from(`${textOf} `);
		const i = found.index ?? 0;
		return Buffer.from(textOf.slice(0, i) + respell(found[0]) + textOf.slice(i + found[0].length));
	}
	// An escape written another way: `/` as `\/`, a non-ASCII character as `\uXXXX`, or back.
	const escapes = [...textOf.matchAll(/\\\/|\\u00[0-9a-fA-F]{2}|\/|[\u0080-\uffff]/g)];
	const found = entryAt(escapes, position);
	if (found === undefined) return Buffer.from(`\ufeff${textOf}`);
	const i = found.index ?? 0;
	const [piece] = found;
	const other =
		piece === '\\/'
			? '/'
			: piece === '/'
				? '\\/'
				: piece.startsWith('\\u')
					? String.fromCharCode(parseInt(piece.slice(2), 16))
					: `\\u${piece.charCodeAt(0).toString(16).padStart(4, '0')}`;
	return Buffer.from(textOf.slice(0, i) + other + textOf.slice(i + piece.length));
}

function editField(body: Buffer, m: Extract<Mutation, { kind: 'field' }>): Buffer {
	const textOf = body.toString('utf8');
	const value = JSON.stringify(m.text.replace(/[\ud800-\udfff]/g, ''));
	const form = encodeURIComponent(m.text.replace(/[\ud800-\udfff]/g, ''));
	const close = textOf.lastIndexOf('}');
	const open = textOf.indexOf('{');
	switch (m.op) {
		case 'repeated behind':
			return close === -1
				? body
				: Buffer.from(`${textOf.slice(0, close)},"id":${value}${textOf.slice(close)}`);
		case 'added in front':
			return open === -1
				? body
				: Buffer.from(`${textOf.slice(0, open + 1)}"event":${value},${textOf.slice(open + 1)}`);
		case 'reserved field':
		case '__proto__': {
			const [name, inner] =
				m.op === '__proto__' ? ['__proto__', 'event'] : ['webhookDelivery', 'id'];
			const added = `,"${name}":{"${inner}":${value}}`;
			return Buffer.from(
				close === -1 ? `${textOf}&${name}=x` : textOf.slice(0, close) + added + textOf.slice(close),
			);
		}
		case 'form field added':
			return Buffer.from(`${textOf}&id=${form}`);
		case 'form field in front':
			return Buffer.from(`event=${form}&${textOf}`);
		case 'form fields reordered':
			return Buffer.from(textOf.split('&').reverse().join('&'));
		default:
			return Buffer.from(
				textOf.includes('+')
					? textOf.replace('+', '%20')
					: textOf.replace(/%20|%2[0-9A-F]/i, (e) => (e === '%20' ? '+' : e.toLowerCase())),
			);
	}
}

// ---- headers ----

/** Names that look like another's: what a lenient reader might take for the real one. */
const LOOK_ALIKES: Record<string, string> = {
	'webhook-id': 'svix-id',
	'webhook-timestamp': 'svix-timestamp',
	'webhook-signature': 'svix-signature',
	'x-signature': 'x-signature-256',
	'x-timestamp': 'x-request-timestamp',
	'x-webhook-secret': 'x-webhook-token',
	'content-type': 'x-content-type',
};

function editHeader(lines: HeaderLines, m: Extract<Mutation, { kind: 'header' }>): HeaderLines {
	const out = lines.map((line): [string, string] => [...line]);
	if (m.op === 'added') return [...out, [`x-${Math.floor(m.at * 1000)}`, m.text]];
	if (m.op === 'alias first')
		return [...out, [entryAt(['x-alias-first', 'x-alias-second'], m.at) as string, m.text]];
	const i = Math.floor(m.at * out.length);
	if (out.length === 0) return out;
	const [name, value] = out[i];
	switch (m.op) {
		case 'dropped':
			return out.filter((_, j) => j !== i);
		case 'replaced':
			out[i] = [name, m.text];
			return out;
		case 'repeated':
			return [...out, [name, m.text]];
		case 'repeated, same value':
			return [...out, [name, value]];
		case 'letter case':
			out[i] = [name === name.toLowerCase() ? name.toUpperCase() : name.toLowerCase(), value];
			return out;
		case 'value letter case':
			out[i] = [name, value === value.toLowerCase() ? value.toUpperCase() : value.toLowerCase()];
			return out;
		case 'padded':
			out[i] = [name, ` ${value} `];
			return out;
		case 'look-alike': {
			const names = Object.keys(LOOK_ALIKES).filter((key) =>
				out.some(([n]) => n.toLowerCase() === key),
			);
			const chosen = entryAt(names, m.at);
			return chosen === undefined
				? out
				: out.map(([n, v]) => [n.toLowerCase() === chosen ? LOOK_ALIKES[chosen] : n, v]);
		}
		case 'timestamp shifted': {
			const shift = 1 + Math.floor(m.at * 400);
			return out.map(([n, v]) => [n, v.replace(/\d{10}/, (ts) => String(Number(ts) + shift))]);
		}
		case 'signature half forged':
			// Every line: the signature is the long run wherever it is (one header of several).
			return out.map(([n, v]) => [n, forgeSecondHalf(v)]);
		default:
			out[i] = [name, respellSignature(value, m.at)];
			return out;
	}
}

/** Every signature in a header (a long run of hex or base64) with its second half replaced, its first half kept. */
function forgeSecondHalf(value: string): string {
	return value.replace(/[0-9A-Za-z+/_-]{27,}/g, (run) => {
		const half = Math.ceil(run.length / 2);
		const filler = /^[0-9a-fA-F]+$/.test(run) ? '0' : 'A';
		return run.slice(0, half) + filler.repeat(run.length - half);
	});
}

/** A signature header's signatures written another way: in upper case, in base64url, without padding. */
function respellSignature(value: string, position: number): string {
	const way = Math.floor(position * 3);
	if (way === 0) return value.replace(/[0-9a-f]{40,}/g, (hex) => hex.toUpperCase());
	if (way === 1) return value.replace(/[+/]/g, (c) => (c === '+' ? '-' : '_'));
	return value.replace(/=+(?=$|[\s,;])/g, '');
}

// ---- secrets, query ----

function withSecret(
	request: Delivery,
	m: Extract<Mutation, { kind: 'secret' }>,
	secrets: string[],
): Delivery {
	const secret = entryAt(secrets, m.at);
	if (secret === undefined) return request;
	const written = spelled(secret, m.spelling);
	const header = (name: string, value: string): Delivery => ({
		...request,
		lines: [...request.lines, [name, value]],
	});
	// As written into the query string: n8n's parser decodes it once and reads a `+` as a space.
	const query = (pair: string) => ({
		...request,
		query: `${request.query === '' ? '?' : `${request.query}&`}${pair}`,
	});
	switch (m.place) {
		case 'header name':
			return header(`x-auth-${written}`, '1');
		case 'header value':
			return header('x-forwarded-note', `token ${written}`);
		case 'authorization':
			return header('authorization', `Bearer ${written}`);
		case 'x-forwarded-uri':
		case 'x-original-url':
		case 'referer':
			// A URL a proxy forwards, or the page the sender came from, with the query as sent.
			return header(m.place, `/webhook/5b0c7e1a?token=${written}`);
		case 'basic credentials':
			return header('x-upstream-authorization', `Basic ${written}`);
		case 'query name':
			return query(`k_${encodeURIComponent(written)}=1`);
		default:
			return query(`token=${written}`);
	}
}

function editQuery(query: string, m: Extract<Mutation, { kind: 'query' }>): string {
	const clean = encodeURIComponent(m.text.replace(/[\ud800-\udfff]/g, ''));
	if (m.op === 'added')
		return `${query === '' ? '?' : `${query}&`}${entryAt(['id', 'event', 'type', 'x'], m.at)}=${clean}`;
	if (m.op === 'dropped') return query.includes('&') ? query.slice(0, query.lastIndexOf('&')) : '';
	return query.replace(/%[0-9A-F]{2}/, (e) => e.toLowerCase()).replace(/=$/, '=%20');
}

/** The request an edit makes of a captured one; `secrets` are the credential's (an edit may copy one). */
export function applyMutation(request: Delivery, m: Mutation, secrets: string[]): Delivery {
	const body = request.body ?? Buffer.alloc(0);
	let out: Delivery;
	switch (m.kind) {
		case 'body':
			out = { ...request, body: editBytes(body, m) };
			break;
		case 're-encoded':
			out = { ...request, body: reencode(body, m.op, m.at) };
			break;
		case 'field':
			out = { ...request, body: editField(body, m) };
			break;
		case 'content type': {
			const lines = request.lines.filter(([name]) => name.toLowerCase() !== 'content-type');
			const added: HeaderLines = m.value === undefined ? [] : [['Content-Type', m.value]];
			const repeated: HeaderLines = m.repeated
				? request.lines.filter(([name]) => name.toLowerCase() === 'content-type')
				: [];
			// n8n parses a multipart body itself and keeps no bytes.
			const multipart = m.value?.startsWith('multipart/') === true;
			out = {
				...request,
				lines: [...added, ...repeated, ...lines],
				body: multipart ? undefined : request.body,
			};
			break;
		}
		case 'header':
			out = { ...request, lines: editHeader(request.lines, m) };
			break;
		case 'secret':
			out = withSecret(request, m, secrets);
			break;
		case 'query':
			out = { ...request, query: editQuery(request.query, m) };
			break;
		default:
			out = { ...request, transport: request.transport === 'node' ? 'direct' : 'node' };
	}
	// A line HTTP cannot carry, or blanks around a value (Node drops them), reach the trigger only from a program
	// that calls it directly.
	const padded = m.kind === 'header' && m.op === 'padded';
	return out.lines.every(sendable) && !padded ? out : { ...out, transport: 'direct' };
}
