/**
 * The fault action `hold` as the queue-mode suite uses it to kill a worker while it provably waits on POSTs
 * (test/queue/queue-mode.test.ts): a POST parked before it is processed, committed on demand, and what
 * releasing it does once its client is gone (discarded, or its record kept).
 */
import type { HeldRequest } from '../../sandbox/server';
import { until } from '../harness/until';
import { post, useSandbox } from './helpers';

const sb = useSandbox();

/** Resolves once `n` requests are held (the test sent them; the sandbox parks them as they arrive). */
async function heldCount(n: number): Promise<HeldRequest[]> {
	await until(() => sb.held().length >= n);
	return sb.held();
}

/** A POST the test can cut (aborting it closes its connection) while the sandbox holds it. */
function cuttablePost(key: string, body: unknown) {
	const abort = new AbortController();
	const answered = post(sb, '/transfers', key, body, abort.signal);
	answered.catch(() => undefined);
	return { answered, cut: () => abort.abort() };
}

/** The Idempotency-Keys of the records, in the order they were created. */
const recordKeys = () => sb.records().map((r) => r.idempotency_key);

/** Resolves once the sandbox has seen the client of held request `id` go. */
async function clientGone(id: number) {
	await until(() => sb.held().find((h) => h.id === id)?.clientGone === true);
}

describe('fault action hold', () => {
	it('{hold: true} parks a POST before the service processes it; release processes and answers it', async () => {
		sb.setFaults([{ method: 'POST', path: '/v1/transfers', action: { hold: true } }]);
		const pending = post(sb, '/transfers', 'h1', { amount: 1 });
		const [held] = await heldCount(1);
		expect(held).toMatchObject({
			method: 'POST',
			path: '/v1/transfers',
			idempotencyKey: 'h1',
			body: { amount: 1 },
			processed: false,
			recordId: null,
			clientGone: false,
		});
		expect(sb.stats().records).toBe(0);

		expect(sb.releaseHeld()).toEqual([{ id: held.id, outcome: 'answered' }]);
		const res = await pending;
		expect(res.status).toBe(201);
		expect(await res.json()).toMatchObject({ id: 'rec_1', amount: 1, idempotency_key: 'h1' });
		expect(sb.held()).toEqual([]);
		expect(sb.stats()).toMatchObject({ records: 1, faultsInjected: 1 });
	});

	it('commitHeld processes a parked request now and keeps holding its answer', async () => {
		sb.setFaults([{ method: 'POST', action: { hold: true } }]);
		const a = post(sb, '/transfers', 'ka', { n: 1 });
		const b = post(sb, '/transfers', 'kb', { n: 2 });
		const held = await heldCount(2);
		const ofA = held.find((h) => h.idempotencyKey === 'ka') as HeldRequest;
		expect(sb.commitHeld([ofA.id])).toEqual([ofA.id]);
		expect(sb.commitHeld([ofA.id])).toEqual([]); // already processed
		expect(recordKeys()).toEqual(['ka']);
		expect(sb.held().map((h) => [h.idempotencyKey, h.processed])).toEqual([
			['ka', true],
			['kb', false],
		]);
		sb.releaseHeld();
		expect([(await a).status, (await b).status]).toEqual([201, 201]);
		expect(recordKeys().sort()).toEqual(['ka', 'kb']);
	});

	it('a client that goes away: an unprocessed request is discarded (no record), a committed one keeps its record', async () => {
		sb.setFaults([{ method: 'POST', action: { hold: true } }]);
		const never = cuttablePost('gone-1', { n: 1 });
		const committed = cuttablePost('gone-2', { n: 2 });
		const held = await heldCount(2);
		const [first, second] = ['gone-1', 'gone-2'].map(
			(k) => held.find((h) => h.idempotencyKey === k) as HeldRequest,
		);
		sb.commitHeld([second.id]);
		never.cut();
		committed.cut();
		await clientGone(first.id);
		await clientGone(second.id);
		await expect(never.answered).rejects.toThrow();
		expect(sb.releaseHeld()).toEqual([
			{ id: first.id, outcome: 'discarded' },
			{ id: second.id, outcome: 'clientGone' },
		]);
		expect(recordKeys()).toEqual(['gone-2']);
		// The same request again (a redelivery with the same key): the committed one is a replay.
		sb.setFaults(null);
		const again = await post(sb, '/transfers', 'gone-2', { n: 2 });
		expect(again.headers.get('idempotent-replayed')).toBe('true');
		expect(
			(await post(sb, '/transfers', 'gone-1', { n: 1 })).headers.get('idempotent-replayed'),
		).toBeNull();
	});
});
