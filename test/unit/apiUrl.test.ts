import {
	parseBaseUrl,
	resolveEndpoint,
	resolveNextLink,
} from '../../nodes/TenantApi/transport/apiUrl';

describe('parseBaseUrl', () => {
	it.each([
		['https://api.example.com/v1', { origin: 'https://api.example.com', path: '/v1' }],
		['https://api.example.com/v1/', { origin: 'https://api.example.com', path: '/v1' }],
		[
			'  https://api.example.com:8443/tenant/v1//  ',
			{ origin: 'https://api.example.com:8443', path: '/tenant/v1' },
		],
		['http://localhost:4010/v1', { origin: 'http://localhost:4010', path: '/v1' }],
		['http://127.5.6.7/v1', { origin: 'http://127.5.6.7', path: '/v1' }],
		['http://[::1]:4010/v1', { origin: 'http://[::1]:4010', path: '/v1' }],
	])('accepts %s', (raw, expected) => {
		expect(parseBaseUrl(raw)).toEqual(expected);
	});

	it.each([
		['', /no Base URL/],
		[undefined, /no Base URL/],
		['not a url', /not a valid URL/],
		['http://api.example.com/v1', /must use https/],
		['http://localhost.evil.com/v1', /must use https/],
		['http://127.0.0.1.nip.io/v1', /must use https/],
		['ftp://api.example.com/v1', /must use https/],
		['https://user:secret@api.example.com/v1', /user name or password/],
		['https://api.example.com/v1?key=1', /query string/],
		['https://api.example.com/v1#x', /query string or fragment/],
	])('refuses %p', (raw, message) => {
		expect(() => parseBaseUrl(raw)).toThrow(message);
	});
});

describe('resolveEndpoint', () => {
	const base = parseBaseUrl('https://api.example.com/v1');

	it.each([
		['/transfers', 'https://api.example.com/v1/transfers'],
		['transfers', 'https://api.example.com/v1/transfers'],
		['//transfers'.slice(1), 'https://api.example.com/v1/transfers'],
		['/payouts/po_1/confirm', 'https://api.example.com/v1/payouts/po_1/confirm'],
		['/transfers?expand=fees', 'https://api.example.com/v1/transfers?expand=fees'],
		['/files/a%20b', 'https://api.example.com/v1/files/a%20b'],
		['/v1.2/things', 'https://api.example.com/v1/v1.2/things'],
	])('resolves %s below the base path', (endpoint, url) => {
		expect(resolveEndpoint(base, endpoint)).toBe(url);
	});

	it.each([
		'',
		'   ',
		'https://evil.example/v1/x',
		'HTTPS://evil.example',
		'//evil.example/v1',
		'\\\\evil.example\\x',
		'/\\evil.example',
		'/..',
		'/../accounts',
		'a/../../b',
		'/./x',
		'/%2e%2e/x',
		'/%2E%2e/x',
		'/.%2E/x',
		'/%252e%252e/x',
		'/a%2F..%2F..%2Fx',
		'/a%5c..',
		'/%zz',
		'/x#frag',
		'/x\ny',
		'/x\u007fy',
		'/x\u0085y',
		'/x%7Fy',
		'/x%C2%85y',
		'mailto:x@example.com',
		'/a b',
		'/..;/admin',
		'/%2e%2e;/admin',
		'/..%3b/admin',
		'/..%3B/admin',
		'/..%20/admin',
		'/..%09/admin',
		'/%20../admin',
		'/...;jsessionid=1/admin',
		'/..%C2%A0/admin',
		'/%2525252525252e%2525252525252e/admin',
	])('refuses %p', (endpoint) => {
		expect(() => resolveEndpoint(base, endpoint)).toThrow(/endpoint/i);
	});

	it('keeps path parameters and dotted names that do not climb', () => {
		expect(resolveEndpoint(base, '/files;v=2/a..b')).toBe(
			'https://api.example.com/v1/files;v=2/a..b',
		);
	});

	// Found by the property-based tests (test/unit/urlProperties.test.ts): dots a server reads after Unicode
	// NFKC normalisation, a decoded `?` or `#` it splits the path at, `+` it reads as a space.
	it.each([
		'/．．/admin',
		'/%EF%BC%8E%EF%BC%8E/admin',
		'/‥/admin',
		'/…/admin',
		'/.․/admin',
		'/％２ｅ％２ｅ/admin',
		'/..＼admin',
		'/..；/admin',
		'/..%3F/admin',
		'/..%23/admin',
		'/...%253f/admin',
		'/..+/admin',
		'/%2b%2e./admin',
	])('refuses %p, which a lenient server reads as ..', (endpoint) => {
		expect(() => resolveEndpoint(base, endpoint)).toThrow(
			/^The endpoint (must stay below the Base URL|contains an invalid)/,
		);
	});

	it('keeps + signs, encoded ? and # and compatibility characters in names that do not climb', () => {
		expect(resolveEndpoint(base, '/files/a+b/%3Fq/%23x/ﬁle')).toBe(
			'https://api.example.com/v1/files/a+b/%3Fq/%23x/ﬁle',
		);
	});
});

describe('resolveNextLink', () => {
	const base = parseBaseUrl('https://api.example.com/v1');
	it('accepts next-page links on the same API', () => {
		expect(resolveNextLink(base, 'https://api.example.com/v1/accounts?cursor=2')).toBe(
			'https://api.example.com/v1/accounts?cursor=2',
		);
		expect(resolveNextLink(base, '/v1/accounts?page=2')).toBe(
			'https://api.example.com/v1/accounts?page=2',
		);
	});
	it.each([
		'https://evil.example/v1/accounts',
		'http://api.example.com/v1/accounts',
		'https://api.example.com:444/v1/accounts',
		'https://api.example.com/v2/accounts',
		'https://api.example.com/v1evil/accounts',
		'https://api.example.com/v1/../admin',
		'https://api.example.com/v1/%2e%2e/admin',
		'//evil.example/v1',
	])('refuses %s', (url) => {
		expect(() => resolveNextLink(base, url)).toThrow(/outside the Base URL|not a valid URL/);
	});

	// The same segment rule as for the Endpoint field, applied to the path as it goes on the wire.
	it.each([
		'https://api.example.com/v1/..%2F..%2Fadmin',
		'https://api.example.com/v1/%252e%252e/admin',
		'https://api.example.com/v1/..;/admin',
		'/v1/accounts/..%3b/..%3b/admin',
		'https://api.example.com/v1/..%20/admin',
		'https://api.example.com/v1/a%00b',
		'https://api.example.com/v1/..%3F/admin',
		'https://api.example.com/v1/%EF%BC%8E%EF%BC%8E/admin',
		'/v1/..+/admin',
	])('refuses the next link %s', (url) => {
		expect(() => resolveNextLink(base, url)).toThrow(
			/^The API's next-page link must stay below the Base URL: segment ".*" is not allowed$/,
		);
	});
});
