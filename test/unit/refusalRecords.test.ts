/** Which refused deliveries become an execution in production: one per workflow, node and reason per window; bounded. */
import {
	MAX_RECORD_KEYS,
	RECORD_WINDOW_MS,
	admitRefusal,
	recordKeys,
} from '../../nodes/TenantApiTrigger/refusalRecords';

it('records the first refusal of a kind, counts the others until the window has passed, then records again', () => {
	const t0 = 1_000_000;
	expect(admitRefusal('wf-1', 'Trigger', 'signature_mismatch', t0)).toEqual({
		record: true,
		unrecordedBefore: 0,
	});
	expect(admitRefusal('wf-1', 'Trigger', 'signature_mismatch', t0 + 1)).toEqual({ record: false });
	expect(admitRefusal('wf-1', 'Trigger', 'signature_mismatch', t0 + RECORD_WINDOW_MS - 1)).toEqual({
		record: false,
	});
	expect(admitRefusal('wf-1', 'Trigger', 'missing_signature', t0 + 2)).toEqual({
		record: true,
		unrecordedBefore: 0,
	});
	expect(admitRefusal('wf-2', 'Trigger', 'signature_mismatch', t0 + 3)).toEqual({
		record: true,
		unrecordedBefore: 0,
	});
	expect(admitRefusal('wf-1', 'Other trigger', 'signature_mismatch', t0 + 4)).toEqual({
		record: true,
		unrecordedBefore: 0,
	});
	expect(admitRefusal('wf-1', 'Trigger', 'signature_mismatch', t0 + RECORD_WINDOW_MS)).toEqual({
		record: true,
		unrecordedBefore: 2,
	});
});

it(`holds at most ${MAX_RECORD_KEYS} keys, dropping the least recently used`, () => {
	for (let i = 0; i < MAX_RECORD_KEYS + 50; i++)
		admitRefusal(`flood-${i}`, 'Trigger', 'missing_signature', 5_000_000);
	expect(recordKeys()).toBe(MAX_RECORD_KEYS);
	// The oldest went first: its next refusal counts as a first one again.
	expect(admitRefusal('flood-0', 'Trigger', 'missing_signature', 5_000_001)).toEqual({
		record: true,
		unrecordedBefore: 0,
	});
	expect(
		admitRefusal(`flood-${MAX_RECORD_KEYS + 49}`, 'Trigger', 'missing_signature', 5_000_001),
	).toEqual({ record: false });
});
