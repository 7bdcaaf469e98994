/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a command-line script: process */
/**
 * npm run fuzz [-- --target deliveries|urls|all] [--cases 1000000] [--seed <n>] [--only <group>] [--property <name>]
 *
 * The long property-based campaign over the trust boundaries: `--cases` generated and mutated cases for each target
 * (all of them unless `--target` names one), spread evenly over its groups.
 * - deliveries: the trigger's (test/property/deliveries.ts), a group per row of VERIFICATIONS over all of its settings (45 %
 *   edits of genuine deliveries, 20 % genuine ones, 25 % replays built from several genuine ones, 10 % any request);
 *   `--only <verification>`, e.g. `--only customHmac`. Prints how many cases each setting value, each kind of
 *   mutation and each kind of replay got, and fails when a setting value the node offers (coverage.ts) got none.
 * - urls: the action node's URL confinement (test/property/urls.ts), a group per kind of input (endpoints and
 *   next-page links from hostile pieces, mutated and plain; base URLs; a Get Many's endpoints);
 *   `--only endpoints|next-links|base-urls|listing-endpoints`.
 * `--property` runs one property of each group (the first word of its name: `mutated`, `genuine`, `replayed`,
 * `arbitrary`; `npm run mutants` uses it), on the share of the cases it has in the whole campaign.
 * Prints the seed (random unless given: a failure is reproduced with the same seed, with or without `--only`), what
 * happened to the cases of each group, and the totals; exits 1 with the counterexample when a case breaks the rule.
 */
import fc from 'fast-check';

import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';

import type { CaseProperty, PropertyGroup, Verdict } from './common';
import { requiredCoverage, unreached } from './coverage';
import { deliveryGroups } from './deliveries';
import { URL_GROUPS } from './urls';

interface Target {
	groups: () => PropertyGroup[];
	/** What each of its groups is, for the heading. */
	eachGroupIs: string;
	/** The coverage the cases of these groups must reach (none required when absent). */
	required?: (groupKeys: string[]) => Array<[string, string]>;
}

const TARGETS: Record<string, Target> = {
	deliveries: {
		groups: deliveryGroups,
		eachGroupIs: 'a row of VERIFICATIONS with all its settings',
		required: (keys) => requiredCoverage(keys as VerificationName[]),
	},
	urls: { groups: () => URL_GROUPS, eachGroupIs: 'a kind of URL input' },
};

/** Seeds a group's properties get: its place in the whole target, so that `--only` replays the same cases. */
const SEEDS_PER_GROUP = 4;

interface Options {
	targets: string[];
	cases: number;
	seed: number;
	only?: string;
	property?: string;
}

const USAGE =
	'usage: npm run fuzz [-- --target deliveries|urls|all] [--cases <n>] [--seed <n>] [--only <group>] [--property <name>]';

function parseOptions(argv: string[]): Options {
	const value = (name: string) => {
		const at = argv.indexOf(`--${name}`);
		return at === -1 ? undefined : argv[at + 1];
	};
	const target = value('target') ?? 'all';
	const cases = Number(value('cases') ?? 1_000_000);
	const seed = Number(value('seed') ?? Math.floor(Math.random() * 2 ** 31));
	if (
		!Number.isSafeInteger(cases) ||
		cases < 1 ||
		!Number.isSafeInteger(seed) ||
		!(target === 'all' || target in TARGETS)
	)
		throw new Error(USAGE);
	return {
		targets: target === 'all' ? Object.keys(TARGETS) : [target],
		cases,
		seed,
		only: value('only'),
		property: value('property'),
	};
}

type Outcomes = Map<string, number>;
/** Cases per setting value (`dimension: value`), for the coverage report. */
type Coverage = Map<string, number>;

const say = (line: string) => process.stdout.write(`${line}\n`);
const complain = (line: string) => process.stderr.write(`${line}\n`);

function count(outcomes: Outcomes, coverage: Coverage, verdict: Verdict): boolean {
	outcomes.set(verdict.outcome, (outcomes.get(verdict.outcome) ?? 0) + 1);
	for (const [dimension, value] of verdict.dims ?? [])
		coverage.set(`${dimension}: ${value}`, (coverage.get(`${dimension}: ${value}`) ?? 0) + 1);
	if (!verdict.ok) complain(`\nbroken: ${verdict.outcome}: ${verdict.why}`);
	return verdict.ok;
}

const sum = (outcomes: Outcomes) => [...outcomes.values()].reduce((a, b) => a + b, 0);
const byCount = (outcomes: Outcomes) => [...outcomes].sort((a, b) => b[1] - a[1]);

/** Whether `--property` keeps a property: by the first word of its name. */
const kept = (property: CaseProperty, chosen: string | undefined) =>
	chosen === undefined || property.name.split(' ')[0] === chosen;

/** Outcomes named on a group's line (the most frequent; the target's totals list them all). */
const GROUP_LINE_KINDS = 8;

/** Longest counterexample printed: the broken rule is printed above it, and the seed replays it whole. */
const REPORT_CHARS = 4000;
const shortened = (report: string) =>
	report.length <= REPORT_CHARS
		? report
		: `${report.slice(0, REPORT_CHARS)}… (${report.length - REPORT_CHARS} more characters)`;

/** Runs each (kept) property of a group on its share of `runs`; the first failure report (with fast-check's seed and path) or undefined. */
function runGroup(
	group: PropertyGroup,
	seed: number,
	runs: number,
	outcomes: Outcomes,
	coverage: Coverage,
	chosen?: string,
): string | undefined {
	if (group.properties.length > SEEDS_PER_GROUP)
		throw new Error(`${group.label}: more properties than seeds`);
	for (const [index, property] of group.properties.entries()) {
		if (!kept(property, chosen)) continue;
		const numRuns = Math.max(1, Math.round(runs * property.share));
		const details = fc.check(
			property.property((verdict) => count(outcomes, coverage, verdict)),
			{ seed: seed + index, numRuns, endOnFailure: true },
		);
		if (details.failed)
			return `${property.name}: ${shortened(fc.defaultReportMessage(details) ?? '')}`;
	}
	return undefined;
}

/** One target's groups (those `--only` keeps); false when a case broke the rule. */
function runTarget(name: string, options: Options, totals: Outcomes): boolean {
	const { groups, eachGroupIs } = TARGETS[name];
	const chosen = groups()
		.map((group, index) => ({ group, index }))
		.filter(
			({ group }) =>
				(options.only === undefined || group.key === options.only) &&
				group.properties.some((property) => kept(property, options.property)),
		);
	if (chosen.length === 0) return true;
	const perGroup = Math.ceil(options.cases / chosen.length);
	const outcomesOfTarget: Outcomes = new Map();
	const coverage: Coverage = new Map();
	const started = Date.now();
	say(`\n${name}: ${chosen.length} group(s), each ${eachGroupIs}, about ${perGroup} cases each`);
	for (const { group, index } of chosen) {
		const outcomes: Outcomes = new Map();
		const failure = runGroup(
			group,
			options.seed + index * SEEDS_PER_GROUP,
			perGroup,
			outcomes,
			coverage,
			options.property,
		);
		const kinds = byCount(outcomes);
		const more =
			kinds.length > GROUP_LINE_KINDS ? `; and ${kinds.length - GROUP_LINE_KINDS} kinds more` : '';
		say(
			`${group.label}: ${sum(outcomes)} cases: ${kinds
				.slice(0, GROUP_LINE_KINDS)
				.map(([outcome, n]) => `${n} ${outcome}`)
				.join('; ')}${more}`,
		);
		for (const [outcome, n] of outcomes)
			outcomesOfTarget.set(outcome, (outcomesOfTarget.get(outcome) ?? 0) + n);
		if (failure) {
			complain(`\nFAILED on ${name}: ${group.label}, campaign seed ${options.seed}:\n${failure}`);
			return false;
		}
	}
	say(
		`${name}: ${sum(outcomesOfTarget)} cases in ${Math.round((Date.now() - started) / 1000)} s, no case broke the rule`,
	);
	for (const [outcome, n] of byCount(outcomesOfTarget))
		say(`  ${String(n).padStart(8)}  ${outcome}`);
	if (coverage.size > 0) {
		say(`${name}: cases per setting value (a case counts once for each setting it has)`);
		for (const [setting, n] of [...coverage].sort((a, b) => a[0].localeCompare(b[0])))
			say(`  ${String(n).padStart(8)}  ${setting}`);
	}
	for (const [outcome, n] of outcomesOfTarget) totals.set(outcome, (totals.get(outcome) ?? 0) + n);
	return coverageReached(
		name,
		chosen.map(({ group }) => group.key),
		coverage,
		options,
	);
}

/** Whether the cases reached every setting value the target requires (checked when every property ran). */
function coverageReached(
	name: string,
	keys: string[],
	coverage: Coverage,
	options: Options,
): boolean {
	const { required } = TARGETS[name];
	if (required === undefined) return true;
	if (options.property !== undefined) {
		say(`${name}: coverage not checked (one property ran)`);
		return true;
	}
	const missing = unreached(required(keys), coverage);
	if (missing.length === 0) {
		say(`${name}: every setting value the node offers was reached (${required(keys).length})`);
		return true;
	}
	complain(
		`\nFAILED on ${name}: no case reached ${missing.length} setting value(s):\n  ${missing.join('\n  ')}`,
	);
	return false;
}

function main(): number {
	const options = parseOptions(process.argv.slice(2));
	say(
		`fuzz: seed ${options.seed}, ${options.cases} cases per target (${options.targets.join(', ')})${options.only ? `, only ${options.only}` : ''}`,
	);
	const totals: Outcomes = new Map();
	const started = Date.now();
	for (const target of options.targets) if (!runTarget(target, options, totals)) return 1;
	if (totals.size === 0)
		throw new Error(
			`--only ${options.only} --property ${options.property}: no such group or property in ${options.targets.join(', ')}`,
		);
	say(
		`\ntotal: ${sum(totals)} cases in ${Math.round((Date.now() - started) / 1000)} s, seed ${options.seed}, no case broke the rule`,
	);
	return 0;
}

process.exitCode = main();
