/**
 * How a request's headers reach the trigger. A sender (or an attacker) writes header lines: names in any case,
 * repeated, values with blanks around them. n8n hands the trigger Node's `req.headers`, built by Node's HTTP
 * server from those lines; a program calling `receiveDelivery` itself (the package's main exports it) may hand it
 * any header bag. The campaign sends each request one of the two ways.
 */
import type { HeaderBag } from '../../nodes/TenantApiTrigger/headers';

/** Header lines as sent: [name, value] in order. */
export type HeaderLines = Array<[string, string]>;

/** `node`: as n8n's server (Node's http module) hands them over; `direct`: the lines as a bag, names as written. */
export type Transport = 'node' | 'direct';

/**
 * Headers Node keeps once (the first line wins) when a request repeats them (Node's `matchKnownFields`, in
 * lib/_http_incoming.js of Node 20).
 */
const FIRST_WINS = new Set([
	'content-type',
	'content-length',
	'user-agent',
	'referer',
	'host',
	'authorization',
	'proxy-authorization',
	'if-modified-since',
	'if-unmodified-since',
	'from',
	'location',
	'max-forwards',
	'retry-after',
	'etag',
	'last-modified',
	'server',
	'age',
	'expires',
]);

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
export function directHeaders(lines: HeaderLines): HeaderBag {
	return Object.fromEntries(lines);
}

export function headerBag(lines: HeaderLines, transport: Transport): HeaderBag {
	return transport === 'node' ? nodeHeaders(lines) : directHeaders(lines);
}

/** Whether a line can travel in an HTTP request: a token for a name; no CR, LF or NUL, and Latin-1 only, in a value. */
export function sendable([name, value]: [string, string]): boolean {
	return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}
