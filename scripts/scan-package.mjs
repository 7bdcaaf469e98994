#!/usr/bin/env node
/*
 * Offline part of n8n's community package scan (@n8n/scan-community-package):
 * `analyzePackage` on the source tree (its SOURCE_FILE_PATTERNS) and on the unpacked tarball
 * (`**\/*.js` + package.json), exactly as `analyzePackageByName` calls it. The provenance check and
 * the download of the published package from npm/GitHub need the network and are not run.
 *
 *   node scripts/scan-package.mjs [--tarball path.tgz] [--json]
 *
 * Without --tarball it packs the current tree (npm pack, which does not build) into a temp folder.
 * Exit code 0 when both analyses pass.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const tIdx = args.indexOf('--tarball');

// eslint-plugin-n8n-nodes-base switches to a test mode under NODE_ENV=test (every file is then
// "Test.node.ts" and a trigger), which jest sets: the real scanner runs without it.
if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;

const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	path.join(ROOT, 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs')
);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-scan-'));
try {
	let tarball = tIdx >= 0 ? path.resolve(args[tIdx + 1]) : undefined;
	if (!tarball) {
		const out = execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		tarball = path.join(tmp, JSON.parse(out)[0].filename);
	}
	const unpacked = path.join(tmp, 'unpacked');
	fs.mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
	const packageDir = path.join(unpacked, 'package');

	const source = await analyzePackage(ROOT, SOURCE_FILE_PATTERNS);
	const dist = await analyzePackage(packageDir, ['**/*.js', 'package.json']);
	const result = {
		passed: source.passed && dist.passed,
		source: { passed: source.passed, message: source.message, details: source.details },
		tarball: { passed: dist.passed, message: dist.message, details: dist.details, file: tarball },
		patterns: { source: SOURCE_FILE_PATTERNS, tarball: ['**/*.js', 'package.json'] },
	};
	if (asJson) process.stdout.write(JSON.stringify(result) + '\n');
	else {
		for (const [name, r] of Object.entries({ source, tarball: dist })) {
			console.log(
				`${name}: ${r.passed ? 'passed' : 'FAILED'}${r.message ? ` (${r.message})` : ''}`,
			);
			if (r.details) console.log(r.details);
		}
	}
	process.exitCode = result.passed ? 0 : 1;
} finally {
	fs.rmSync(tmp, { recursive: true, force: true });
}
