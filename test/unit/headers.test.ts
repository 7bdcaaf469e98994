/**
 * Request headers and query parameters (nodes/TenantApiTrigger/headers.ts): lookup, the media type, and what Include
 * Headers / Include Query Parameters copy into the output: never a credential header, and never a header or
 * parameter whose name or value holds a secret of the credential, in any spelling a proxy, client or sender writes
 * it in, in any letter case, at any depth, at either URL.
 */
import { createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import {
	headerMap,
	mediaType,
	unsignedHeaders,
	unsignedQuery,
} from '../../nodes/TenantApiTrigger/headers';
import { receiveDelivery } from '../../nodes/TenantApiTrigger/receive';
import {
	headerNames,
	secretsOf,
	settingsFromParameters,
} from '../../nodes/TenantApiTrigger/settings';
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

/**
 * The secrets of a credential with the characters that travel in other spellings: `+` (a space in a query), `/`
 * and `=` (percent-encoded, `\/` in JSON), and a base64 secret with `/` and `+` of its own.
 */
const SPELLED = {
	current: 'Cur+Key/=1',
	previous: 'whsec_a+b/Prev=Z9',
	test: 'T3st/Url+Key==',
};

const base64 = (text: string) => Buffer.from(text).toString('base64');
const percentOnce = (text: string) => encodeURIComponent(text);
const percentTwice = (text: string) => encodeURIComponent(encodeURIComponent(text));
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** Headers a proxy, client or sender may add, each holding `secret` in one spelling. */
function spelledHeaders(secret: string): Record<string, string> {
	return {
		'x-forwarded-uri': `/webhook/5b0c7e1a/webhook?token=${percentOnce(secret)}`,
		'x-original-url': `/webhook/5b0c7e1a/webhook?token=${percentOnce(lowerHex(percentOnce(secret)))}`,
		referer: `https://app.example.com/return?to=${percentTwice(secret)}`,
		'x-path-style': `/hooks/${secret.replace(/[+=]/g, (c) => percentOnce(c))}`,
		// Basic credentials: the secret at each byte offset of the encoded text (3, 4 and 5 bytes before it).
		'x-upstream-auth': `Basic ${base64(`ab:${secret}`)}`,
		'x-forwarded-authorization': `Basic ${base64(`abc:${secret}`)}`,
		'x-original-authorization': `Basic ${base64(`user:${secret}`)}`,
		'x-token-url': Buffer.from(`user:${secret}`).toString('base64url'),
		'x-debug': JSON.stringify({ key: secret }).replace(/\//g, '\\/'),
		'x-echo': JSON.stringify({ key: secret }),
		'x-query-as-read': secret.replace(/\+/g, ' '),
		'x-shout': secret.toUpperCase(),
	};
}

/** The query as n8n's parser reads it (a `+` as a space, percent-decoded once), each holding `secret`. */
function spelledQuery(secret: string): IDataObject {
	const parsed = new URLSearchParams(
		`raw=${secret}&once=${percentOnce(secret)}&twice=${percentTwice(secret)}&` +
			`${percentOnce(`k_${secret}`)}=1&basic=${percentOnce(`Basic ${base64(`user:${secret}`)}`)}`,
	);
	return Object.fromEntries(parsed);
}

describe('every spelling of every secret of the credential is left out', () => {
	const secrets = Object.values(SPELLED);

	it.each(Object.entries(SPELLED))('the %s secret, in headers', (_name, secret) => {
		const headers = { ...spelledHeaders(secret), 'x-keep': 'kept' };
		expect(unsignedHeaders(headers, [], secrets)).toEqual({ 'x-keep': 'kept' });
	});

	it.each(Object.entries(SPELLED))('the %s secret, in the query', (_name, secret) => {
		const query = spelledQuery(secret);
		expect(query.raw).toBe(secret.replace(/\+/g, ' '));
		expect(unsignedQuery({ ...query, keep: '1' }, secrets)).toEqual({ keep: '1' });
	});

	it('text that holds no spelling stays', () => {
		const headers = {
			referer: 'https://app.example.com/?to=Cur%2BKey',
			'x-basic': `Basic ${base64('user:Cur+Key/=2')}`,
			'x-note': 'Cur Key 1',
		};
		expect(unsignedHeaders(headers, [], secrets)).toEqual(headers);
	});

	/** A delivery signed with HMAC-SHA256 of the body, as the node builds its settings at each URL. */
	it.each([
		['the Production URL', false, SPELLED.current],
		['the Test URL', true, SPELLED.test],
	])('at %s, through receiveDelivery', (_url, testUrl, signer) => {
		const credential = {
			signingSecret: SPELLED.current,
			previousSigningSecret: SPELLED.previous,
			testSigningSecret: SPELLED.test,
		};
		const settings = settingsFromParameters(
			'hmacSha256',
			parameterReader({ options: { includeHeaders: true, includeQuery: true } }),
			secretsOf(credential, testUrl),
		);
		const body = '{"event":"transfers.created"}';
		/** Every spelling of every secret, the names told apart by the secret's place. */
		const spelled = (spelling: (secret: string) => object, join: string) =>
			secrets.flatMap((secret, i) =>
				Object.entries(spelling(secret)).map(([name, value]) => [`${name}${join}${i}`, value]),
			);
		const headers = Object.fromEntries([
			['content-type', 'application/json'],
			['x-signature', createHmac('sha256', signer).update(body).digest('hex')],
			['x-keep', 'kept'],
			...spelled(spelledHeaders, '-'),
		]);
		const query = Object.fromEntries([['keep', '1'], ...spelled(spelledQuery, '')]);
		const decision = receiveDelivery(settings, {
			rawBody: Buffer.from(body),
			headers,
			query,
			nowSeconds: Math.floor(Date.now() / 1000),
		});
		expect(decision.action).toBe('start');
		const { webhookDelivery } = (decision as { item: IDataObject }).item;
		expect(webhookDelivery).toMatchObject({
			unsignedHeaders: {
				'content-type': 'application/json',
				'x-signature': headers['x-signature'],
				'x-keep': 'kept',
			},
			unsignedQuery: { keep: '1' },
		});
		expect(
			Object.keys((webhookDelivery as IDataObject).unsignedHeaders as IDataObject),
		).toHaveLength(3);
	});
});
