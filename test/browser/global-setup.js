'use strict';
/*
 * Runs once before the browser suite: checks that Debian's chromium is there, builds + packs the
 * package into test-artifacts/browser/pack (unless BROWSER_TARBALL or E2E_TARBALL names a tarball)
 * and makes sure n8n 2.40.7 is installed in the cache. The tarball path reaches the test through
 * process.env.BROWSER_TARBALL (same process under --runInBand).
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const installer = require('../../scripts/n8n/install');
const { buildAndPack, ROOT } = require('../../scripts/pack');

const CHROMIUM = '/usr/bin/chromium';

/** Node and credential files named in package.json `n8n` that the tarball lacks. */
function missingFromTarball(tarball) {
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const wanted = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
	const res = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
	if (res.status !== 0) return wanted;
	const entries = new Set(res.stdout.split('\n').map((l) => l.replace(/^package\//, '')));
	return wanted.filter((f) => !entries.has(f));
}

module.exports = async function globalSetup() {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(`${CHROMIUM} is missing: run scripts/ensure-chromium.sh (npm run test:browser does)`);
	}
	const given = process.env.BROWSER_TARBALL || process.env.E2E_TARBALL;
	let tarball;
	if (given) {
		if (!fs.existsSync(given)) throw new Error(`tarball ${given} not found`);
		tarball = path.resolve(given);
	} else {
		const dest = path.join(ROOT, 'test-artifacts', 'browser', 'pack');
		fs.rmSync(dest, { recursive: true, force: true });
		// buildAndPack builds again when a concurrent build in this work tree emptied dist/ meanwhile.
		tarball = buildAndPack({ dest });
	}
	const missing = missingFromTarball(tarball);
	if (missing.length > 0) throw new Error(`${tarball} lacks ${missing.join(', ')}`);
	process.env.BROWSER_TARBALL = tarball;
	installer.ensureN8n(installer.DEFAULT_VERSION);
};
