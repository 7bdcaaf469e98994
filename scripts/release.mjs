#!/usr/bin/env node
/*
 * npm run release: the one way this package reaches npm (CONTRIBUTING.md "Releasing").
 *
 * In GitHub Actions, on a pushed tag v<version>: checks the tag, then `n8n-node release` publishes with lifecycle
 * scripts on (the project .npmrc switches them off), so prepublishOnly (scripts/prepublish-guard.mjs) runs.
 * Anywhere else: the checks, `npm publish --dry-run` through the same guard, then the tag v<version>.
 *   npm run release -- --dry-run    checks and the dry run only (in GitHub Actions too: no upload)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dryRun = process.argv.includes('--dry-run');
const inGitHubActions = process.env.GITHUB_ACTIONS === 'true';
/** Lifecycle scripts on for the publish (prepublishOnly is the guard). */
const SCRIPTS_ON = { npm_config_ignore_scripts: 'false' };

const say = (/** @type {string} */ message) => process.stderr.write(`[release] ${message}\n`);

/** @param {string} message @returns {never} */
function fail(message) {
	say(`REFUSED: ${message}`);
	process.exit(1);
}

/** @param {string} cmd @param {string[]} args */
function run(cmd, args, env = {}) {
	say(`$ ${cmd} ${args.join(' ')}`);
	const res = spawnSync(cmd, args, {
		cwd: ROOT,
		stdio: ['ignore', 'inherit', 'inherit'],
		env: { ...process.env, ...env },
	});
	if (res.status !== 0) fail(`${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal}`);
}

/** @param {string} cmd @param {string[]} args */
function output(cmd, args) {
	const res = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : undefined;
}

/** @type {string} */
const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

/**
 * CHANGELOG.md must have a dated section for the version: `## [1.2.3] - 2026-05-01`.
 * @param {string} version
 */
function checkChangelog(version) {
	const file = path.join(ROOT, 'CHANGELOG.md');
	const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	const heading = text.split('\n').find((line) => line.startsWith(`## [${version}]`));
	if (!heading) fail(`CHANGELOG.md has no "## [${version}] - <date>" section`);
	if (!/ - \d{4}-\d{2}-\d{2}\s*$/.test(heading))
		fail(`CHANGELOG.md: date the section of ${version} ("${heading.trim()}")`);
}

/** @param {string} version */
function checkTagInCi(version) {
	const tag = process.env.GITHUB_REF_NAME;
	if (process.env.GITHUB_REF_TYPE && process.env.GITHUB_REF_TYPE !== 'tag')
		fail('publishing runs on a tag push only');
	if (tag !== `v${version}`)
		fail(`the tag "${tag}" does not name the version in package.json (v${version})`);
}

/** @param {string} tag */
function checkWorkTree(tag) {
	if (output('git', ['status', '--porcelain']) !== '')
		fail('commit or stash your changes first (the tag must point at what is tested)');
	if (output('git', ['rev-parse', '-q', '--verify', `refs/tags/${tag}`]))
		fail(
			`the tag ${tag} exists already: bump the version (npm version <patch|minor|major> --no-git-tag-version)`,
		);
}

function publishFromCi() {
	const env = { ...SCRIPTS_ON, ...(dryRun ? { npm_config_dry_run: 'true' } : {}) };
	run(path.join(ROOT, 'node_modules', '.bin', 'n8n-node'), ['release'], env);
}

/** @param {string} version */
function prepareLocally(version) {
	const tag = `v${version}`;
	if (!dryRun) checkWorkTree(tag);
	run('npm', ['publish', '--dry-run'], SCRIPTS_ON);
	if (dryRun) return;
	run('git', ['tag', '-a', tag, '-m', `Release ${version}`]);
	say(`tagged ${tag}. Push it to publish from GitHub Actions: git push origin ${tag}`);
}

checkChangelog(version);
if (inGitHubActions) {
	checkTagInCi(version);
	publishFromCi();
} else {
	prepareLocally(version);
}
