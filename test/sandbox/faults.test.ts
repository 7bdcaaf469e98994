/**
 * The faults other suites inject and rely on: what the fault soak (test/engine/soak.test.ts) and the queue-mode
 * suite count on (an answer lost after the commit, per-key caps, seeded random faults with Retry-After). The
 * fault actions the engine suites use for one answer each (a status, raw bytes, an HTML page, a delay) are
 * proven by those suites' own assertions.
 */
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { api, post } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('fault actions', () => {
	it('dropAfterCommit: exactly one record; the retry with the same key gets the replay', async () => {
		sb.setFaults([{ method: 'POST', firstAttemptPerKey: true, action: { dropAfterCommit: true } }]);
		await expect(post(sb, '/transfers', 'k3', { amount: 3 })).rejects.toThrow();
		expect(sb.stats().records).toBe(1);
		const retry = await post(sb, '/transfers', 'k3', { amount: 3 });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBe('true');
		expect((await retry.json()).id).toBe('rec_1');
		expect(sb.records()).toHaveLength(1);
		// firstAttemptPerKey: a new key is dropped again
		await expect(post(sb, '/transfers', 'k4', { amount: 4 })).rejects.toThrow();
		expect(sb.stats()).toMatchObject({ records: 2, replays: 1, faultsInjected: 2 });
	});

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
		sb.setFaults({ random: { seed: 3, p500: 0.9 }, maxPerKey: 1 } as never);
		for (let k = 0; k < 20; k++) {
			const first = (await post(sb, '/transfers', `r-${k}`, { k })).status;
			const second = (await post(sb, '/transfers', `r-${k}`, { k })).status;
			expect([first, second]).toEqual(first === 201 ? [201, 201] : [500, 201]);
		}
		expect(sb.stats().records).toBe(20);
		expect(() => sb.setFaults([{ maxPerKey: -1, action: { status: 500 } }])).toThrow(
			/maxPerKey must be a number >= 0/,
		);
	});
});

async function statusesWith(rules: unknown, n: number): Promise<string[]> {
	sb.reset();
	sb.setFaults(rules as never);
	const out: string[] = [];
	for (let i = 0; i < n; i++) {
		try {
			const res = await post(sb, '/transfers', `rk-${i}`, { i });
			out.push(String(res.status));
			await res.arrayBuffer();
		} catch {
			out.push('drop');
		}
	}
	return out;
}

describe('seeded randomness', () => {
	it('probability with a seed is deterministic and not all-or-nothing', async () => {
		const rules = [{ method: 'POST', probability: 0.5, seed: 42, action: { status: 500 } }];
		const a = await statusesWith(rules, 30);
		const b = await statusesWith(rules, 30);
		expect(a).toEqual(b);
		const failures = a.filter((s) => s === '500').length;
		expect(failures).toBeGreaterThan(5);
		expect(failures).toBeLessThan(25);
		const c = await statusesWith(
			[{ method: 'POST', probability: 0.5, seed: 7, action: { status: 500 } }],
			30,
		);
		expect(c).not.toEqual(a);
	});

	it('random mode: same seed -> same sequence of outcomes, all kinds appear, stats count them', async () => {
		const random = {
			seed: 1234,
			p500: 0.2,
			pDropAfterCommit: 0.15,
			p429: 0.15,
			retryAfterSeconds: 2,
			pSlow: 0.1,
			slowMs: 5,
		};
		const a = await statusesWith({ random }, 60);
		const statsA = sb.stats();
		const b = await statusesWith([{ random }], 60);
		expect(b).toEqual(a);
		expect(new Set(a)).toEqual(new Set(['201', '500', '429', 'drop']));
		const injected = a.filter((s) => s !== '201').length;
		expect(statsA.faultsInjected).toBeGreaterThanOrEqual(injected);
		// dropped-after-commit requests still created their record
		expect(statsA.records).toBe(a.filter((s) => s === '201' || s === 'drop').length);
	});

	it('random mode sends Retry-After on 429s', async () => {
		sb.setFaults({ random: { seed: 1, p429: 1, retryAfterSeconds: 3 } } as never);
		const res = await api(sb, '/accounts');
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBe('3');
	});
});
