/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a command-line script: process */
/**
 * npm run fuzz [-- --target deliveries|urls|all] [--cases 1000000] [--seed <n>] [--only <group>] [--property <name>]
 *
 * The long property-based campaign over the trust boundaries: `--cases` cases for each target, spread evenly over
 * its groups (`--only` keeps one). deliveries (deliveries.ts): a group per row of VERIFICATIONS, e.g.
 * `--only customHmac`; it prints the cases each setting value got, and fails when a value the node offers
 * (coverage.ts) got none. urls (urls.ts): a group per kind of URL input. `--property` runs one property of each
 * group by the first word of its name (`mutated`, `genuine`, `replayed`, `arbitrary`; `npm run mutants` uses it).
 * The seed is random unless given; a failure replays with the same seed, with or without `--only`.
 */
import fc from 'fast-check';

import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';

import type { PropertyGroup, Verdict } from './common';
import { argument } from './common';
import { requiredCoverage, unreached } from './coverage';
import { deliveryGroups } from './deliveries';
import { URL_GROUPS } from './urls';

const TARGETS: Record<string, { groups: () => PropertyGroup[]; coverage: boolean }> = {
	deliveries: { groups: deliveryGroups, coverage: true },
	urls: { groups: () => URL_GROUPS, coverage: false },
};

/** Seeds a group's properties get: its place in the whole target, so that `--only` replays the same cases. */
const SEEDS_PER_GROUP = 4;
/** Longest counterexample printed: the broken rule is printed above it, and the seed replays it whole. */
const REPORT_CHARS = 4000;

const say = (line: string) => process.stdout.write(`${line}\n`);
const complain = (line: string) => process.stderr.write(`${line}\n`);
const add = (counts: Map<string, number>, key: string, n = 1) =>
	counts.set(key, (counts.get(key) ?? 0) + n);
const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const byCount = (counts: Map<string, number>) => [...counts].sort((a, b) => b[1] - a[1]);
const table = (rows: Array<[string, number]>) =>
	rows.map(([key, n]) => `  ${String(n).padStart(8)}  ${key}`).join('\n');

function parseOptions(argv: string[]) {
	const value = (name: string) => argument(argv, name);
	const target = value('target') ?? 'all';
	const cases = Number(value('cases') ?? 1_000_000);
	const seed = Number(value('seed') ?? Math.floor(Math.random() * 2 ** 31));
	if (
		![cases, seed].every(Number.isSafeInteger) ||
		cases < 1 ||
		!(target === 'all' || target in TARGETS)
	)
		throw new Error(
			'usage: npm run fuzz [-- --target deliveries|urls|all] [--cases <n>] [--seed <n>] [--only <group>] [--property <name>]',
		);
	const targets = target === 'all' ? Object.keys(TARGETS) : [target];
	return { targets, cases, seed, only: value('only'), property: value('property') };
}
type Options = ReturnType<typeof parseOptions>;

/** One target's groups (those `--only` and `--property` keep); false when a case broke the rule. */
function runTarget(name: string, options: Options, totals: Map<string, number>): boolean {
	const kept = (group: PropertyGroup) =>
		group.properties.filter(
			(property) =>
				options.property === undefined || property.name.split(' ')[0] === options.property,
		);
	const chosen = TARGETS[name]
		.groups()
		.map((group, index) => ({ group, index }))
		.filter(
			({ group }) =>
				(options.only === undefined || group.key === options.only) && kept(group).length > 0,
		);
	if (chosen.length === 0) return true;
	const perGroup = Math.ceil(options.cases / chosen.length);
	const outcomes = new Map<string, number>();
	/** Cases per setting value (`dimension: value`). */
	const coverage = new Map<string, number>();
	const started = Date.now();
	say(`\n${name}: ${chosen.length} group(s), about ${perGroup} cases each`);
	for (const { group, index } of chosen) {
		const ofGroup = new Map<string, number>();
		const judge = (verdict: Verdict) => {
			add(ofGroup, verdict.outcome);
			for (const [dimension, value] of verdict.dims ?? []) add(coverage, `${dimension}: ${value}`);
			if (!verdict.ok) complain(`\nbroken: ${verdict.outcome}: ${verdict.why}`);
			return verdict.ok;
		};
		for (const property of kept(group)) {
			const details = fc.check(property.property(judge), {
				seed: options.seed + index * SEEDS_PER_GROUP + group.properties.indexOf(property),
				numRuns: Math.max(1, Math.round(perGroup * property.share)),
				endOnFailure: true,
			});
			if (details.failed) {
				const report = fc.defaultReportMessage(details) ?? '';
				complain(
					`\nFAILED on ${name}: ${group.label}, campaign seed ${options.seed}:\n${property.name}: ${report.slice(0, REPORT_CHARS)}${report.length > REPORT_CHARS ? '…' : ''}`,
				);
				return false;
			}
		}
		say(
			`${group.label}: ${sum(ofGroup)} cases: ${byCount(ofGroup)
				.slice(0, 8)
				.map(([outcome, n]) => `${n} ${outcome}`)
				.join('; ')}`,
		);
		for (const [outcome, n] of ofGroup) add(outcomes, outcome, n);
	}
	const seconds = Math.round((Date.now() - started) / 1000);
	say(
		`${name}: ${sum(outcomes)} cases in ${seconds} s, no case broke the rule\n${table(byCount(outcomes))}`,
	);
	for (const [outcome, n] of outcomes) add(totals, outcome, n);
	if (coverage.size > 0)
		say(
			`${name}: cases per setting value (a case counts once for each setting it has)\n${table(
				[...coverage].sort((a, b) => a[0].localeCompare(b[0])),
			)}`,
		);
	if (!TARGETS[name].coverage) return true;
	if (options.property !== undefined) {
		say(`${name}: coverage not checked (one property ran)`);
		return true;
	}
	const required = requiredCoverage(chosen.map(({ group }) => group.key as VerificationName));
	const missing = unreached(required, coverage);
	if (missing.length === 0) {
		say(`${name}: every setting value the node offers was reached (${required.length})`);
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
	const totals = new Map<string, number>();
	const started = Date.now();
	for (const target of options.targets) if (!runTarget(target, options, totals)) return 1;
	if (totals.size === 0)
		throw new Error(
			`--only ${options.only} --property ${options.property}: no such group or property`,
		);
	say(
		`\ntotal: ${sum(totals)} cases in ${Math.round((Date.now() - started) / 1000)} s, seed ${options.seed}, no case broke the rule`,
	);
	return 0;
}

process.exitCode = main();
