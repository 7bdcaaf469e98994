/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * What the published tarball contains, and the offline part of n8n's community package scan.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, tarball } from './helpers';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

describe('packaging', () => {
	test('npm pack lists only dist/**, index.js, README.md, LICENSE and package.json', () => {
		const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
		const files: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
		const topLevel = ['index.js', 'README.md', 'LICENSE', 'package.json'];
		const unexpected = files.filter((f) => !/^dist\//.test(f) && !topLevel.includes(f));
		expect(unexpected).toEqual([]);
		expect(files).toEqual(expect.arrayContaining(topLevel));
		expect(files).toContain(pkg.main);
		for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(files).toContain(entry);
		// no tests, sources maps of tests, or TypeScript sources (declarations are fine)
		expect(files.filter((f) => /\.test\.|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
	});

	test('no runtime dependencies; n8n-workflow only as a peer', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts?.[s]).toBeUndefined();
	});

	test('@n8n/scan-community-package analyzePackage passes on the source and the tarball', () => {
		let out: string;
		try {
			out = execFileSync(process.execPath, [path.join(ROOT, 'scripts/scan-package.mjs'), '--json', '--tarball', tarball()], {
				cwd: ROOT,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe'],
				env: { ...process.env, NODE_ENV: '' },
			});
		} catch (err) {
			out = String((err as { stdout?: string }).stdout ?? '');
		}
		const result = JSON.parse(out.trim().split('\n').pop() as string);
		const report = [result.source.details, result.tarball.details].filter(Boolean).join('\n');
		if (!result.passed) throw new Error(`scan failed:\n${result.source.message ?? ''} ${result.tarball.message ?? ''}\n${report}`);
		expect(result.source.passed).toBe(true);
		expect(result.tarball.passed).toBe(true);
	});
});
