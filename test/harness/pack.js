'use strict';
/*
 * Build and pack the package (scripts/test.js, scripts/start.js, the benchmarks); returns the tarball path.
 * Default destination: <cache>/pack/<hash of this checkout's path> (outside git).
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { cacheDir } = require('./n8n/install');

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * @param {string} cmd
 * @param {string[]} args
 */
function sh(cmd, args, opts = {}) {
	const res = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], ...opts });
	if (res.status !== 0)
		throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal}`);
	return res;
}

function build() {
	process.stderr.write('[pack] npm run build\n');
	sh('npm', ['run', 'build']);
}

/** Default tarball folder: per checkout, so two clones packing at once don't overwrite each other. */
function defaultDest() {
	const tag = require('node:crypto').createHash('sha1').update(ROOT).digest('hex').slice(0, 10);
	return path.join(cacheDir(), 'pack', tag);
}

/** `npm pack` into dest; returns the absolute tarball path. */
function pack(dest = defaultDest()) {
	fs.mkdirSync(dest, { recursive: true });
	const res = spawnSync('npm', ['pack', '--json', '--pack-destination', dest], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	if (res.status !== 0) throw new Error('npm pack failed');
	const [{ filename }] = JSON.parse(res.stdout);
	const file = path.join(dest, path.basename(filename));
	process.stderr.write(`[pack] ${file}\n`);
	return file;
}

/**
 * Build (unless `skipBuild`) and pack (what the tarball must hold: test/packaging/release.test.ts).
 * @param {{ skipBuild?: boolean, dest?: string }} [options]
 */
function buildAndPack({ skipBuild = false, dest } = {}) {
	if (!skipBuild) build();
	return pack(dest);
}

module.exports = { build, buildAndPack, ROOT };
