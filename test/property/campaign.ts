/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a command-line script: process */
/**
 * npm run fuzz [-- --cases 1000000] [--seed <n>] [--only <scheme>]
 *
 * The long property-based campaign over the trigger's trust boundary (test/property/deliveries.ts): about `--cases`
 * generated and mutated deliveries, spread over every signing scheme and body format (80 % mutations of genuine
 * deliveries, 10 % genuine ones, 10 % arbitrary requests). Prints the seed (random unless given: a failure is
 * reproduced with the same seed), what happened to the cases of each scheme, and the totals; exits 1 with the
 * counterexample when a case breaks the rule.
 */
import fc from 'fast-check';

import type { Case, Delivery, Format, Mutation, Verdict } from './deliveries';
import { COMBINATIONS, anyRequest, caseOf, checkGenuine, checkMutation, checkNeverThrows, mutation } from './deliveries';

interface Options {
	cases: number;
	seed: number;
	only?: string;
}

function parseOptions(argv: string[]): Options {
	const value = (name: string) => {
		const at = argv.indexOf(`--${name}`);
		return at === -1 ? undefined : argv[at + 1];
	};
	const cases = Number(value('cases') ?? 1_000_000);
	const seed = Number(value('seed') ?? Math.floor(Math.random() * 2 ** 31));
	if (!Number.isSafeInteger(cases) || cases < 1 || !Number.isSafeInteger(seed)) throw new Error('usage: npm run fuzz [-- --cases <n>] [--seed <n>] [--only <scheme>]');
	return { cases, seed, only: value('only') };
}

type Outcomes = Map<string, number>;

const say = (line: string) => process.stdout.write(`${line}\n`);
const complain = (line: string) => process.stderr.write(`${line}\n`);

function count(outcomes: Outcomes, verdict: Verdict): boolean {
	outcomes.set(verdict.outcome, (outcomes.get(verdict.outcome) ?? 0) + 1);
	if (!verdict.ok) complain(`\nbroken: ${verdict.outcome}: ${verdict.why}`);
	return verdict.ok;
}

/** Runs one property `runs` times; the failure report (with fast-check's seed and path) or undefined. */
function run<T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => boolean, seed: number, runs: number): string | undefined {
	const details = fc.check(fc.property(arbitrary, check), { seed, numRuns: runs, endOnFailure: true });
	return details.failed ? fc.defaultReportMessage(details) : undefined;
}

function campaign(scheme: Case['scheme'], format: Format, seed: number, runs: number, outcomes: Outcomes): string | undefined {
	const cases = caseOf(scheme, format);
	const share = (part: number) => Math.max(1, Math.round(runs * part));
	return (
		run(fc.tuple(cases, mutation), ([c, m]: [Case, Mutation]) => count(outcomes, checkMutation(c, m)), seed, share(0.8)) ??
		run(cases, (c: Case) => count(outcomes, checkGenuine(c)), seed + 1, share(0.1)) ??
		run(anyRequest, (request: Delivery) => count(outcomes, checkNeverThrows(scheme, format, request)), seed + 2, share(0.1))
	);
}

function main(): number {
	const options = parseOptions(process.argv.slice(2));
	const combinations = COMBINATIONS.filter(([scheme]) => options.only === undefined || scheme === options.only);
	if (combinations.length === 0) throw new Error(`--only ${options.only}: no such scheme`);
	const perCombination = Math.ceil(options.cases / combinations.length);
	say(`fuzz: seed ${options.seed}, ${perCombination * combinations.length} cases over ${combinations.length} scheme/format pairs`);
	const totals: Outcomes = new Map();
	const started = Date.now();
	for (const [index, [scheme, format]] of combinations.entries()) {
		const outcomes: Outcomes = new Map();
		const failure = campaign(scheme, format, options.seed + index * 3, perCombination, outcomes);
		const cases = [...outcomes.values()].reduce((a, b) => a + b, 0);
		const summary = [...outcomes].sort((a, b) => b[1] - a[1]).map(([outcome, n]) => `${n} ${outcome}`).join('; ');
		say(`${scheme} (${format}): ${cases} cases: ${summary}`);
		for (const [outcome, n] of outcomes) totals.set(outcome, (totals.get(outcome) ?? 0) + n);
		if (failure) {
			complain(`\nFAILED on ${scheme} (${format}), campaign seed ${options.seed}:\n${failure}`);
			return 1;
		}
	}
	const all = [...totals.values()].reduce((a, b) => a + b, 0);
	say(`\ntotal: ${all} cases in ${Math.round((Date.now() - started) / 1000)} s, seed ${options.seed}, no case broke the rule`);
	for (const [outcome, n] of [...totals].sort((a, b) => b[1] - a[1])) say(`  ${String(n).padStart(8)}  ${outcome}`);
	return 0;
}

process.exitCode = main();
