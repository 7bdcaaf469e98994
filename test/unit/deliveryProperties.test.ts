/**
 * The trigger's trust boundary, property-based (test/property/deliveries.ts): for every signing scheme and body
 * format, genuine deliveries start the workflow with what was signed; mutated ones (body, Content-Type, JSON shape,
 * form encoding, header or query changed) are refused or read exactly as signed; arbitrary requests never make it
 * throw. The same properties as `npm run fuzz`, with a fixed seed and fewer cases.
 */
import fc from 'fast-check';

import { holds } from '../property/common';
import { deliveryGroups } from '../property/deliveries';

const SEED = 20261124;
/** Cases per property. */
const RUNS: Record<string, number> = { 'genuine deliveries': 40, 'mutated deliveries': 150, 'arbitrary requests': 40 };

describe.each(deliveryGroups().map((group) => [group.label, group] as const))('%s', (_label, group) => {
	it.each(group.properties.map((property) => [property.name, property] as const))('%s', (_name, property) => {
		fc.assert(property.property(holds), { seed: SEED, numRuns: RUNS[property.name] });
	});
});
