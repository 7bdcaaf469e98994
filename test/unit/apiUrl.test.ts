/**
 * URL confinement (nodes/TenantApi/transport/apiUrl.ts): the Base URL, the Endpoint and the API's next-page links,
 * with the exact messages docs/bad-input.md lists. The engine suites run one refusal of each through the node
 * (nothing is sent); test/unit/urlProperties.test.ts generates the rest.
 */
import {
	parseBaseUrl,
	resolveEndpoint,
	resolveNextLink,
} from '../../nodes/TenantApi/transport/apiUrl';

const HTTPS_ONLY = (origin: string) =>
	`The credential's Base URL must use https:// (plain http:// is only allowed for localhost), got "${origin}"`;
const QUERY = "The credential's Base URL must not contain a query string or fragment";

describe('parseBaseUrl', () => {
	it.each([
		['', 'The credential has no Base URL'],
		[undefined, 'The credential has no Base URL'],
		['not a url', 'The credential\'s Base URL "not a url" is not a valid URL'],
		...'http://api.example.com http://localhost.evil.com http://127.0.0.1.nip.io http://10.0.0.5 ftp://api.example.com'
			.split(' ')
			.map((origin): [string, string] => [`${origin}/v1`, HTTPS_ONLY(origin)]),
		[
			'https://user:secret@api.example.com/v1',
			"The credential's Base URL must not contain a user name or password",
		],
		['https://api.example.com/v1?api_key=sk_live_1', QUERY],
		['https://api.example.com/v1#x', QUERY],
	])('refuses %p', (raw, message) => {
		expect(() => parseBaseUrl(raw)).toThrow(new Error(message));
	});
});

const ABSOLUTE = (endpoint: string) =>
	`The endpoint must be a path relative to the Base URL (e.g. /transfers), not a URL: ${JSON.stringify(endpoint)}`;
const CLIMBS = (segment: string) =>
	`The endpoint must stay below the Base URL: segment "${segment}" is not allowed`;
/** Rows for segments (written one space apart) that climb, each as /segment then `after`. */
const climbing = (segments: string, after: string): Array<[string, string]> =>
	segments.split(' ').map((segment) => [`/${segment}${after}`, CLIMBS(segment)]);
const CHARACTERS = 'The endpoint must not contain backslashes, spaces or control characters';

describe('resolveEndpoint', () => {
	const base = parseBaseUrl('https://api.example.com/v1');

	// Plain endpoints resolve as written over generated ones (urlProperties.test.ts); this one it never writes.
	it('resolves + signs, encoded ? and #, and compatibility characters below the base path', () => {
		expect(resolveEndpoint(base, '/files/a+b/%3Fq/%23x/ﬁle')).toBe(
			'https://api.example.com/v1/files/a+b/%3Fq/%23x/ﬁle',
		);
	});

	// The last rows were found by the property-based tests: dots a server reads after Unicode NFKC normalisation,
	// a decoded `?` or `#` it splits the path at, `+` it reads as a space.
	it.each([
		['', 'The endpoint is empty; give a path such as /transfers'],
		['   ', 'The endpoint is empty; give a path such as /transfers'],
		...'https://evil.example/v1/x HTTP://127.0.0.1:9 HTTPS://evil.example //evil.example/v1 javascript:alert(1) mailto:x@example.com'
			.split(' ')
			.map((url): [string, string] => [url, ABSOLUTE(url)]),
		['\\\\evil.example\\x', CHARACTERS],
		['/\\evil.example', CHARACTERS],
		['/transfers\\..\\x', CHARACTERS],
		['/transfers\nHost: evil', CHARACTERS],
		['/x\u007fy', CHARACTERS],
		['/x\u0085y', CHARACTERS],
		['/a b', CHARACTERS],
		['/transfers#x', 'The endpoint must not contain a fragment (#)'],
		['/x%zz', 'The endpoint contains an invalid percent-encoding: "x%zz"'],
		[
			'/%2525252525252e%2525252525252e/admin',
			'The endpoint is percent-encoded more than 5 times over: "%2525252525252e%2525252525252e"',
		],
		['../admin', CLIMBS('..')],
		['/transfers/../../x', CLIMBS('..')],
		['a/../../b', CLIMBS('..')],
		['/transfers/...;x=1', CLIMBS('...;x=1')],
		...climbing('.. %2E%2E%2Fx a%2Fb a%5c.. x%7Fy x%C2%85y ..＼admin', ''),
		...climbing('. %2e%2e %2E%2e .%2E %252e%252e', '/x'),
		...climbing(
			'..; %2e%2e; ..%3b ..%3B ..%20 ..%09 %20.. ...;jsessionid=1 ..%C2%A0 ．． %EF%BC%8E%EF%BC%8E ‥ … .․ ％２ｅ％２ｅ ..； ..%3F ..%23 ...%253f ..+ %2b%2e.',
			'/admin',
		),
	])('refuses %p', (endpoint, message) => {
		expect(() => resolveEndpoint(base, endpoint)).toThrow(new Error(message));
	});
});

describe('resolveNextLink', () => {
	const base = parseBaseUrl('https://api.example.com/v1');
	it.each([
		...'https://evil.example/v1 http://api.example.com/v1 https://api.example.com:444/v1 https://api.example.com/v2 https://api.example.com/v1evil'
			.split(' ')
			.map((above): [string, string] => [`${above}/accounts`, `${above}/accounts`]),
		['https://api.example.com/v1/../admin', 'https://api.example.com/admin'],
		['https://api.example.com/v1/%2e%2e/admin', 'https://api.example.com/admin'],
		['//evil.example/v1', 'https://evil.example/v1'],
	])('refuses %s: it is outside the Base URL', (link, read) => {
		expect(() => resolveNextLink(base, link)).toThrow(
			`Refusing to send the API key to "${read}": it is outside the Base URL https://api.example.com/v1`,
		);
	});

	// The same segment rule as for the Endpoint field, applied to the path as it goes on the wire.
	it.each([
		['https://api.example.com/v1/..%2F..%2Fadmin', '..%2F..%2Fadmin'],
		['/v1/accounts/..%3b/..%3b/admin', '..%3b'],
		['https://api.example.com/v1/a%00b', 'a%00b'],
		['/v1/..+/admin', '..+'],
		...'%252e%252e ..; ..%20 ..%3F %EF%BC%8E%EF%BC%8E'
			.split(' ')
			.map((segment) => [`https://api.example.com/v1/${segment}/admin`, segment]),
	])('refuses the next link %s', (link, segment) => {
		expect(() => resolveNextLink(base, link)).toThrow(
			`The API's next-page link must stay below the Base URL: segment "${segment}" is not allowed`,
		);
	});
});
