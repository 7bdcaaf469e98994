#!/usr/bin/env node
'use strict';
/*
 * Runs the checks and the Jest projects of jest.config.js with ONE build and ONE pack for the whole run (what it
 * does and in which order: CONTRIBUTING.md "Test layout"):
 *
 *   node scripts/test.js all                      # what `npm test` runs: lint, typecheck, every project
 *   node scripts/test.js e2e-2x e2e-1x            # any steps, always in the order of ORDER
 *   node scripts/test.js e2e-2x -- test/e2e/n8n.test.ts   # arguments after `--` go to Jest
 *   node scripts/test.js --no-build engine        # use the dist/ that is there
 *   TEST_TARBALL=pkg.tgz node scripts/test.js queue   # test this tarball (no build, no pack)
 *
 * Ends with the tests of every Jest run (`Totals: N passed, N failed, N skipped`); stops at the first step that fails.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const installer = require('../test/harness/n8n/install');
const { build, buildAndPack, ROOT } = require('../test/harness/pack');
const totals = require('../test/harness/testTotals');

const CHECKS = ['lint', 'typecheck'];
const ORDER = ['unit', 'engine', 'packaging', 'e2e-2x', 'e2e-1x', 'browser', 'queue'];
/** Projects that start no n8n: one Jest run with parallel workers. */
const NO_N8N = new Set(['unit', 'engine', 'packaging']);
const NEEDS_DIST = new Set(['engine']);
const NEEDS_TARBALL = new Set(ORDER.filter((p) => p !== 'unit' && p !== 'engine'));
/** More Jest workers than cores for the projects without n8n: CONTRIBUTING.md "Test layout" says why. */
const WORKERS = 3;

/** What a real-n8n project needs on the machine besides n8n. @type {Record<string, () => void>} */
const PREREQUISITES = {
	browser: () => {
		if (!run('bash', [path.join(ROOT, 'scripts', 'ensure-chromium.sh')]))
			throw new Error('scripts/ensure-chromium.sh failed');
	},
	queue: () => require('../test/harness/queue/services').ensurePackages(),
};
/** Extra Jest flags: the queue suite's sandbox and reaper keep handles Jest waits for after its report. */
const JEST_FLAGS = /** @type {Record<string, string[]>} */ ({ queue: ['--forceExit'] });

const say = (/** @type {string} */ msg) => process.stderr.write(`[test] ${msg}\n`);

/** @param {string} cmd @param {string[]} args */
function run(cmd, args, env = process.env) {
	const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env });
	if (res.error) throw res.error;
	return res.status === 0;
}

/** Checks and projects (in their order), `--no-build`, and the arguments for Jest (after `--`). @param {string[]} argv */
function parseArgs(argv) {
	const sep = argv.indexOf('--');
	const own = sep >= 0 ? argv.slice(0, sep) : argv;
	const names = own.filter((a) => !a.startsWith('--'));
	const unknown = names.filter((n) => n !== 'all' && !CHECKS.includes(n) && !ORDER.includes(n));
	if (unknown.length > 0 || names.length === 0)
		throw new Error(
			`usage: node scripts/test.js [--no-build] <all | ${[...CHECKS, ...ORDER].join(' | ')}>... [-- jest args] (got ${unknown.join(' ') || 'nothing'})`,
		);
	const chosen = (/** @type {string[]} */ list) =>
		names.includes('all') ? list : list.filter((p) => names.includes(p));
	return {
		checks: chosen(CHECKS),
		projects: chosen(ORDER),
		noBuild: own.includes('--no-build'),
		jestArgs: sep >= 0 ? argv.slice(sep + 1) : [],
	};
}

/** @param {string[]} projects @param {string[]} flags @param {NodeJS.ProcessEnv} env */
const jest = (projects, flags, env) =>
	run(
		process.execPath,
		[require.resolve('jest/bin/jest'), '--selectProjects', ...projects, ...flags],
		env,
	);

/** @type {Array<[string, number]>} each step done so far and its seconds */
const steps = [];

/** A step with its duration in the log. @template T @param {string} label @param {() => T} fn */
async function timed(label, fn) {
	const t0 = Date.now();
	const result = await fn();
	const seconds = Math.round((Date.now() - t0) / 1000);
	steps.push([label, seconds]);
	say(`${label}: ${seconds} s`);
	return result;
}

/** The n8n version of each real-n8n project, as jest.config.js sets it. @param {string[]} projects */
function n8nVersionsOf(projects) {
	/** @type {{ projects: Array<{ displayName: string, globals?: { n8nVersion: string } }> }} */
	const config = require(path.join(ROOT, 'jest.config.js'));
	const versions = config.projects
		.filter((p) => projects.includes(p.displayName))
		.flatMap((p) => (p.globals ? [p.globals.n8nVersion] : []));
	return [...new Set(versions)];
}

async function main() {
	const { checks, projects, noBuild, jestArgs } = parseArgs(process.argv.slice(2));
	for (const check of checks) if (!(await timed(check, () => run('npm', ['run', check])))) return 1;
	const noN8n = projects.filter((p) => NO_N8N.has(p));
	const realN8n = projects.filter((p) => !NO_N8N.has(p));
	const given = process.env.TEST_TARBALL;
	const needsTarball = projects.some((p) => NEEDS_TARBALL.has(p));
	if (!noBuild && (projects.some((p) => NEEDS_DIST.has(p)) || (needsTarball && !given)))
		await timed('build', () => build());
	/** @type {string|undefined} */
	let packDir;
	let tarball = given && path.resolve(given);
	if (tarball && !fs.existsSync(tarball)) throw new Error(`TEST_TARBALL ${given} not found`);
	if (needsTarball && !tarball) {
		packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-pack-'));
		tarball = await timed('pack', () => buildAndPack({ skipBuild: true, dest: packDir }));
	}
	try {
		const env = tarball ? { ...process.env, TEST_TARBALL: tarball } : process.env;
		if (tarball) process.env.TEST_TARBALL = tarball; // jest.config.js defines the packed projects only with it
		const flags = [`--maxWorkers=${WORKERS}`, ...jestArgs];
		if (noN8n.length > 0 && !(await timed(noN8n.join(' + '), () => jest(noN8n, flags, env))))
			return 1;
		if (realN8n.length === 0) return 0;
		await timed('n8n installed', () =>
			installer.ensureN8nVersions(n8nVersionsOf(realN8n), { parallel: true }),
		);
		for (const project of realN8n) {
			if (PREREQUISITES[project]) await timed(`${project}: prerequisites`, PREREQUISITES[project]);
			const own = ['--runInBand', '--verbose', ...(JEST_FLAGS[project] ?? []), ...jestArgs];
			if (!(await timed(project, () => jest([project], own, env)))) return 1;
		}
		return 0;
	} finally {
		if (packDir) fs.rmSync(packDir, { recursive: true, force: true });
	}
}

const started = Date.now();
totals.reset();
main()
	.then(
		(code) => (process.exitCode = code),
		(err) => {
			say(`FAILED: ${err.message}`);
			process.exitCode = 1;
		},
	)
	.finally(() => {
		const total = Math.round((Date.now() - started) / 1000);
		const done = steps.map(([label, s]) => `${label} ${s} s`).join(', ');
		if (steps.length > 0)
			say(`steps: ${done}; total ${Math.floor(total / 60)} min ${total % 60} s`);
		const closing = totals.closingLine();
		if (closing) console.log(closing.line);
		if (closing && !closing.ok) process.exitCode = 1;
	});
