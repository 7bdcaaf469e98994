import { decodeJsonBody } from '../../nodes/TenantApi/transport/responseBody';
/**
 * The Tenant API node's redaction (nodes/TenantApi/transport/secretRedaction.ts): every spelling of the Secret Key
 * (nodes/shared/secretSpellings.ts) in an answer, its excerpt or an error becomes `[redacted]`, the text around it
 * kept; parsed answers are walked only where `\u` escapes could spell the key out.
 */
import {
	keySpellings,
	REDACTED,
	redactParsed,
	redactText,
} from '../../nodes/TenantApi/transport/secretRedaction';

const SECRET = 'sk_live/4eC39"HqLy+jW=';

/**
 * The spellings themselves (percent-encoded once or twice in any style, `+` for a space, JSON escapes, base64 at any
 * offset, any letter case) are secretSpellings', proven over generated spellings by the property campaign
 * (test/property/transport.ts) and secretSpellings.test.ts; here what the action node does with them.
 */
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
