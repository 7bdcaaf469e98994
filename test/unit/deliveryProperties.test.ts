/**
 * The trigger's trust boundary, property-based (test/property/deliveries.ts): for every signing scheme and body
 * format, genuine deliveries start the workflow with what was signed; mutated ones are refused or read exactly as
 * signed; arbitrary requests never make it throw. A fixed seed here; `npm run fuzz` runs the long campaign.
 */
import fc from 'fast-check';

import type { Verdict } from '../property/deliveries';
import { COMBINATIONS, anyRequest, caseOf, checkGenuine, checkMutation, checkNeverThrows, mutation } from '../property/deliveries';

const SEED = 20261124;
const RUNS = { genuine: 40, mutation: 150, arbitrary: 40 };

const holds = (verdict: Verdict) => {
	if (!verdict.ok) throw new Error(`${verdict.outcome}: ${verdict.why}`);
};

describe.each(COMBINATIONS)('%s, %s bodies', (scheme, format) => {
	const cases = caseOf(scheme, format);

	it('genuine deliveries start the workflow with the body as signed', () => {
		fc.assert(fc.property(cases, (c) => holds(checkGenuine(c))), { seed: SEED, numRuns: RUNS.genuine });
	});

	it('a changed body, Content-Type, JSON shape, form encoding, header or query is refused, or read exactly as signed', () => {
		fc.assert(fc.property(cases, mutation, (c, m) => holds(checkMutation(c, m))), { seed: SEED, numRuns: RUNS.mutation });
	});

	it('any request is answered without throwing', () => {
		fc.assert(fc.property(anyRequest, (request) => holds(checkNeverThrows(scheme, format, request))), { seed: SEED, numRuns: RUNS.arbitrary });
	});
});
