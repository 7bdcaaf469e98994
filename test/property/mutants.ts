/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a command-line script: runs the campaign in child processes (child_process, path, process) */
/**
 * npm run mutants [-- --cases 3000] [--seed 1] [--only <part of a defect's name>]
 *
 * Whether the delivery campaign (test/property/campaign.ts) catches each deliberate defect of defects.ts: for each,
 * the campaign on the defect's row of VERIFICATIONS and property with a fixed size and seed, first on the trigger as it is
 * (it must pass), then with the defect applied as the sources load (mutantHook.ts: in memory, nothing on disk
 * changes, nothing to restore); that run must fail. Prints a line per defect with the cases its property took to
 * catch it, and what broke; exits 1 when a defect is not caught, no longer applies, or the trigger as it is fails.
 */
import { spawnSync } from 'child_process';
import { resolve } from 'path';

import { argument } from './common';
import type { Defect } from './defects';
import { DEFECTS } from './defects';

const ROOT = resolve(__dirname, '../..');
const USAGE =
	'usage: npm run mutants [-- --cases <n>] [--seed <n>] [--only <part of a defect name>]';

interface Options {
	cases: number;
	seed: number;
	only?: string;
}

function parseOptions(argv: string[]): Options {
	const value = (name: string) => argument(argv, name);
	const [cases, seed] = [Number(value('cases') ?? 3000), Number(value('seed') ?? 1)];
	if (!Number.isSafeInteger(cases) || cases < 1 || !Number.isSafeInteger(seed))
		throw new Error(USAGE);
	return { cases, seed, only: value('only') };
}

interface Run {
	status: number | null;
	stderr: string;
}

/** The campaign on the defect's Verification and property, with the defect applied or not. */
function campaign(defect: Defect, options: Options, applied: boolean): Run {
	const args = [
		'--target',
		'deliveries',
		'--only',
		defect.verification,
		'--property',
		defect.property,
		'--cases',
		String(options.cases),
		'--seed',
		String(options.seed),
	];
	const preload = [
		'-r',
		'./test/harness/register-ts.js',
		...(applied ? ['-r', './test/property/mutantHook.ts'] : []),
	];
	const run = spawnSync(process.execPath, [...preload, 'test/property/campaign.ts', ...args], {
		cwd: ROOT,
		encoding: 'utf8',
		maxBuffer: 256 * 1024 * 1024,
		env: { ...process.env, TENANT_API_MUTANT: defect.name },
	});
	return { status: run.status, stderr: run.stderr };
}

/** What a run with the defect applied says: caught after how many cases of its property, and the broken rule. */
function verdict(run: Run): { caught: boolean; line: string } {
	const after = /Property failed after (\d+) tests/.exec(run.stderr)?.[1];
	const broken = /^broken: (.*)$/m.exec(run.stderr)?.[1] ?? '';
	if (run.status === 1 && after !== undefined)
		return { caught: true, line: `caught after ${after} cases: ${broken.slice(0, 160)}` };
	if (run.status === 0) return { caught: false, line: 'NOT CAUGHT' };
	return {
		caught: false,
		line: `did not run: ${run.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300)}`,
	};
}

function main(): number {
	const options = parseOptions(process.argv.slice(2));
	const defects = DEFECTS.filter(
		(defect) => options.only === undefined || defect.name.includes(options.only),
	);
	process.stdout.write(
		`mutants: ${defects.length} defect(s), ${options.cases} cases of the campaign each, seed ${options.seed}\n`,
	);
	const controls = new Map<string, boolean>();
	let failures = 0;
	for (const defect of defects) {
		const key = `${defect.verification} ${defect.property}`;
		if (!controls.has(key)) controls.set(key, campaign(defect, options, false).status === 0);
		const result = controls.get(key)
			? verdict(campaign(defect, options, true))
			: { caught: false, line: 'the campaign fails without the defect' };
		if (!result.caught) failures += 1;
		process.stdout.write(
			`${defect.name} [${defect.verification}, ${defect.property}]: ${result.line}\n`,
		);
	}
	process.stdout.write(
		failures === 0 ? 'every defect was caught\n' : `${failures} defect(s) not caught\n`,
	);
	return failures === 0 ? 0 : 1;
}

process.exitCode = main();
