'use strict';
/*
 * What a built package must hold, derived from the sources (not from a list kept by hand):
 * package.json's `main` and `n8n` entries, one compiled .js per .ts under nodes/ and credentials/, and
 * the icons and codex files next to them. Used by the publish guard (on dist/) and the packaging test
 * (on the tarball).
 */
const fs = require('node:fs');
const path = require('node:path');

const SOURCE_FOLDERS = ['nodes', 'credentials'];

/** Where a source file lands in the package, or undefined when it is not shipped. @param {string} relativeSource */
function builtPathOf(relativeSource) {
	if (/\.test\.ts$/.test(relativeSource) || relativeSource.endsWith('.d.ts')) return undefined;
	if (relativeSource.endsWith('.ts')) return `dist/${relativeSource.replace(/\.ts$/, '.js')}`;
	if (/\.(svg|png)$/.test(relativeSource) || relativeSource.endsWith('.node.json'))
		return `dist/${relativeSource}`;
	return undefined;
}

/** Package-relative paths (forward slashes) every build of `root` must produce, sorted. @param {string} root */
function expectedPackageFiles(root) {
	const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	/** @type {Set<string>} */
	const wanted = new Set([
		manifest.main,
		...(manifest.n8n?.nodes ?? []),
		...(manifest.n8n?.credentials ?? []),
	]);
	for (const folder of SOURCE_FOLDERS) {
		const dir = path.join(root, folder);
		const files = fs.existsSync(dir)
			? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
			: [];
		for (const file of files) {
			const built = builtPathOf(path.join(folder, file).split(path.sep).join('/'));
			if (built) wanted.add(built);
		}
	}
	return [...wanted].filter(Boolean).sort();
}

/** The expected files missing from a list of package-relative paths. @param {string} root @param {string[]} present */
function missingFiles(root, present) {
	const have = new Set(present);
	return expectedPackageFiles(root).filter((file) => !have.has(file));
}

module.exports = { expectedPackageFiles, missingFiles };
