/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The README's manual install (`cd ~/.n8n/nodes && npm install n8n-nodes-tenant-api`), offline: the
 * packed tarball stands for the registry's copy, npm gets an empty cache and --offline, so it can
 * install nothing but the tarball.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface NpmRun {
	status: number | null;
	stdout: string;
	stderr: string;
}

/** `npm install <tarball>` in `folder` (created if missing), offline, with an empty cache of its own. */
export function npmInstallOffline(folder: string, tarball: string): NpmRun {
	fs.mkdirSync(folder, { recursive: true });
	const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-npm-cache-'));
	try {
		const res = spawnSync(
			'npm',
			['install', tarball, '--offline', `--cache=${cache}`, '--no-audit', '--no-fund'],
			{
				cwd: folder,
				encoding: 'utf8',
			},
		);
		return { status: res.status, stdout: res.stdout, stderr: res.stderr };
	} finally {
		fs.rmSync(cache, { recursive: true, force: true });
	}
}

/** Packages in `<folder>/node_modules` (scoped ones as @scope/name), npm's own files left out. */
export function installedPackages(folder: string): string[] {
	const modules = path.join(folder, 'node_modules');
	if (!fs.existsSync(modules)) return [];
	return fs
		.readdirSync(modules)
		.filter((name) => !name.startsWith('.'))
		.flatMap((name) =>
			name.startsWith('@')
				? fs.readdirSync(path.join(modules, name)).map((sub) => `${name}/${sub}`)
				: [name],
		)
		.sort();
}
