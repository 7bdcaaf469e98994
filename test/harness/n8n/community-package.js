'use strict';
/*
 * The packed tarball installed into an n8n user folder the way n8n's community installer does
 * (CommunityPackagesService.downloadPackage, the same in 1.123, 2.40 and 2.41; 2.41 then refuses a package
 * whose package.json `n8n.n8nNodesApiVersion` is above its own, 1: this package declares 1).
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const NPM_INSTALL_ARGS = [
	'install',
	'--audit=false',
	'--fund=false',
	'--bin-links=false',
	'--install-strategy=shallow',
	'--ignore-scripts=true',
	'--package-lock=false',
	'--loglevel=warn',
];

/**
 * The package.json of `<userFolder>/.n8n/nodes`, or a new one.
 * @param {string} file
 * @returns {{ dependencies: Record<string, string> }}
 */
function readNodesManifest(file) {
	const manifest = fs.existsSync(file)
		? JSON.parse(fs.readFileSync(file, 'utf8'))
		: { name: 'installed-nodes', private: true };
	return { ...manifest, dependencies: manifest.dependencies || {} };
}

/**
 * Unpack `tarball` into `dir`; drop devDependencies/peerDependencies/optionalDependencies from its manifest (as n8n does).
 * @param {string} tarball
 * @param {string} dir
 * @returns {{ name: string, version: string }}
 */
function unpackWithoutDevDependencies(tarball, dir) {
	const untar = spawnSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], {
		encoding: 'utf8',
	});
	if (untar.status !== 0) throw new Error(`tar -xzf ${tarball} failed: ${untar.stderr}`);
	const manifestPath = path.join(dir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
		fs.readFileSync(manifestPath, 'utf8'),
	);
	(void devDependencies, void peerDependencies, void optionalDependencies);
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2), 'utf8');
	return manifest;
}

/**
 * Unpack the tarball into <userFolder>/.n8n/nodes/node_modules/<name>, `npm install --ignore-scripts`
 * inside it (installs runtime dependencies: none for this package), and record `<name>: <version>` in
 * <userFolder>/.n8n/nodes/package.json. Returns the package folder.
 * @param {string} userFolder
 * @param {string} tarball
 * @param {{ log?: (message: string) => void }} [options]
 */
function installPackage(userFolder, tarball, { log = () => {} } = {}) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(path.join(nodesDir, 'node_modules'), { recursive: true });
	const nodesManifestPath = path.join(nodesDir, 'package.json');
	const nodesManifest = readNodesManifest(nodesManifestPath);
	const staging = fs.mkdtempSync(path.join(nodesDir, '.unpack-'));
	try {
		const manifest = unpackWithoutDevDependencies(path.resolve(tarball), staging);
		const target = path.join(nodesDir, 'node_modules', manifest.name);
		fs.rmSync(target, { recursive: true, force: true });
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.renameSync(staging, target);
		log(`installing ${path.basename(tarball)} into ${target}`);
		const res = spawnSync('npm', NPM_INSTALL_ARGS, {
			cwd: target,
			encoding: 'utf8',
			env: { ...process.env },
		});
		if (res.status !== 0)
			throw new Error(`npm ${NPM_INSTALL_ARGS.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
		nodesManifest.dependencies[manifest.name] = manifest.version;
		fs.writeFileSync(nodesManifestPath, JSON.stringify(nodesManifest, null, 2), 'utf8');
		return target;
	} finally {
		fs.rmSync(staging, { recursive: true, force: true });
	}
}

module.exports = { installPackage };
