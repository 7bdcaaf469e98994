/**
 * The trigger's trust boundary, property-based (test/property/deliveries.ts): for every Verification and every
 * setting it shows, genuine deliveries do what the documented rules say; mutated ones are refused, or read exactly as
 * signed; replays built from several genuine ones never get an identity none of them had; arbitrary requests never
 * make it throw. The same properties as `npm run fuzz`, with a fixed seed and fewer cases; every kind of replay
 * must reach a workflow in them. Then the generators' reach: every setting of the trigger and its credential is
 * generated.
 */
import fc from 'fast-check';
import type { INodeProperties } from 'n8n-workflow';

import { TenantWebhookApi } from '../../credentials/TenantWebhookApi.credentials';
import { properties } from '../../nodes/TenantApiTrigger/description';
import type { Verdict } from '../property/common';
import { holds } from '../property/common';
import { deliveryGroups } from '../property/deliveries';
import { REPLAY_KINDS } from '../property/replays';
import { VERIFICATIONS, setups } from '../property/settings';

const SEED = 20261125;
/** Cases per property and Verification. */
const RUNS: Record<string, number> = {
	'genuine deliveries': 60,
	'mutated deliveries': 240,
	'replayed deliveries': 40,
	'arbitrary requests': 30,
};

/** The outcomes each kind of replay had in the runs above. */
const replayOutcomes = new Map<string, string[]>();

function holdsAndCount(verdict: Verdict): void {
	const kind = verdict.dims?.find(([dimension]) => dimension === 'replay')?.[1];
	if (kind !== undefined)
		replayOutcomes.set(kind, [...(replayOutcomes.get(kind) ?? []), verdict.outcome]);
	holds(verdict);
}

describe.each(deliveryGroups().map((group) => [group.label, group] as const))(
	'%s',
	(_label, group) => {
		it.each(group.properties.map((property) => [property.name, property] as const))(
			'%s',
			(_name, property) => {
				fc.assert(property.property(holdsAndCount), { seed: SEED, numRuns: RUNS[property.name] });
			},
		);
	},
);

describe('every kind of replay', () => {
	it.each(REPLAY_KINDS.map((kind) => [kind] as const))(
		'%s: started the workflow at least once above',
		(kind) => {
			expect(
				(replayOutcomes.get(kind) ?? []).filter((outcome) => outcome.includes(': started')).length,
			).toBeGreaterThan(0);
		},
	);
});

describe('the generators reach every setting', () => {
	/** Every value each parameter took in a sample of the generated set-ups, options' fields by their own name. */
	const seen = new Map<string, Set<string>>();
	const record = (name: string, value: unknown) =>
		seen.set(name, (seen.get(name) ?? new Set()).add(JSON.stringify(value)));
	for (const verification of VERIFICATIONS) {
		for (const setup of fc.sample(setups(verification), { numRuns: 300, seed: SEED })) {
			for (const [name, value] of Object.entries(setup.parameters)) {
				if (name === 'options')
					for (const [option, chosen] of Object.entries(value as object)) record(option, chosen);
				else record(name, value);
			}
			for (const [name, value] of Object.entries(setup.credential))
				if (value !== '') record(name, value);
		}
	}
	const settings = (list: INodeProperties[]): INodeProperties[] =>
		list.flatMap((p) =>
			p.type === 'notice'
				? []
				: p.type === 'collection'
					? settings((p.options ?? []) as INodeProperties[])
					: [p],
		);
	const nodeSettings = [...new Map(settings(properties).map((p) => [p.name, p])).values()];

	it.each(nodeSettings.map((p) => [p.name, p] as const))('%s', (name, setting) => {
		const values = seen.get(name) ?? new Set();
		if (setting.type === 'options') {
			const all = (setting.options ?? []).map((o) =>
				JSON.stringify((o as { value: unknown }).value),
			);
			expect(all.filter((v) => !values.has(v))).toEqual([]);
		} else if (setting.type === 'boolean') {
			expect([...values].sort()).toEqual(['false', 'true']);
		} else {
			expect(
				[...values].filter((v) => v !== JSON.stringify(setting.default)).length,
			).toBeGreaterThan(0);
		}
	});

	it.each(
		new TenantWebhookApi().properties
			.filter((p) => p.type !== 'notice')
			.map((p) => [p.name] as const),
	)('credential: %s', (name) => {
		expect(seen.get(name)?.size ?? 0).toBeGreaterThan(0);
	});
});
