/**
 * The faults other suites inject and rely on: what the fault soak (test/engine/soak.test.ts) and the queue-mode
 * suite count on (per-key caps, seeded random faults with Retry-After, an answer lost after the commit). The fault
 * actions the engine suites use for one answer each (a status, raw bytes, an HTML page, a delay, a drip, a bomb, a
 * hold, a lost answer whose record stays and is replayed: badInputAnswers.test.ts) are proven by those suites' own
 * assertions.
 */
import type { FaultRule } from '../../sandbox/server';
import { post, useSandbox } from './helpers';

const sb = useSandbox();

it('maxPerKey: at most N faults per Idempotency-Key, so a client with N + 1 attempts always gets through', async () => {
	sb.setFaults([{ method: 'POST', maxPerKey: 2, action: { status: 500 } }]);
	const statuses = [];
	for (let i = 0; i < 4; i++)
		statuses.push((await post(sb, '/transfers', 'capped', { n: 1 })).status);
	expect(statuses).toEqual([500, 500, 201, 201]);
	expect((await post(sb, '/transfers', 'other-key', { n: 2 })).status).toBe(500);
	expect(sb.stats()).toMatchObject({ records: 1, replays: 1, faultsInjected: 3 });

	// With random faults too: only injected faults count against the cap.
	sb.reset();
	sb.setFaults([{ random: { seed: 3, p500: 0.9 }, maxPerKey: 1 }]);
	for (let k = 0; k < 20; k++) {
		const first = (await post(sb, '/transfers', `r-${k}`, { k })).status;
		const second = (await post(sb, '/transfers', `r-${k}`, { k })).status;
		expect([first, second]).toEqual(first === 201 ? [201, 201] : [500, 201]);
	}
	expect(sb.stats().records).toBe(20);
	expect(() => sb.setFaults([{ maxPerKey: -1, action: { status: 500 } }])).toThrow(
		'rule 0: maxPerKey must be a number >= 0',
	);
});

it('random faults: the same seed gives the same outcomes, every kind appears, a 429 says Retry-After, a drop keeps its record', async () => {
	const random = {
		seed: 1234,
		p500: 0.2,
		pDropAfterCommit: 0.15,
		p429: 0.15,
		retryAfterSeconds: 2,
	};
	const outcomes = async (rules: FaultRule[]) => {
		sb.reset();
		sb.setFaults(rules);
		const out: string[] = [];
		for (let i = 0; i < 60; i++) {
			const answer = await post(sb, '/transfers', `rk-${i}`, { i }).catch(() => undefined);
			out.push(answer ? `${answer.status} ${answer.headers.get('retry-after')}` : 'drop');
		}
		return out;
	};
	const first = await outcomes([{ random }]);
	const { records, faultsInjected } = sb.stats();
	expect(await outcomes([{ random }])).toEqual(first);
	expect(new Set(first)).toEqual(new Set(['201 null', '500 null', '429 2', 'drop']));
	expect(faultsInjected).toBe(first.filter((s) => !s.startsWith('201')).length);
	expect(records).toBe(first.filter((s) => s === '201 null' || s === 'drop').length);
	expect(await outcomes([{ random: { ...random, seed: 7 } }])).not.toEqual(first);
});
