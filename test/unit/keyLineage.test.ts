import { conflictExplanation, readLineage } from '../../nodes/TenantApi/actions/request/keyLineage';
import type { KeyLineage } from '../../nodes/TenantApi/actions/request/keyLineage';

const execution: KeyLineage = { kind: 'execution', scope: '41', nodeId: 'n1', executionId: '41' };
const event: KeyLineage = { kind: 'event', scope: 'event\u0000Trigger\u0000evt_1', nodeId: 'n1', eventId: 'evt_1', trigger: 'Trigger' };

describe('readLineage', () => {
	it('reads back what the node recorded (after the JSON round trip of the database)', () => {
		expect(readLineage(JSON.parse(JSON.stringify(execution)))).toEqual(execution);
		expect(readLineage(JSON.parse(JSON.stringify(event)))).toEqual(event);
	});

	it.each([
		[undefined],
		[null],
		['41'],
		[[execution]],
		[{ ...execution, kind: 'other' }],
		[{ ...execution, scope: '' }],
		[{ ...execution, executionId: undefined }],
		[{ ...event, eventId: 42 }],
		[{ ...event, trigger: '' }],
		[{ kind: 'execution', scope: '41', executionId: '41' }],
	])('ignores anything else: %j', (value) => {
		expect(readLineage(value)).toBeUndefined();
	});
});

describe('conflictExplanation', () => {
	it('names the event whose keys these are', () => {
		expect(conflictExplanation(event, '99', 3)).toMatch(
			/^The keys belong to event evt_1 \(Trigger\), which was delivered or retried before\. This node sent item 3 under the same key with a different request before, and that request was applied; this one was not\. .*By Request Content\.$/,
		);
	});

	it('names the execution a retry continues', () => {
		expect(conflictExplanation(execution, '99', 0)).toMatch(/^The keys belong to execution 41, which this execution retries\. This node sent item 0/);
	});

	it('says nothing extra when the keys are this execution’s own', () => {
		expect(conflictExplanation(execution, '41', 0)).toBeUndefined();
	});
});
