/**
 * The spellings of a secret (nodes/shared/secretSpellings.ts), which both nodes keep out of what they show: the
 * characters that have more than one spelling, and the patterns kept for the process (shared, bounded, by hash).
 */
import * as lru from '../../nodes/shared/lru';
import { holdsSpelling, secretSpellings } from '../../nodes/shared/secretSpellings';

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
