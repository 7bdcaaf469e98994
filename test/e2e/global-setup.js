'use strict';
/*
 * Runs once before the e2e suite: build + pack (unless E2E_TARBALL is set) and install the n8n
 * version under test (N8N_E2E_VERSION, default 2.40.7) into the cache. The tarball path reaches
 * the tests through process.env.E2E_TARBALL (same process under --runInBand).
 */
const fs = require('node:fs');
const installer = require('../../scripts/n8n/install');
const { buildAndPack } = require('../../scripts/pack');

module.exports = async function globalSetup() {
	const version = process.env.N8N_E2E_VERSION || installer.DEFAULT_VERSION;
	process.env.N8N_E2E_VERSION = version;
	if (process.env.E2E_TARBALL) {
		if (!fs.existsSync(process.env.E2E_TARBALL)) throw new Error(`E2E_TARBALL ${process.env.E2E_TARBALL} not found`);
	} else {
		process.env.E2E_TARBALL = buildAndPack({ skipBuild: process.env.E2E_SKIP_BUILD === '1' });
	}
	installer.ensureN8n(version);
};
