/**
 * Where requests may go. The Api-Key must only ever reach the configured API: the base URL must be
 * HTTPS (plain HTTP only on loopback, for the local sandbox), and every endpoint, next-page URL and
 * user input is resolved strictly below the base path of that one origin.
 */

export interface ApiBase {
	origin: string;
	/** Path of the base URL without trailing slash, e.g. `/v1`. */
	path: string;
}

export class UnsafeUrlError extends Error {}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export function parseBaseUrl(raw: unknown): ApiBase {
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (text === '') throw new UnsafeUrlError('The credential has no Base URL');
	const url = tryParseUrl(text);
	if (!url) throw new UnsafeUrlError(`The credential's Base URL "${text}" is not a valid URL`);
	if (url.username || url.password) {
		throw new UnsafeUrlError("The credential's Base URL must not contain a user name or password");
	}
	if (url.search || url.hash || text.includes('?') || text.includes('#')) {
		throw new UnsafeUrlError(
			"The credential's Base URL must not contain a query string or fragment",
		);
	}
	const loopback = LOOPBACK_HOST.test(url.hostname);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
		throw new UnsafeUrlError(
			`The credential's Base URL must use https:// (plain http:// is only allowed for localhost), got "${url.protocol}//${url.host}"`,
		);
	}
	return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

function tryParseUrl(text: string, base?: string): URL | undefined {
	try {
		return new URL(text, base);
	} catch {
		return undefined;
	}
}

function tryDecode(text: string): string | undefined {
	try {
		return decodeURIComponent(text);
	} catch {
		return undefined;
	}
}

const MAX_DECODING_ROUNDS = 5;

/**
 * Decodes percent-escapes until stable, so `%252e%252e` is seen as `..` too, normalising to Unicode
 * NFKC after each round as applications that normalise paths do (`．．` and `‥` are `..`, `／` is `/`,
 * `％２ｅ` is `%2e`).
 */
function fullyDecode(segment: string, subject: string): string {
	let current = segment;
	for (let round = 0; round <= MAX_DECODING_ROUNDS; round++) {
		const next = tryDecode(current)?.normalize('NFKC');
		if (next === undefined) {
			throw new UnsafeUrlError(`${subject} contains an invalid percent-encoding: "${segment}"`);
		}
		if (next === current) return current;
		current = next;
	}
	throw new UnsafeUrlError(
		`${subject} is percent-encoded more than ${MAX_DECODING_ROUNDS} times over: "${segment}"`,
	);
}

/**
 * Whether a decoded path segment could lead a server above its parent: it hides a separator or a
 * control character, or it is `.`/`..` (any number of dots) once what servers cut off or ignore is
 * removed: path parameters (`..;x`, which Tomcat-style servers read as `..`), a query or fragment
 * delimiter (`..%3F`, which a server that decodes before it splits off the query reads as `..`),
 * and surrounding whitespace (`..%20`, and `..+` where a path is decoded as a form field).
 */
function segmentCouldClimb(decoded: string): boolean {
	if (/[\\/\p{Cc}]/u.test(decoded)) return true;
	return /^\.+$/.test(decoded.split(/[;?#]/)[0].replace(/\+/g, ' ').trim());
}

/** The one rule for every path the Api-Key is sent to: each segment, fully decoded, stays put. */
function assertSegmentsStay(segments: string[], subject: string): void {
	for (const segment of segments) {
		if (segmentCouldClimb(fullyDecode(segment, subject))) {
			throw new UnsafeUrlError(
				`${subject} must stay below the Base URL: segment "${segment}" is not allowed`,
			);
		}
	}
}

/**
 * What was found safe for a base (one object per run), remembered: a run sends the same few URLs
 * thousands of times, and need not parse and check them again each time. Only successes are kept,
 * and no more than `REMEMBERED` per base.
 */
const REMEMBERED = 1000;
const resolvedEndpoints = new WeakMap<ApiBase, Map<string, string>>();
const urlsWithinBase = new WeakMap<ApiBase, Set<string>>();

function remembered<T extends Map<string, string> | Set<string>>(
	cache: WeakMap<ApiBase, T>,
	base: ApiBase,
	create: () => T,
): T {
	let entries = cache.get(base);
	if (!entries || entries.size >= REMEMBERED) cache.set(base, (entries = create()));
	return entries;
}

/**
 * Resolves a user-given endpoint such as `/transfers` or `payouts/po_1/confirm?expand=x` to an
 * absolute URL below the base path. Anything that could leave it is refused rather than normalised.
 */
export function resolveEndpoint(base: ApiBase, endpoint: unknown): string {
	if (typeof endpoint !== 'string') return resolveNewEndpoint(base, endpoint);
	const known = resolvedEndpoints.get(base)?.get(endpoint);
	if (known !== undefined) return known;
	const absolute = resolveNewEndpoint(base, endpoint);
	remembered(resolvedEndpoints, base, () => new Map()).set(endpoint, absolute);
	return absolute;
}

/** assertWithinBase for a URL about to be requested, remembered for the base. */
export function checkWithinBase(base: ApiBase, absoluteUrl: string): void {
	if (urlsWithinBase.get(base)?.has(absoluteUrl)) return;
	assertWithinBase(base, absoluteUrl);
	remembered(urlsWithinBase, base, () => new Set()).add(absoluteUrl);
}

function resolveNewEndpoint(base: ApiBase, endpoint: unknown): string {
	const text = typeof endpoint === 'string' ? endpoint.trim() : '';
	if (text === '')
		throw new UnsafeUrlError('The endpoint is empty; give a path such as /transfers');
	if (/[\p{Cc}\s\\]/u.test(text)) {
		throw new UnsafeUrlError(
			'The endpoint must not contain backslashes, spaces or control characters',
		);
	}
	if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//')) {
		throw new UnsafeUrlError(
			`The endpoint must be a path relative to the Base URL (e.g. /transfers), not a URL: "${text}"`,
		);
	}
	if (text.includes('#')) throw new UnsafeUrlError('The endpoint must not contain a fragment (#)');
	const queryAt = text.indexOf('?');
	const pathPart = queryAt === -1 ? text : text.slice(0, queryAt);
	const query = queryAt === -1 ? '' : text.slice(queryAt);
	const segments = pathPart.replace(/^\/+/, '').split('/');
	assertSegmentsStay(segments, 'The endpoint');
	const absolute = `${base.origin}${base.path}/${segments.join('/')}${query}`;
	assertWithinBase(base, absolute);
	return absolute;
}

/** A next-page link from the API (absolute, or from the origin's root), confined like endpoints. */
export function resolveNextLink(base: ApiBase, link: string): string {
	return assertWithinBase(base, link, "The API's next-page link").toString();
}

/**
 * Checks a URL the Api-Key is about to be sent to (a resolved endpoint, a next-page link from the
 * API): the API's origin, below the base path, and no segment that a server could read as a climb.
 * The check is on the URL as it will go on the wire (after the URL parser's own normalisation).
 */
function assertWithinBase(base: ApiBase, absoluteUrl: string, subject = 'The URL'): URL {
	const url = tryParseUrl(absoluteUrl, `${base.origin}/`);
	if (!url) throw new UnsafeUrlError(`"${absoluteUrl}" is not a valid URL`);
	if (
		url.origin !== base.origin ||
		!(url.pathname === base.path || url.pathname.startsWith(`${base.path}/`))
	) {
		throw new UnsafeUrlError(
			`Refusing to send the API key to "${url.origin}${url.pathname}": it is outside the Base URL ${base.origin}${base.path}`,
		);
	}
	if (url.username || url.password)
		throw new UnsafeUrlError('URLs with credentials are not allowed');
	assertSegmentsStay(url.pathname.slice(base.path.length + 1).split('/'), subject);
	return url;
}
