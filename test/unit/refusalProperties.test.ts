/**
 * The Refused output's item for hostile requests, property-based (test/property/refusals.ts): for every Verification
 * with every setting the generators give it, at either URL, and for settings of any text, whatever the sender sends
 * the item stays within 2 KiB and holds only the trigger's vocabulary and the node's settings. A fixed seed.
 */
import fc from 'fast-check';

import { holds } from '../property/common';
import { refusalGroups } from '../property/refusals';

const SEED = 20261126;
const RUNS = 300;

describe.each(refusalGroups().map((group) => [group.label, group] as const))(
	'%s',
	(_label, group) => {
		it.each(group.properties.map((property) => [property.name, property] as const))(
			'%s',
			(_name, property) => {
				fc.assert(property.property(holds), { seed: SEED, numRuns: RUNS });
			},
		);
	},
);
