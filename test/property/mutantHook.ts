/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- preloaded into a command-line run: fs, path, process */
/**
 * Preloaded (`node -r`) by test/property/mutants.ts after test/harness/register-ts.js: the product sources load with the
 * defect of defects.ts that TENANT_API_MUTANT names applied, in memory (nothing on disk changes). Exits 3 when a file
 * of the defect was never loaded.
 */
import { readFileSync } from 'fs';
import { relative, resolve } from 'path';

import { transpile } from '../harness/register-ts';

import { DEFECTS, patched } from './defects';

const ROOT = resolve(__dirname, '../..');
const defect = DEFECTS.find((candidate) => candidate.name === process.env.TENANT_API_MUTANT);
if (defect === undefined)
	throw new Error(
		`TENANT_API_MUTANT names no defect of test/property/defects.ts: ${process.env.TENANT_API_MUTANT}`,
	);

const unloaded = new Set(defect.patches.map((patch) => patch.file));
type Compiled = NodeJS.Module & { _compile(code: string, filename: string): void };

require.extensions['.ts'] = (module, filename) => {
	const file = relative(ROOT, filename);
	unloaded.delete(file);
	(module as Compiled)._compile(
		transpile(patched(defect, file, readFileSync(filename, 'utf8')), filename),
		filename,
	);
};

process.on('exit', () => {
	if (unloaded.size === 0) return;
	process.stderr.write(`defect "${defect.name}": never loaded: ${[...unloaded].join(', ')}\n`);
	process.exitCode = 3;
});
