#!/usr/bin/env node
/*
 * prepublishOnly: `npm publish` packs a dist/ built right here, from the sources being published, and
 * checked. npm skips it under the project's ignore-scripts=true, so publishing relies on provenance and on
 * scripts/release.mjs switching scripts on (CONTRIBUTING.md "Releasing").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
/** @type {typeof import('./package-contents.js')} */
const { expectedPackageFiles } = require('./package-contents.js');

const say = (/** @type {string} */ message) => process.stderr.write(`[prepublish] ${message}\n`);

/** @param {string} message @returns {never} */
function fail(message) {
	say(`REFUSED: ${message}`);
	process.exit(1);
}

function build() {
	say('npm run build (dist/ is rebuilt from the sources being published)');
	const res = spawnSync('npm', ['run', 'build'], {
		cwd: ROOT,
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	if (res.status !== 0) fail(`npm run build exited with ${res.status ?? res.signal}`);
}

function checkFiles() {
	const missing = expectedPackageFiles(ROOT).filter(
		(file) => !fs.existsSync(path.join(ROOT, file)),
	);
	if (missing.length > 0) fail(`the build did not produce ${missing.join(', ')}`);
}

/** What index.js (main) exports for code that checks deliveries without n8n (README, docs/trigger.md). */
const WEBHOOK_EXPORTS = [
	'authenticate',
	'receiveDelivery',
	'refusalAnswer',
	'settingsFromParameters',
	'VERIFICATIONS',
	'VERIFICATION_NAMES',
];

/** index.js (main) loads and exports every node and credential class listed in the n8n block, and WEBHOOK_EXPORTS. */
function checkMain() {
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const main = require(path.join(ROOT, manifest.main));
	const entries = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
	for (const entry of entries) {
		for (const exported of Object.values(require(path.join(ROOT, entry)))) {
			if (!Object.values(main).includes(exported))
				fail(`${manifest.main} does not export the class of ${entry}`);
		}
	}
	const missing = WEBHOOK_EXPORTS.filter((name) => main[name] === undefined);
	if (missing.length > 0) fail(`${manifest.main} does not export ${missing.join(', ')}`);
}

build();
checkFiles();
checkMain();
say('dist/ is fresh and complete');
