import { describeProgress } from '../../nodes/TenantApi/actions/common/progressReport';
import type { ItemProgress } from '../../nodes/TenantApi/actions/common/progressReport';

const applied = (item: number): ItemProgress => ({ item, state: 'applied', key: `key-${item}` });
const notSent = (item: number): ItemProgress => ({ item, state: 'notSent' });

describe('describeProgress', () => {
	it('names the applied items with their keys (an answer applied but unreadable among them), the uncertain ones and those not sent', () => {
		const progress: ItemProgress[] = [
			applied(0),
			applied(1),
			applied(2),
			{ item: 3, state: 'failed', key: 'key-3', applied: 'no' },
			{ item: 4, state: 'failed', key: 'key-4', applied: 'yes' },
			{ item: 5, state: 'failed', key: 'key-5', applied: 'unknown' },
			...[6, 7, 8, 9].map(notSent),
		];
		const report = describeProgress(progress, 3);
		expect(report?.text).toBe(
			'Applied before the node stopped: items 0 (Idempotency-Key key-0), 1 (Idempotency-Key key-1), 2 (Idempotency-Key key-2), 4 (Idempotency-Key key-4). ' +
				'Item 5 (Idempotency-Key key-5) may have been applied. Items 6–9 were not sent. ' +
				'"Retry execution" (executions list) sends the same automatic Idempotency-Keys, and so does a redelivery of the Tenant API Trigger event that started the workflow: the applied items are replayed, not applied again. A new run (manual, or a new trigger) derives new keys: remove the applied items from its input first, or set Options → Idempotency Key to a business key so the API recognises them.',
		);
		expect(report?.context).toEqual({
			itemsApplied: [0, 1, 2, 4].map((item) => ({ item, idempotencyKey: `key-${item}` })),
			itemsMaybeApplied: [{ item: 5, idempotencyKey: 'key-5' }],
			itemsNotSent: '6–9',
		});
	});

	it('says nothing when no other item was applied: then a new run repeats nothing', () => {
		expect(
			describeProgress([{ item: 0, state: 'failed', key: 'k', applied: 'unknown' }, notSent(1)], 0),
		).toBeUndefined();
		expect(
			describeProgress([{ item: 0, state: 'failed', applied: 'no' }, notSent(1), notSent(2)], 0),
		).toBeUndefined();
	});

	it('lists ten items in the text and all of them in the context', () => {
		const progress = [
			...Array.from({ length: 25 }, (_, item) => applied(item)),
			{ item: 25, state: 'failed', applied: 'no' } as ItemProgress,
		];
		const report = describeProgress(progress, 25);
		expect(report?.text).toMatch(/9 \(Idempotency-Key key-9\) and 15 more\./);
		expect(report?.context.itemsApplied).toHaveLength(25);
	});

	it('joins consecutive items not sent into ranges', () => {
		const failed: ItemProgress = { item: 1, state: 'failed', key: 'key-1', applied: 'no' };
		const progress = [applied(0), failed, ...[5, 6, 7, 9, 11, 12].map(notSent)];
		expect(describeProgress(progress, 1)?.context.itemsNotSent).toBe('5–7, 9, 11–12');
		expect(describeProgress([applied(0), failed], 1)?.context.itemsNotSent).toBe('');
	});
});
