/**
 * Which refused deliveries become an execution in production: one per workflow, node and reason per window of 5
 * minutes; the windows are module state, shared by every execution of the process, and bounded (1,000 keys).
 */
import { admitRefusal } from '../../nodes/TenantApiTrigger/refusalRecords';

const WINDOW_MS = 5 * 60 * 1000;
const MAX_KEYS = 1000;

it('records the first refusal of a kind, counts the others until the window has passed, then records again', () => {
	const first = { record: true, unrecordedBefore: 0 };
	const counted = { record: false };
	const refusals: Array<[string, string, string, number, object]> = [
		['wf-1', 'Trigger', 'signature_mismatch', 0, first],
		['wf-1', 'Trigger', 'signature_mismatch', 1, counted],
		['wf-1', 'Trigger', 'signature_mismatch', WINDOW_MS - 1, counted],
		['wf-1', 'Trigger', 'missing_signature', 2, first],
		['wf-2', 'Trigger', 'signature_mismatch', 3, first],
		['wf-1', 'Other trigger', 'signature_mismatch', 4, first],
		['wf-1', 'Trigger', 'signature_mismatch', WINDOW_MS, { record: true, unrecordedBefore: 2 }],
	];
	for (const [workflow, node, reason, at, expected] of refusals)
		expect(admitRefusal(workflow, node, reason, 1_000_000 + at)).toEqual(expected);
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
