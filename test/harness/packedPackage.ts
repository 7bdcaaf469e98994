/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/* What every suite that tests the packed package uses: the tarball scripts/test.js packs once per run, temp folders. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

/** The packed package (TEST_TARBALL, set by scripts/test.js). */
export function tarball(): string {
	const file = process.env.TEST_TARBALL;
	if (!file || !fs.existsSync(file))
		throw new Error(
			'TEST_TARBALL is not set: run through scripts/test.js (node scripts/test.js e2e-2x, npm test, …)',
		);
	return file;
}

/** Removes `dir`, unless `keep` (default: E2E_KEEP=1) says to leave it for a look. */
export function removeUnlessKept(dir: string, keep = process.env.E2E_KEEP === '1'): void {
	if (keep) {
		process.stderr.write(`kept ${dir}\n`);
		return;
	}
	fs.rmSync(dir, { recursive: true, force: true });
}
