'use strict';
/*
 * Build and pack the package; print (and return) the tarball path.
 *   node scripts/pack.js [--no-build] [--dest DIR]
 * Default destination: <cache>/pack/<hash of this checkout's path> (outside git).
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { cacheDir } = require('./n8n/install');

const ROOT = path.resolve(__dirname, '..');

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
 * Paths of the n8n entry points (package.json `n8n.nodes` / `n8n.credentials`) missing from a tarball.
 * @param {string} tarball
 * @returns {string[]}
 */
function missingEntries(tarball) {
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const wanted = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	const res = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
	if (res.status !== 0) return wanted;
	const entries = new Set(res.stdout.split('\n').map((l) => l.replace(/^package\//, '')));
	return wanted.filter((f) => !entries.has(f));
}

/**
 * Build (unless `skipBuild`), pack, and check that the tarball holds every node and credential file.
 * @param {{ skipBuild?: boolean, dest?: string }} [options]
 */
function buildAndPack({ skipBuild = false, dest } = {}) {
	if (!skipBuild) build();
	const file = pack(dest);
	const missing = missingEntries(file);
	if (missing.length > 0)
		throw new Error(`${path.basename(file)} lacks ${missing.join(', ')} (run npm run build first)`);
	return file;
}

module.exports = { build, pack, buildAndPack, missingEntries, ROOT };

if (require.main === module) {
	const args = process.argv.slice(2);
	const destIdx = args.indexOf('--dest');
	try {
		const file = buildAndPack({
			skipBuild: args.includes('--no-build'),
			dest: destIdx >= 0 ? path.resolve(args[destIdx + 1]) : undefined,
		});
		console.log(file);
	} catch (err) {
		process.stderr.write(`[pack] FAILED: ${err.message}\n`);
		process.exit(1);
	}
}
