'use strict';
/*
 * Before the queue-mode suite (not counted in its time budget): Debian's redis-server and postgresql
 * (apt-get, when missing), the packed package (QUEUE_TARBALL, or build + pack) and n8n in the cache.
 */
const fs = require('node:fs');
const path = require('node:path');
const installer = require('../../scripts/n8n/install');
const services = require('../../scripts/queue/services');

module.exports = async function globalSetup() {
	const t0 = Date.now();
	services.ensurePackages();
	const version = process.env.N8N_QUEUE_VERSION || installer.DEFAULT_VERSION;
	process.env.N8N_QUEUE_VERSION = version;
	if (process.env.QUEUE_TARBALL) {
		if (!fs.existsSync(process.env.QUEUE_TARBALL)) throw new Error(`QUEUE_TARBALL ${process.env.QUEUE_TARBALL} not found`);
		process.env.QUEUE_TARBALL = path.resolve(process.env.QUEUE_TARBALL);
	} else {
		const { buildAndPack } = require('../../scripts/pack');
		// A copy of our own: other suites pack into the same cache folder.
		const packed = buildAndPack({ skipBuild: process.env.QUEUE_SKIP_BUILD === '1' });
		const own = path.join(path.dirname(packed), `queue-${process.pid}-${path.basename(packed)}`);
		fs.copyFileSync(packed, own);
		process.env.QUEUE_TARBALL = own;
		process.env.QUEUE_TARBALL_TEMP = own;
	}
	installer.ensureN8n(version);
	process.stderr.write(`[queue] setup (installs, build, pack) took ${Math.round((Date.now() - t0) / 1000)} s\n`);
};
