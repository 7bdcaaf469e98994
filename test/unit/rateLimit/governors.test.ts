/** The process-wide map of governors: one per origin + key, bounded, never keyed by the secret. */
import * as governors from '../../../nodes/TenantApi/transport/rateLimit/governors';

const { governorFor, governorKey, governorKeys, MAX_GOVERNORS } = governors;

const ORIGIN = 'https://api.example.com';

describe('rate governors of the process', () => {
	it('one per origin and key: the same key at the same origin gets the same governor, another key or origin another', () => {
		const governor = governorFor(ORIGIN, 'sk_live_one');
		expect(governorFor(ORIGIN, 'sk_live_one')).toBe(governor);
		expect(governorFor(ORIGIN, 'sk_live_two')).not.toBe(governor);
		expect(governorFor('https://sandbox.example.com', 'sk_live_one')).not.toBe(governor);
	});

	it('the map is keyed by a SHA-256 of origin and key: no key of the map holds the secret or a part of it', () => {
		const apiKey = ['sk', 'live', '51HzQXJ2eZvKYlo2C0123456789abcdef'].join('_');
		governorFor(ORIGIN, apiKey);
		const keys = governorKeys();
		expect(keys).toContain(governorKey(ORIGIN, apiKey));
		for (const key of keys) {
			expect(key).toMatch(/^[0-9a-f]{64}$/);
			expect(key).not.toContain(apiKey);
			expect(key).not.toContain(apiKey.slice(8, 20));
		}
		// Origin and key are separated: moving characters from one to the other gives another governor.
		expect(governorKey('https://a.example', 'bkey')).not.toBe(
			governorKey('https://a.exampleb', 'key'),
		);
	});

	it(`holds at most ${MAX_GOVERNORS}, dropping the least recently used first`, () => {
		const kept = governorFor(ORIGIN, 'sk_kept');
		const dropped = governorFor(ORIGIN, 'sk_dropped');
		for (let i = 0; i < MAX_GOVERNORS - 2; i++) {
			governorFor(ORIGIN, `sk_filler_${i}`);
			// Used again now and then: the kept key stays among the most recent.
			if (i % 100 === 0) governorFor(ORIGIN, 'sk_kept');
		}
		expect(governorKeys()).toHaveLength(MAX_GOVERNORS);
		governorFor(ORIGIN, 'sk_one_more');
		expect(governorKeys()).toHaveLength(MAX_GOVERNORS);
		expect(governorKeys()).not.toContain(governorKey(ORIGIN, 'sk_dropped'));
		expect(governorFor(ORIGIN, 'sk_kept')).toBe(kept);
		expect(governorFor(ORIGIN, 'sk_dropped')).not.toBe(dropped);
	});
});
