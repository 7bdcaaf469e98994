import { conflictExplanation, readLineage } from '../../nodes/TenantApi/actions/request/keys/keyLineage';
import type { KeyLineage } from '../../nodes/TenantApi/actions/request/keys/keyLineage';

const lineage: KeyLineage = { nodeId: 'n1', executionId: '41' };
const event = { trigger: 'Trigger', id: 'evt_1' };

describe('readLineage', () => {
	it('reads back what the node recorded (after the JSON round trip of the database)', () => {
		expect(readLineage(JSON.parse(JSON.stringify(lineage)), '99')).toEqual(lineage);
	});

	it('reads the lineages earlier versions recorded', () => {
		expect(readLineage({ kind: 'execution', scope: '41', nodeId: 'n1', executionId: '41' }, '99')).toEqual(lineage);
		// An event lineage: every item had the event, whose keys are read from the trigger item again.
		expect(readLineage({ kind: 'event', scope: 'event\u0000Trigger\u0000evt_1', nodeId: 'n1', eventId: 'evt_1', trigger: 'Trigger' }, '99')).toEqual({ nodeId: 'n1', executionId: '99' });
	});

	it.each([
		[undefined],
		[null],
		['41'],
		[[lineage]],
		[{ ...lineage, executionId: '' }],
		[{ ...lineage, executionId: undefined }],
		[{ ...lineage, nodeId: 7 }],
		[{ kind: 'event', nodeId: 'n1', trigger: 'Trigger' }],
		[{ kind: 'execution', scope: '41', executionId: '41' }],
	])('ignores anything else: %j', (value) => {
		expect(readLineage(value, '99')).toBeUndefined();
	});
});

describe('conflictExplanation', () => {
	it('names the event whose keys these are', () => {
		expect(conflictExplanation(lineage, event, '99', 3)).toMatch(
			/^The keys belong to event evt_1 \(Trigger\), which was delivered or retried before\. This node sent item 3 under the same key with a different request before, and that request was applied; this one was not\. .*By Request Content\.$/,
		);
	});

	it('names the execution a retry continues', () => {
		expect(conflictExplanation(lineage, undefined, '99', 0)).toMatch(/^The keys belong to execution 41, which this execution retries\. This node sent item 0/);
	});

	it('says nothing extra when the keys are this execution’s own', () => {
		expect(conflictExplanation(lineage, undefined, '41', 0)).toBeUndefined();
	});
});
