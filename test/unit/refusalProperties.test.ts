/**
 * The Refused output's item for hostile requests, property-based (test/property/refusals.ts): for every Verification
 * with every setting the generators give it, at either URL, and for settings of any text, whatever the sender sends
 * the item stays within 2 KiB and holds only the trigger's vocabulary, the node's settings and header names that are
 * plain tokens; a signature in a header the settings do not read is named only as the rules say. A fixed seed; each
 * Verification's cases reach a signature elsewhere with its header named, one with its name not shown, and none.
 */
import fc from 'fast-check';

import type { Verdict } from '../property/common';
import { holds } from '../property/common';
import { refusalGroups } from '../property/refusals';

const SEED = 20261126;
const RUNS = 300;
const SIGNATURE_ELSEWHERE = [
	'no signature elsewhere',
	'signature elsewhere, named',
	'signature elsewhere, its name not shown',
];

describe.each(refusalGroups().map((group) => [group.label, group] as const))(
	'%s',
	(_label, group) => {
		const outcomes = new Set<string>();
		const judge = (verdict: Verdict) => {
			outcomes.add(verdict.outcome.split('; ')[1] ?? verdict.outcome);
			holds(verdict);
		};

		it.each(group.properties.map((property) => [property.name, property] as const))(
			'%s',
			(_name, property) => {
				fc.assert(property.property(judge), { seed: SEED, numRuns: RUNS });
			},
		);

		if (group.key !== 'refused-any-settings')
			it('reaches every case of a signature elsewhere', () => {
				expect(
					[...outcomes].filter((outcome) => SIGNATURE_ELSEWHERE.includes(outcome)).sort(),
				).toEqual([...SIGNATURE_ELSEWHERE].sort());
			});
	},
);
