/**
 * The spellings of a secret (nodes/shared/secretSpellings.ts), which both nodes keep out of what they show: the
 * characters that have more than one spelling, and the patterns kept for the process (shared, bounded, by hash). Then
 * what the Tenant API node does with them (nodes/TenantApi/transport/secretRedaction.ts): every spelling of the Secret
 * Key in an answer, its excerpt or an error becomes `[redacted]`, the text around it kept; parsed answers are walked
 * only where `\u` escapes could spell the key out. Generated spellings are the trigger's property campaign's
 * (deliveryProperties.test.ts).
 */
import * as lru from '../../nodes/shared/lru';
import { holdsSpelling, secretSpellings } from '../../nodes/shared/secretSpellings';
import { decodeJsonBody } from '../../nodes/TenantApi/transport/responseBody';
import {
	keySpellings,
	REDACTED,
	redactParsed,
	redactText,
} from '../../nodes/TenantApi/transport/secretRedaction';

/** The patterns the process keeps at most. */
const MAX_BUILT_SPELLINGS = 64;

const holds = (secret: string, text: string) => holdsSpelling(secretSpellings([secret]), text);

describe('spellings', () => {
	it.each([
		['%', 'a%25b%c', ['a%25b%c', 'a%2525b%25c', 'a%252525b%2525c']],
		['\\', 'a\\b"c', ['a\\b"c', 'a\\\\b\\"c', 'a%5C%5Cb%5C%22c', 'a%5Cb%22c', 'a%255Cb%2522c']],
		['a space', 'pass phrase 1', ['pass+phrase+1', 'pass%20phrase%201', 'pass%2Bphrase%2b1']],
		['non-ASCII', 'clé-é1', ['cl%C3%A9-%c3%a91', 'cl%25C3%25A9-%25C3%25A91', 'CLÉ-É1']],
	])('a secret with %s, written plainly, escaped and percent-encoded', (_what, secret, texts) => {
		for (const text of texts) expect([text, holds(secret, `<${text}>`)]).toEqual([text, true]);
	});

	it('needs the whole secret', () => {
		expect(holds('a%25b%c', 'a%25b%')).toBe(false);
		expect(holds('Cur+Key/=1', 'Cur+Key/=2')).toBe(false);
		expect(holds('Cur+Key/=1', 'Cur-Key/=1')).toBe(false);
	});

	it('a secret that is not well-formed text still has its spellings', () => {
		expect(holds('ab\ud800cd', 'ab\ud800cd')).toBe(true);
		expect(holds('ab\ud800cd', 'ab%EF%BF%BDcd')).toBe(true);
	});

	it('nothing to find without a secret', () => {
		expect(secretSpellings([])).toBeUndefined();
		expect(secretSpellings([''])).toBeUndefined();
		expect(holdsSpelling(undefined, 'anything')).toBe(false);
	});
});

describe('the patterns kept for the process', () => {
	it('one pattern per set of secrets, shared by every execution, left as it was found', () => {
		const first = secretSpellings(['Cur+Key/=1', 'Prev+Key/=2']);
		expect(secretSpellings(['Cur+Key/=1', 'Prev+Key/=2'])).toBe(first);
		expect(secretSpellings(['Prev+Key/=2', 'Cur+Key/=1'])).not.toBe(first);
		expect('x Cur+Key/=1 y'.replace(first as RegExp, '[r]')).toBe('x [r] y');
		expect(holdsSpelling(first, 'Cur%2BKey%2F%3D1')).toBe(true);
		expect(holdsSpelling(first, 'Cur%2BKey%2F%3D1')).toBe(true);
		expect(first?.lastIndex).toBe(0);
	});

	it(`keyed by a hash, never by a secret; at most ${MAX_BUILT_SPELLINGS}, the least recently used dropped first`, () => {
		const keys = jest.spyOn(lru, 'lruEntry');
		const dropped = secretSpellings(['dropped-Secret-1']);
		const kept = secretSpellings(['kept-Secret-1']);
		for (let i = 0; i < MAX_BUILT_SPELLINGS - 1; i++) {
			secretSpellings([`secret-${i}`]);
			expect(secretSpellings(['kept-Secret-1'])).toBe(kept);
		}
		// 64 held: the newest 63 and the one used again; the first one went.
		expect(secretSpellings([`secret-0`])).toBe(secretSpellings([`secret-0`]));
		expect(secretSpellings(['dropped-Secret-1'])).not.toBe(dropped);
		expect(keys.mock.calls.length).toBeGreaterThan(MAX_BUILT_SPELLINGS);
		expect(keys.mock.calls.map(([, key]) => key)).toEqual(
			keys.mock.calls.map(() => expect.stringMatching(/^[0-9a-f]{64}$/)),
		);
		expect(keys.mock.calls.every(([, , , max]) => max === MAX_BUILT_SPELLINGS)).toBe(true);
		keys.mockRestore();
	});
});

const SECRET = 'sk_live/4eC39"HqLy+jW=';

describe('keySpellings', () => {
	it('is none for a missing or too short secret (nothing to find)', () => {
		expect(keySpellings(undefined)).toBeUndefined();
		expect(keySpellings('abc')).toBeUndefined();
		expect(redactText('abc', keySpellings('abc'))).toBe('abc');
	});
});

describe('redaction', () => {
	it('replaces every form in text', () => {
		const text = `plain ${SECRET} json ${JSON.stringify(SECRET)} url ?key=${encodeURIComponent(SECRET)}`;
		expect(redactText(text, keySpellings(SECRET))).toBe(
			`plain ${REDACTED} json "${REDACTED}" url ?key=${REDACTED}`,
		);
		expect(redactText('key sk_abc123 echoed sk_abc123', keySpellings('sk_abc123'))).toBe(
			`key ${REDACTED} echoed ${REDACTED}`,
		);
	});

	it('walks parsed values and keys in place, at any depth, without touching prototypes', () => {
		const forms = keySpellings('sk_test_sandbox');
		let deep: Record<string, unknown> = { leaf: 'sk_test_sandbox' };
		for (let i = 0; i < 20_000; i++) deep = { next: deep };
		const value = JSON.parse(
			'{"__proto__":"sk_test_sandbox","list":["x sk_test_sandbox"],"sk_test_sandbox":1}',
		);
		redactParsed(value, forms);
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(JSON.stringify(value)).toBe(
			`{"__proto__":"${REDACTED}","list":["x ${REDACTED}"],"${REDACTED}":1}`,
		);
		redactParsed(deep, forms);
		let leaf: Record<string, unknown> = deep;
		while (leaf.next) leaf = leaf.next as Record<string, unknown>;
		expect(leaf.leaf).toBe(REDACTED);
		expect(redactParsed('sk_test_sandbox!', forms)).toBe(`${REDACTED}!`);
	});
});

describe('decodeJsonBody keeps the secret out of parsed answers', () => {
	const forms = keySpellings(SECRET);
	const decode = (text: string) => decodeJsonBody(Buffer.from(text), 'application/json', forms);

	it.each([
		['JSON-escaped, as any JSON encoder writes it', JSON.stringify({ key: SECRET })],
		['with escaped slashes', JSON.stringify({ key: SECRET }).replace(/\//g, '\\/')],
		[
			'URL-encoded inside a link',
			JSON.stringify({ next: `https://api/v1/x?key=${encodeURIComponent(SECRET)}` }),
		],
		[
			'spelled out with \\u escapes',
			`{"key":"${[...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
		],
		['as an object key', JSON.stringify({ [SECRET]: true })],
	])('%s', (_name, text) => {
		const decoded = decode(text);
		expect(decoded.ok).toBe(true);
		expect(JSON.stringify(decoded)).not.toContain('4eC39');
		expect(JSON.stringify(decoded)).toContain(REDACTED);
	});

	it('a secret that straddles JSON syntax still yields the parsed answer, redacted', () => {
		const straddling = keySpellings('ab","c');
		const decoded = decodeJsonBody(Buffer.from('{"x":"ab","c":"d"}'), undefined, straddling);
		expect(decoded).toEqual({ ok: true, value: { x: 'ab', c: 'd' } });
		const inside = decodeJsonBody(
			Buffer.from(JSON.stringify({ x: 'ab","c' })),
			undefined,
			straddling,
		);
		expect(inside).toEqual({ ok: true, value: { x: REDACTED } });
	});

	it('leaves answers without the secret as they are', () => {
		expect(decode('{"id":"acc_1","note":"caf\\u00e9"}')).toEqual({
			ok: true,
			value: { id: 'acc_1', note: 'café' },
		});
	});

	it('redacts the excerpt of a non-JSON answer', () => {
		expect(decode(`<html>key ${SECRET}</html>`)).toEqual({
			ok: false,
			reason: `The response is not JSON (application/json): "key ${REDACTED}"`,
		});
	});
});
