'use strict';
/*
 * Build and pack the package; print (and return) the tarball path.
 *   node scripts/pack.js [--no-build] [--dest DIR]
 * Default destination: <cache>/pack (outside git).
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { cacheDir } = require('./n8n/install');

const ROOT = path.resolve(__dirname, '..');

function sh(cmd, args, opts = {}) {
	const res = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], ...opts });
	if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal}`);
	return res;
}

function build() {
	process.stderr.write('[pack] npm run build\n');
	sh('npm', ['run', 'build']);
}

/** `npm pack` into dest; returns the absolute tarball path. */
function pack(dest = path.join(cacheDir(), 'pack')) {
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

function buildAndPack({ skipBuild = false, dest } = {}) {
	if (!skipBuild) build();
	for (const f of ['dist/nodes/TenantApi/TenantApi.node.js', 'dist/credentials/TenantApi.credentials.js']) {
		if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing after the build`);
	}
	return pack(dest);
}

module.exports = { build, pack, buildAndPack, ROOT };

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
