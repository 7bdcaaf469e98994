/**
 * Request headers and query parameters (nodes/TenantApiTrigger/headers.ts): lookup, the media type, and what Include
 * Headers / Include Query Parameters copy into the output: never a credential header, and never a header or
 * parameter whose name or value holds a secret of the credential. That no secret reaches the item in any spelling a
 * proxy, client or sender writes it in (every place, every spelling, at either URL) is deliveryProperties.test.ts's.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	headerMap,
	mediaType,
	unsignedHeaders,
	unsignedQuery,
} from '../../nodes/TenantApiTrigger/headers';
import { headerNames, settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import { parameterReader } from '../harness/verifier';

const CURRENT = 'whsec_Cur7RENT';
const PREVIOUS = 'Prev_Sig_4a';
const TEST = 'tEsT_sEcReT_9';
const SECRETS = [CURRENT, PREVIOUS, TEST];

describe('lookup', () => {
	it('by lower-case name, the names asked for (all without); the first of a name wins; repeated headers joined as Node joins them', () => {
		const headers = {
			'x-alt': ['a', 'b'],
			'X-Signature': 'sig',
			'x-signature': 'late',
			'x-u': undefined,
		};
		expect([...headerMap(headers, ['x-signature', 'x-missing'])]).toEqual([['x-signature', 'sig']]);
		expect([...headerMap(headers)]).toEqual([
			['x-alt', 'a, b'],
			['x-signature', 'sig'],
		]);
	});

	it('the media type without parameters, in lower case', () => {
		expect(mediaType({ 'content-type': 'Application/JSON; charset=utf-8' })).toBe(
			'application/json',
		);
		expect(mediaType({})).toBe('');
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
		expect(unsignedHeaders(headers, headerNames('X-Webhook-Secret, x-TOKEN'), SECRETS)).toEqual({
			'x-request-id': 'r1',
		});
	});

	it("the credential's secrets as the settings hold them: text, trimmed, not blank; blank ones leave out no header", () => {
		const held = (all: unknown[]) =>
			settingsFromParameters('hmacSha256', parameterReader({}), { accepted: [], all })
				.credentialSecrets ?? [];
		expect(held([' a ', '', '  ', undefined, 42, null, 'b'])).toEqual(['a', 'b']);
		expect(unsignedHeaders({ 'x-a': '1' }, [], held(['', '  ', undefined]))).toEqual({
			'x-a': '1',
		});
	});

	it('a header named __proto__ stays an own key', () => {
		const out = unsignedHeaders(
			JSON.parse('{"__proto__":"x","a":"1"}') as IDataObject as never,
			[],
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
