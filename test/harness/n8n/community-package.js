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
 * @param {string} cmd
 * @param {string[]} args
 * @param {string} cwd
 */
function run(cmd, args, cwd) {
	const res = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
	if (res.status !== 0)
		throw new Error(`${cmd} ${args.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
}

/**
 * Unpack the tarball into <userFolder>/.n8n/nodes/node_modules/<name> without its dev, peer and optional
 * dependencies (as n8n does), `npm install --ignore-scripts` inside it (installs runtime dependencies: none for
 * this package), and record `<name>: <version>` in <userFolder>/.n8n/nodes/package.json. Returns the package folder.
 * @param {string} userFolder
 * @param {string} tarball
 * @param {{ log?: (message: string) => void }} [options]
 */
function installPackage(userFolder, tarball, { log = () => {} } = {}) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(path.join(nodesDir, 'node_modules'), { recursive: true });
	const staging = fs.mkdtempSync(path.join(nodesDir, '.unpack-'));
	try {
		run('tar', ['-xzf', path.resolve(tarball), '-C', staging, '--strip-components=1'], staging);
		const manifestPath = path.join(staging, 'package.json');
		const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
			fs.readFileSync(manifestPath, 'utf8'),
		);
		fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
		const target = path.join(nodesDir, 'node_modules', manifest.name);
		fs.rmSync(target, { recursive: true, force: true });
		fs.renameSync(staging, target);
		log(`installing ${path.basename(tarball)} into ${target}`);
		run('npm', NPM_INSTALL_ARGS, target);
		const nodesManifestPath = path.join(nodesDir, 'package.json');
		const nodesManifest = fs.existsSync(nodesManifestPath)
			? JSON.parse(fs.readFileSync(nodesManifestPath, 'utf8'))
			: { name: 'installed-nodes', private: true };
		nodesManifest.dependencies = {
			...nodesManifest.dependencies,
			[manifest.name]: manifest.version,
		};
		fs.writeFileSync(nodesManifestPath, JSON.stringify(nodesManifest, null, 2));
		return target;
	} finally {
		fs.rmSync(staging, { recursive: true, force: true });
	}
}

module.exports = { installPackage };
