/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: node:net's BlockList is the oracle's reading of loopback addresses */
/**
 * Property-based model of the action node's URL confinement (nodes/TenantApi/transport/apiUrl.ts): the Api-Key only
 * ever goes to the Base URL's origin, at or below its base path. Generated base URLs; endpoints (user input, sent alone
 * and as the pages of a Get Many, without the query parameters the node sends itself) and
 * next-page links (the API's answer) from a grammar of hostile pieces and as mutations of plain ones. The rule: each
 * is refused with UnsafeUrlError, or resolves to a URL that keeps the base's origin and path both as the WHATWG URL
 * parser (the HTTP client) reads it and as the most lenient server below reads it; nothing throws anything else.
 * Plain endpoints and links must be accepted, as written. Used by test/unit/urlProperties.test.ts (a fixed seed) and
 * by `npm run fuzz` (test/property/campaign.ts).
 *
 * The oracle never asks apiUrl.ts what is safe. Its server is every known way of reading a path at once:
 * - percent-escapes decoded again and again (a proxy decodes, the backend decodes again), leniently: an invalid
 *   escape stays as it is, overlong UTF-8 (`%c0%ae`) and `%u002e` are read as the character they spell (old IIS);
 * - Unicode NFKC between the rounds (`．`, `‥`, `／`, `％` become `.`, `..`, `/`, `%`): applications that normalise;
 * - `\` read as `/` (Windows), decoded `%2f` split on, `+` read as a space (a path decoded as a form field);
 * - each segment cut at `;` (Tomcat's and Jetty's path parameters), and at a decoded `?` or `#` (a server that
 *   decodes before it splits off the query, as Apache httpd's rewriting did);
 * - white space and control characters around a segment ignored, empty segments merged (nginx's merge_slashes);
 * - `.` stays, two dots climb one level, and n dots climb n - 1 (old Windows read `...` as `..\..`).
 * A URL breaks the rule when this reading ever climbs above the base path, even if it comes back below it.
 */
import { BlockList } from 'net';

import fc from 'fast-check';

import type { ApiBase } from '../../nodes/TenantApi/transport/apiUrl';
import {
	UnsafeUrlError,
	checkWithinBase,
	parseBaseUrl,
	resolveEndpoint,
	resolveNextLink,
} from '../../nodes/TenantApi/transport/apiUrl';
import { withoutQueryParameters } from '../../nodes/TenantApi/transport/pagination/fetchListing';
import type { PropertyGroup, Verdict } from './common';
import { caseProperty, fraction, threw } from './common';

// ---- the oracle ----

/** The base URL as the WHATWG URL parser reads the credential field (trimmed): the origin and the path without trailing slashes. */
interface ExpectedBase {
	origin: string;
	path: string;
}

function expectedBase(raw: string): ExpectedBase {
	const url = new URL(raw.trim());
	return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

const hexByte = (byte: number) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;

/** UTF-8 read leniently: overlong forms accepted (`c0 ae` is `.`), a byte that starts no sequence kept as its escape. */
function lenientUtf8(bytes: number[]): string {
	let text = '';
	for (let i = 0; i < bytes.length; ) {
		const lead = bytes[i];
		// The lead byte's leading ones: none (ASCII), 2 to 4 (a sequence of that length), else no lead.
		const ones = Math.clz32(~(lead << 24));
		const extra = ones === 0 ? 0 : ones >= 2 && ones <= 4 ? ones - 1 : -1;
		const rest = bytes.slice(i + 1, i + 1 + Math.max(extra, 0));
		let codePoint = extra <= 0 ? lead : lead & (0x3f >> extra);
		for (const byte of rest) codePoint = (codePoint << 6) | (byte & 0x3f);
		if (
			extra < 0 ||
			rest.length < extra ||
			rest.some((byte) => (byte & 0xc0) !== 0x80) ||
			codePoint > 0x10ffff
		) {
			text += hexByte(lead);
			i++;
		} else {
			text += String.fromCodePoint(codePoint);
			i += 1 + extra;
		}
	}
	return text;
}

/** One round of lenient percent-decoding: runs of `%XX` as UTF-8, `%uXXXX` as a UTF-16 unit, anything else as it is. */
function lenientDecode(text: string): string {
	return text.replace(/(?:%[0-9a-f]{2})+|%u[0-9a-f]{4}/gi, (run) =>
		/^%u/i.test(run)
			? String.fromCharCode(parseInt(run.slice(2), 16))
			: lenientUtf8(
					run
						.slice(1)
						.split('%')
						.map((hex) => parseInt(hex, 16)),
				),
	);
}

const MAX_SERVER_ROUNDS = 64;

/** Decoded and NFKC-normalised until nothing changes; undefined when that never happens. */
function decodedAsServersDo(path: string): string | undefined {
	let current = path;
	for (let round = 0; round < MAX_SERVER_ROUNDS; round++) {
		const next = lenientDecode(current).normalize('NFKC');
		if (next === current) return current;
		current = next;
	}
	return undefined;
}

/** How many levels a segment goes down (1), stays (0) or climbs (negative), once what servers cut or ignore is gone. */
function levelsOf(segment: string): number {
	const core = segment.split(/[;?#]/)[0].replace(/^[\s\p{Cc}]+|[\s\p{Cc}]+$/gu, '');
	if (core === '') return 0;
	return /^\.+$/.test(core) ? 1 - core.length : 1;
}

/**
 * How the most lenient server reads `tail` (a path below the base path, as it goes on the wire): the first point
 * where the reading is above the base path, or undefined when it never is.
 */
export function serverClimb(tail: string): string | undefined {
	const decoded = decodedAsServersDo(tail);
	if (decoded === undefined) return `${JSON.stringify(tail)} never stops decoding`;
	const segments = decoded.replace(/\\/g, '/').replace(/\+/g, ' ').split('/');
	let depth = 0;
	for (const [index, segment] of segments.entries()) {
		depth += levelsOf(segment);
		if (depth < 0)
			return `${JSON.stringify(tail)} is read as ${JSON.stringify(segments.slice(0, index + 1).join('/'))}`;
	}
	return undefined;
}

/** Why `href` is not confined to the base (as the WHATWG parser and the lenient server read it), or undefined. */
export function confinementBreach(base: ExpectedBase, href: string): string | undefined {
	let url: URL;
	try {
		url = new URL(href);
	} catch {
		return `${JSON.stringify(href)} is not an absolute URL`;
	}
	if (url.origin !== base.origin) return `${JSON.stringify(href)} goes to ${url.origin}`;
	if (url.username !== '' || url.password !== '')
		return `${JSON.stringify(href)} carries a user name or password`;
	if (url.pathname !== base.path && !url.pathname.startsWith(`${base.path}/`))
		return `${JSON.stringify(href)} has the path ${url.pathname}, outside ${base.path}`;
	const climb = serverClimb(url.pathname.slice(base.path.length + 1));
	return climb === undefined
		? undefined
		: `${JSON.stringify(href)} climbs above ${base.path || '/'} as a lenient server reads it: ${climb}`;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Loopback as the IP rules read a WHATWG host name (IPv4-mapped IPv6 included); `localhost` by name. */
function isLoopback(hostname: string): boolean {
	if (hostname === 'localhost') return true;
	if (hostname.startsWith('[')) return LOOPBACK.check(hostname.slice(1, -1), 'ipv6');
	return /^\d+\.\d+\.\d+\.\d+$/.test(hostname) && LOOPBACK.check(hostname, 'ipv4');
}

/** Why an accepted base URL should have been refused (or was read wrongly), or undefined. */
function baseBreach(raw: unknown, got: { origin: string; path: string }): string | undefined {
	let url: URL;
	try {
		url = new URL(typeof raw === 'string' ? raw.trim() : '');
	} catch {
		return 'an invalid URL was accepted';
	}
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
		return `${url.protocol}//${url.host} was accepted`;
	if (url.username !== '' || url.password !== '') return 'a user name or password was accepted';
	if (url.search !== '' || url.hash !== '') return 'a query or fragment was accepted';
	const expected = expectedBase(url.href);
	if (got.origin !== expected.origin || got.path !== expected.path)
		return `read as ${JSON.stringify(got)}, not ${JSON.stringify(expected)}`;
	return undefined;
}

// ---- running the code under test ----

/** A refusal's message with what varies (the quoted input, URLs) left out, to count refusals by kind. */
const kindOf = (message: string) =>
	message.replace(/"[\s\S]*"/, '"…"').replace(/\b[a-z]+:\/\/\S+/gi, '…');

/** What a run gave, the kind of UnsafeUrlError it threw, or the verdict on any other error (a broken rule). */
function attempt<T>(run: () => T): { value: T } | { refused: string } | { verdict: Verdict } {
	try {
		return { value: run() };
	} catch (error) {
		return error instanceof UnsafeUrlError
			? { refused: kindOf(error.message) }
			: { verdict: threw(error) };
	}
}

const broken = (outcome: string, why: string): Verdict => ({ ok: false, outcome, why });

/**
 * One URL the Api-Key would go to, judged: refused, or confined, resolved the same again (the node remembers it) and
 * accepted by the check before sending; `expected`, when given, is the URL a plain input must resolve to.
 */
function judgeUrl(
	rawBase: string,
	resolve: (base: ApiBase) => string,
	expected?: (base: ExpectedBase) => string,
): Verdict {
	const base = attempt(() => parseBaseUrl(rawBase));
	if ('verdict' in base) return base.verdict;
	// The generated bases are all valid.
	if ('refused' in base) return broken('valid base refused', `${rawBase}: ${base.refused}`);
	const got = attempt(() => resolve(base.value));
	if ('verdict' in got) return got.verdict;
	const want = expected?.(expectedBase(rawBase));
	if ('refused' in got)
		return want === undefined
			? { ok: true, outcome: `refused: ${got.refused}` }
			: broken('plain input refused', `${want}: ${got.refused}`);
	const href = got.value;
	const checked = attempt(() => checkWithinBase(base.value, href));
	const breach =
		confinementBreach(expectedBase(rawBase), href) ??
		(resolve(base.value) !== href ? 'resolved differently the second time' : undefined) ??
		('value' in checked
			? undefined
			: `refused by the check before sending: ${JSON.stringify(checked)}`);
	if (breach !== undefined) return broken('escaped', breach);
	if (want === undefined) return { ok: true, outcome: 'resolved within the base' };
	return href === want
		? { ok: true, outcome: 'plain input resolved as written' }
		: broken('plain input misread', `${href}, not ${want}`);
}

interface UrlCase {
	base: string;
	input: unknown;
}

const checkEndpoint = ({ base, input }: UrlCase): Verdict =>
	judgeUrl(base, (b) => resolveEndpoint(b, input));

const checkPlainEndpoint = ({ base, input }: UrlCase): Verdict =>
	judgeUrl(
		base,
		(b) => resolveEndpoint(b, input),
		({ origin, path }) => `${origin}${path}/${String(input).replace(/^\/+/, '')}`,
	);

/**
 * A Get Many's request for a page of the Endpoint: the resolved endpoint without the query parameters the node sends
 * itself (names the generated queries use too).
 */
const PAGE_PARAMETERS = ['limit', 'cursor', 'page', 'a', 'expand', 'transfers'];
const checkListingEndpoint = ({ base, input }: UrlCase): Verdict =>
	judgeUrl(base, (b) => withoutQueryParameters(resolveEndpoint(b, input), PAGE_PARAMETERS));

const checkLink = ({ base, input }: UrlCase): Verdict =>
	judgeUrl(base, (b) => resolveNextLink(b, String(input)));

const checkPlainLink = ({ base, input }: UrlCase): Verdict =>
	judgeUrl(
		base,
		(b) => resolveNextLink(b, String(input)),
		({ origin }) => new URL(String(input), `${origin}/`).href,
	);

/** A base URL (any value in the credential field): refused, or https (http only on loopback) read as WHATWG reads it. */
function checkBaseUrl(raw: unknown): Verdict {
	const got = attempt(() => parseBaseUrl(raw));
	if ('verdict' in got) return got.verdict;
	if ('refused' in got) return { ok: true, outcome: `refused: ${got.refused}` };
	const breach = baseBreach(raw, got.value);
	return breach === undefined
		? { ok: true, outcome: `accepted ${new URL(got.value.origin).protocol}` }
		: broken('accepted', `${JSON.stringify(raw)}: ${breach}`);
}

// ---- generators: base URLs ----

/** A list of pieces written one space apart. */
const words = (list: string) => list.split(' ');

const HTTPS_HOSTS = words(
	'api.example.com API.Example.COM tenant-7.api.example.io xn--bcher-kva.example bücher.example 203.0.113.5 [2001:db8::1] localhost 127.0.0.1',
);
const LOOPBACK_HOSTS = words(
	'localhost LocalHost 127.0.0.1 127.5.6.7 127.1 [::1] [0:0:0:0:0:0:0:1]',
);
const port = fc.oneof(
	fc.constant(''),
	fc.constantFrom(':443', ':80', ':8443', ':4010'),
	fc.integer({ min: 1, max: 65535 }).map((n) => `:${n}`),
);
const baseSegment = fc.oneof(
	fc.constantFrom('v1', 'v2', 'api', 'tenant', 'v1.2', 't_7', 'a%20b', 'é', '~u', 'a-b', 'x.'),
	fc.stringMatching(/^[a-z0-9._~-]{1,8}$/).filter((segment) => !/^\.+$/.test(segment)),
);
const basePath = fc
	.tuple(fc.array(baseSegment, { maxLength: 3 }), fc.constantFrom('', '/', '//'))
	.map(([segments, trailing]) => (segments.length > 0 ? `/${segments.join('/')}` : '') + trailing);

/** Valid base URLs: https hosts, plain http on loopback, paths with and without trailing slashes, blanks around. */
const validBase: fc.Arbitrary<string> = fc
	.tuple(
		fc.oneof(
			fc.constantFrom(...HTTPS_HOSTS).map((host) => `https://${host}`),
			fc.constantFrom(...LOOPBACK_HOSTS).map((host) => `http://${host}`),
		),
		port,
		basePath,
		fc.constantFrom('', ' ', '  \t'),
	)
	.map(([origin, p, path, blank]) => `${blank}${origin}${p}${path}${blank}`);

// ---- generators: hostile pieces ----

const DOTS = words(
	'. .. ... %2e %2E .%2e %2e. %2e%2e %2E%2e %252e %252e%252e %25252e%25252E %c0%ae %C0%AE%C0%AE %e0%80%ae %u002e %U002E%u002E ． ．． %ef%bc%8e ‥ %e2%80%a5 … ․ ﹒',
);
const SEPARATORS = words('/ // %2f %2F %252f \\ %5c %5C %255c %c0%af %c1%9c ／ ＼ %ef%bc%8f');
const DELIMITERS = words('; %3b %3B ;jsessionid=1 ;x=.. ? %3f %3F %253f # %23 ？ ； ＃ ﹖ & =');
const AUTHORITY = words(
	'@ %40 https: http:// HTTPS: //evil.example evil.example :8080 : [::1] [::ffff:127.0.0.1] 127.0.0.1 localhost javascript: file: mailto:',
);
const BLANKS = [
	' ',
	...words(
		'%20 + %2b \t %09 \n %0a \r %0d \0 %00 \u0085 %c2%85 \u00a0 %c2%a0 \u2028 \u3000 %e3%80%80 \u200b \ufeff \x7f %7f \u001f',
	),
];
const UNICODE = words('é %c3%a9 日本 😀 \ud800 %ff % %2 %zz %%32%65 %252 e\u0301 \u0338 ％２ｅ');
const ORDINARY = ['a', 'v1', 'transfers', 'po_1', 'x.y', 'a..b', 'v1.2', '.well-known', 'accounts'];

const text = fc.oneof(
	fc.string({ maxLength: 4 }),
	fc.string({ unit: 'grapheme', maxLength: 3 }),
	fc.string({ unit: 'binary', maxLength: 3 }),
);
const piece = fc.oneof(
	{ arbitrary: fc.constantFrom(...DOTS), weight: 4 },
	{ arbitrary: fc.constantFrom(...SEPARATORS), weight: 2 },
	{ arbitrary: fc.constantFrom(...DELIMITERS), weight: 2 },
	{ arbitrary: fc.constantFrom(...AUTHORITY), weight: 1 },
	{ arbitrary: fc.constantFrom(...BLANKS), weight: 2 },
	{ arbitrary: fc.constantFrom(...UNICODE), weight: 1 },
	{ arbitrary: fc.constantFrom(...ORDINARY), weight: 2 },
	{ arbitrary: text, weight: 1 },
);
const segment = fc.array(piece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(''));
const suffix = fc.oneof(
	fc.constant(''),
	segment.map((s) => `?${s}`),
	segment.map((s) => `#${s}`),
);
/** Slash-separated segments of pieces, or pieces run together, with a query or fragment now and then. */
const hostilePath = fc.oneof(
	fc
		.tuple(
			fc.constantFrom('', '/', '//'),
			fc.array(segment, { minLength: 1, maxLength: 6 }),
			suffix,
		)
		.map(([lead, segments, end]) => lead + segments.join('/') + end),
	fc.array(piece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join('')),
);

// ---- generators: plain inputs, and mutations of them ----

const plainSegment = fc.oneof(
	fc.stringMatching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,10}$/),
	fc.constantFrom(
		...words('transfers po_1 confirm v1.2 a..b .well-known files;v=2 a%20b %41 caf%C3%A9'),
	),
);
const plainQuery = fc.oneof(
	fc.constant(''),
	fc.constantFrom('?expand=fees', '?a=1&b=%2F..', '?cursor=..%2F..', '?q=a+b'),
);
/** Endpoints as users write them: `/transfers`, `payouts/po_1/confirm?expand=x`. */
const plainEndpoint: fc.Arbitrary<string> = fc
	.tuple(
		fc.constantFrom('', '/'),
		fc.array(plainSegment, { minLength: 1, maxLength: 4 }),
		plainQuery,
	)
	.map(([lead, segments, query]) => lead + segments.join('/') + query);

/** A character's UTF-8 bytes percent-encoded `rounds` times over (`.` twice: `%252e`), in either case. */
function percentEncoded(character: string, rounds: number, upper: boolean): string {
	let encoded = [...Buffer.from(character, 'utf8')].map(hexByte).join('');
	for (let round = 1; round < rounds; round++) encoded = encoded.replace(/%/g, '%25');
	return upper ? encoded : encoded.toLowerCase();
}

type EditOp = 'insert' | 'replace' | 'encode' | 'delete' | 'slash' | 'case';

interface Edit {
	op: EditOp;
	at: number;
	length: number;
	piece: string;
	rounds: number;
	upper: boolean;
}

const edit: fc.Arbitrary<Edit> = fc.record({
	op: fc.constantFrom<EditOp>('insert', 'replace', 'encode', 'delete', 'slash', 'case'),
	at: fraction,
	length: fc.integer({ min: 0, max: 4 }),
	piece,
	rounds: fc.integer({ min: 1, max: 3 }),
	upper: fc.boolean(),
});
const edits = fc.array(edit, { minLength: 1, maxLength: 3 });

/** One edit at a uniform position: a piece put in or over the text, a character encoded or cut, a slash replaced, escapes re-cased. */
function applyEdit(input: string, e: Edit): string {
	const characters = [...input];
	const i = Math.floor(e.at * (characters.length + 1));
	const before = characters.slice(0, i).join('');
	switch (e.op) {
		case 'insert':
			return before + e.piece + characters.slice(i).join('');
		case 'replace':
			return before + e.piece + characters.slice(i + e.length).join('');
		case 'encode':
			return i < characters.length
				? before +
						percentEncoded(characters[i], e.rounds, e.upper) +
						characters.slice(i + 1).join('')
				: input;
		case 'delete':
			return before + characters.slice(i + 1).join('');
		case 'slash': {
			const slashes = characters.flatMap((c, at) => (c === '/' ? [at] : []));
			if (slashes.length === 0) return input;
			const at = slashes[Math.floor(e.at * slashes.length)];
			characters[at] = [
				'\\',
				'//',
				'/%2e%2e/',
				percentEncoded('/', e.rounds, e.upper),
				percentEncoded('\\', e.rounds, e.upper),
			][e.length];
			return characters.join('');
		}
		case 'case':
			return input.replace(/%[0-9a-f]{2}/gi, (escape) =>
				e.upper ? escape.toUpperCase() : escape.toLowerCase(),
			);
	}
}

const mutated = (plain: fc.Arbitrary<string>) =>
	fc.tuple(plain, edits).map(([input, list]) => list.reduce(applyEdit, input));

/** Endpoints from hostile pieces, and now and then not a string at all. */
const hostileEndpoint: fc.Arbitrary<unknown> = fc.oneof(
	{ arbitrary: hostilePath, weight: 10 },
	{ arbitrary: fc.anything({ maxDepth: 1 }), weight: 1 },
);

// ---- generators: next-page links ----

/**
 * How a link names the base's origin (`SCHEME`: its scheme with the colon, `HOST`: its host and port, or its host
 * name where the template gives a port) or another one.
 */
const AUTHORITIES = [
	...words(
		'SCHEME//HOST HTTPS://HOST SCHEME//HOST:443 SCHEME//HOST:80 http://HOST https://HOST SCHEME//HOST. SCHEME//user:pw@HOST SCHEME//HOST@evil.example SCHEME//evil.example\\@HOST SCHEME//evil.example#@HOST //HOST ///HOST SCHEMEHOST SCHEME/HOST SCHEME//HOST:8443 SCHEME//HOSTevil.example https://evil.example http://127.0.0.1 https://[::1] javascript:',
	),
	'\t SCHEME//HOST',
	...words('\0SCHEME//HOST SCHEME//HO\tST'),
	'',
];

function authorityOf(template: string, base: string): string {
	const url = new URL(base.trim());
	const host = /HOST:/.test(template) ? url.hostname : url.host;
	return template
		.replace('SCHEME', url.protocol)
		.replace('HO\tST', `${host.slice(0, 2)}\t${host.slice(2)}`)
		.replace('HOST', host);
}

interface LinkShape {
	authority: string;
	underBase: boolean;
	path: string;
}

/** A next-page link on the base's origin, its path below the base path, as APIs write them (absolute or from the root). */
const plainLink = (base: string): fc.Arbitrary<string> =>
	fc.tuple(fc.boolean(), plainEndpoint).map(([absolute, endpoint]) => {
		const { origin, path } = expectedBase(base);
		return `${absolute ? origin : ''}${path}/${endpoint.replace(/^\/+/, '')}`;
	});

/** Three in four below the base path, where only the path's pieces can make a link escape. */
const linkShape: fc.Arbitrary<LinkShape> = fc.record({
	authority: fc.constantFrom(...AUTHORITIES),
	underBase: fc.oneof(
		{ arbitrary: fc.constant(true), weight: 3 },
		{ arbitrary: fc.constant(false), weight: 1 },
	),
	path: hostilePath,
});

function linkOf(base: string, shape: LinkShape): string {
	const path = shape.underBase
		? `${expectedBase(base).path}/${shape.path.replace(/^\/+/, '')}`
		: shape.path.replace(/^(?!\/)/, '/');
	return authorityOf(shape.authority, base) + path;
}

/** A link for a valid base, made from that base. */
const linkCase = (of: (base: string) => fc.Arbitrary<string>): fc.Arbitrary<UrlCase> =>
	validBase.chain((base) => of(base).map((input) => ({ base, input })));
const hostileLinkCase: fc.Arbitrary<UrlCase> = fc
	.tuple(validBase, linkShape)
	.map(([base, shape]) => ({ base, input: linkOf(base, shape) }));

const endpointCase = (input: fc.Arbitrary<unknown>): fc.Arbitrary<UrlCase> =>
	fc.record({ base: validBase, input });
const hostileEndpointCase = endpointCase(hostileEndpoint);
const mutatedEndpointCase = endpointCase(mutated(plainEndpoint));

// ---- generators: base URLs that must be refused, or read right ----

const SCHEMES = [
	...words(
		'https:// http:// HTTP:// HtTpS:// ftp:// ws:// wss:// file:// javascript: https: http:/ http:\\\\ //',
	),
	'',
];
const BASE_HOSTS = [
	...HTTPS_HOSTS,
	...LOOPBACK_HOSTS,
	...words(
		'localhost.evil.example 127.0.0.1.nip.io evil.example localhost. 0x7f.1 2130706433 0177.0.0.1 [::ffff:127.0.0.1] [::] 0.0.0.0 loca%6chost ｌｏｃａｌｈｏｓｔ 127.0.0.1%2eevil.example evil.example\\@localhost localhost\\@evil.example evil.example#@localhost localhost#@evil.example localhost?@evil.example user:pw@api.example.com localhost:80@evil.example localhost\t.evil.example [::1].evil.example',
	),
];

/** Base URLs put together from hostile schemes, hosts, paths and suffixes, mutated valid ones, and values that are not text. */
const anyBase: fc.Arbitrary<unknown> = fc.oneof(
	{
		arbitrary: fc
			.tuple(
				fc.constantFrom(...SCHEMES),
				fc.constantFrom(...BASE_HOSTS),
				port,
				fc.oneof(
					basePath,
					hostilePath.map((p) => `/${p}`),
				),
				fc.constantFrom('', '?x=1', '#f', '?', '#'),
			)
			.map((parts) => parts.join('')),
		weight: 4,
	},
	{ arbitrary: mutated(validBase), weight: 3 },
	{ arbitrary: validBase, weight: 1 },
	{ arbitrary: fc.anything({ maxDepth: 1 }), weight: 1 },
);

// ---- the properties ----

const WITHIN = 'is refused, or stays within the base';

/** The URL properties by kind of input: hostile and mutated inputs, and (a tenth of the cases) plain ones. */
export const URL_GROUPS: PropertyGroup[] = [
	{
		key: 'endpoints',
		label: 'endpoints',
		properties: [
			caseProperty(
				`each endpoint from hostile pieces ${WITHIN}`,
				0.45,
				hostileEndpointCase,
				checkEndpoint,
			),
			caseProperty(`each mutated endpoint ${WITHIN}`, 0.45, mutatedEndpointCase, checkEndpoint),
			caseProperty(
				'each plain endpoint is taken as written',
				0.1,
				endpointCase(plainEndpoint),
				checkPlainEndpoint,
			),
		],
	},
	{
		key: 'next-links',
		label: 'next-page links',
		properties: [
			caseProperty(
				`each next-page link from hostile pieces ${WITHIN}`,
				0.45,
				hostileLinkCase,
				checkLink,
			),
			caseProperty(
				`each mutated next-page link ${WITHIN}`,
				0.45,
				linkCase((base) => mutated(plainLink(base))),
				checkLink,
			),
			caseProperty(
				'each plain next-page link is taken as written',
				0.1,
				linkCase(plainLink),
				checkPlainLink,
			),
		],
	},
	{
		key: 'base-urls',
		label: 'base URLs',
		properties: [
			caseProperty(
				'each base URL is refused, or https (plain http on loopback) read as WHATWG reads it',
				1,
				anyBase,
				checkBaseUrl,
			),
		],
	},
	{
		key: 'listing-endpoints',
		label: 'Get Many endpoints',
		properties: [
			caseProperty(
				`each endpoint of a Get Many from hostile pieces ${WITHIN}`,
				0.5,
				hostileEndpointCase,
				checkListingEndpoint,
			),
			caseProperty(
				`each mutated endpoint of a Get Many ${WITHIN}`,
				0.5,
				mutatedEndpointCase,
				checkListingEndpoint,
			),
		],
	},
];
