/**
 * Which refused deliveries become an execution in production: one per workflow, node and reason per window of 5
 * minutes; the windows are module state, shared by every execution of the process, and bounded (1,000 keys).
 */
import { admitRefusal } from '../../nodes/TenantApiTrigger/refusalRecords';

const WINDOW_MS = 5 * 60 * 1000;
const MAX_KEYS = 1000;

it('records the first refusal of a kind, counts the others until the window has passed, then records again', () => {
	const t0 = 1_000_000;
	expect(admitRefusal('wf-1', 'Trigger', 'signature_mismatch', t0)).toEqual({
		record: true,
		unrecordedBefore: 0,
	});
	expect(admitRefusal('wf-1', 'Trigger', 'signature_mismatch', t0 + 1)).toEqual({ record: false });
	expect(admitRefusal('wf-1', 'Trigger', 'signature_mismatch', t0 + WINDOW_MS - 1)).toEqual({
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
	expect(admitRefusal('wf-1', 'Trigger', 'signature_mismatch', t0 + WINDOW_MS)).toEqual({
		record: true,
		unrecordedBefore: 2,
	});
});

it(`holds at most ${MAX_KEYS} keys, dropping the least recently used`, () => {
	const refuse = (i: number) =>
		admitRefusal(`flood-${i}`, 'Trigger', 'missing_signature', 5_000_000);
	for (let i = 0; i < MAX_KEYS + 50; i++) refuse(i);
	// The newest MAX_KEYS are held (a refusal within their window is counted, not recorded); the one before them
	// went, so its next refusal counts as a first one again.
	expect(refuse(50)).toEqual({ record: false });
	expect(refuse(49)).toEqual({ record: true, unrecordedBefore: 0 });
});
