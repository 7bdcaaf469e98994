/**
 * Request headers and query parameters (nodes/TenantApiTrigger/headers.ts): lookup, the media type, and what Include
 * Headers / Include Query Parameters copy into the output: never a credential header, and never a header or
 * parameter whose name or value holds a secret of the credential, in any letter case, at any depth.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	headerNames,
	headerValue,
	mediaType,
	presentHeader,
	unsignedHeaders,
	unsignedQuery,
	usableSecrets,
} from '../../nodes/TenantApiTrigger/headers';

const CURRENT = 'whsec_Cur7RENT';
const PREVIOUS = 'Prev_Sig_4a';
const TEST = 'tEsT_sEcReT_9';
const SECRETS = [CURRENT, PREVIOUS, TEST];

describe('lookup', () => {
	it('names separated by commas, blanks dropped, lower case', () => {
		expect(headerNames(' X-Signature, ,x-Alt ')).toEqual(['x-signature', 'x-alt']);
	});

	it('case-insensitive; the first name present wins; repeated headers joined as Node joins them', () => {
		const headers = { 'x-alt': ['a', 'b'], 'X-Signature': 'sig' };
		expect(headerValue(headers, 'x-missing, X-ALT, x-signature')).toBe('a, b');
		expect(headerValue(headers, 'x-signature')).toBe('sig');
		expect(headerValue(headers, 'x-missing')).toBeUndefined();
		expect(presentHeader(headers, 'x-missing, x-signature')).toBe('x-signature');
		expect(presentHeader(headers, 'x-missing, x-other')).toBe('x-missing');
	});

	it('the media type without parameters, in lower case', () => {
		expect(mediaType({ 'content-type': 'Application/JSON; charset=utf-8' })).toBe(
			'application/json',
		);
		expect(mediaType({})).toBe('');
	});

	it('usable secrets: text, trimmed, not blank', () => {
		expect(usableSecrets([' a ', '', '  ', undefined, 42, null, 'b'])).toEqual(['a', 'b']);
	});
});

describe('unsignedHeaders', () => {
	it('leaves out Authorization, Proxy-Authorization, Cookie and the header setting (any case)', () => {
		const headers = {
			authorization: 'Bearer x',
			'proxy-authorization': 'Basic y',
			cookie: 'session=z',
			'x-webhook-secret': 'not a secret of the credential',
			'x-token': 'also left out',
			'x-request-id': 'r1',
		};
		expect(unsignedHeaders(headers, 'X-Webhook-Secret, x-TOKEN', SECRETS)).toEqual({
			'x-request-id': 'r1',
		});
	});

	it.each(SECRETS)(
		'leaves out any header whose name or value holds %s, in any letter case',
		(secret) => {
			const headers = {
				[`x-auth-${secret.toLowerCase()}`]: '1',
				'x-note': `token ${secret.toUpperCase()} end`,
				'x-list': ['fine', `${secret}`],
				'x-request-id': 'r1',
			};
			expect(unsignedHeaders(headers, '', SECRETS)).toEqual({ 'x-request-id': 'r1' });
		},
	);

	it('blank secrets do not leave out every header', () => {
		expect(unsignedHeaders({ 'x-a': '1' }, '', ['', '  ', undefined])).toEqual({ 'x-a': '1' });
	});

	it('a header named __proto__ stays an own key', () => {
		const out = unsignedHeaders(
			JSON.parse('{"__proto__":"x","a":"1"}') as IDataObject as never,
			'',
			[],
		);
		expect(Object.keys(out)).toEqual(['__proto__', 'a']);
		expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
	});
});

describe('unsignedQuery', () => {
	it('leaves out any parameter whose name or value holds a secret, in any case, at any depth', () => {
		const query = {
			keep: '1',
			list: ['a', 'b'],
			nested: { deep: { ok: 'x' } },
			[`k_${PREVIOUS.toUpperCase()}`]: '1',
			token: `x${TEST.toLowerCase()}`,
			many: ['a', CURRENT],
			filter: { where: { [`name_${CURRENT}`]: '1' } },
			deeper: { a: [{ b: PREVIOUS.toLowerCase() }] },
		} as IDataObject;
		expect(unsignedQuery(query, SECRETS)).toEqual({
			keep: '1',
			list: ['a', 'b'],
			nested: { deep: { ok: 'x' } },
		});
	});
});
