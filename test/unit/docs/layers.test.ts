/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: reads the sources from disk and asks git which files the repository has */
/**
 * One direction of imports: every relative import, require and type import of the code (`@import` and
 * `import('…')` in JSDoc too) points from a layer to itself or to a layer below it, and no file reaches
 * itself through the imports that run (type imports are erased).
 *
 *   product  nodes/, credentials/, index.js
 *   sandbox  sandbox/: the service's stand-in
 *   harness  test/harness/: runs the product, n8n and the sandbox for everything above
 *   scripts  scripts/, bench/ and the configs: may use the harness, never a suite
 *   suites   test/*: may use everything below, scripts too (the packaging suite tests the release scripts)
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');
const LAYERS = ['product', 'sandbox', 'harness', 'scripts', 'suites'] as const;

function layerOf(file: string): (typeof LAYERS)[number] {
	if (/^(nodes|credentials)\/|^index\.js$/.test(file)) return 'product';
	if (file.startsWith('sandbox/')) return 'sandbox';
	if (file.startsWith('test/harness/')) return 'harness';
	if (file.startsWith('test/')) return 'suites';
	return 'scripts';
}

const CODE = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
	cwd: ROOT,
	encoding: 'utf8',
})
	.split('\n')
	.filter((file) => /\.(ts|js|mjs)$/.test(file) && fs.existsSync(path.join(ROOT, file)));

const SPECIFIER = /(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;
/** `import type … from '…'`, `@import … from '…'`: gone once compiled. */
const TYPE_ONLY = /(?:\bimport\s+type\b|@import\b)[^;'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]*)['"]/g;

/** The repository files `file` imports (with `runtime`, only through the imports that run). */
function importsOf(file: string, runtime = false): string[] {
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	const types = [...text.matchAll(TYPE_ONLY)].map((match) => match.index + match[0].length);
	const matches = [...text.matchAll(SPECIFIER)].filter(
		(match) =>
			!runtime ||
			(!types.includes(match.index + match[0].length) &&
				!/typeof\s+$|\{\s*$/.test(text.slice(Math.max(0, match.index - 8), match.index))),
	);
	return matches.flatMap(([, specifier]) => {
		const target = path.join(path.dirname(file), specifier);
		const found = ['', '.ts', '.js', '.d.ts', '/index.ts', '/index.js'].find((ending) =>
			CODE.includes(target + ending),
		);
		return found === undefined ? [] : [target + found];
	});
}

const GRAPH = new Map(CODE.map((file) => [file, importsOf(file)]));
const RUNTIME = new Map(CODE.map((file) => [file, importsOf(file, true)]));

test('the imports are read: the harness imports the product, a suite the harness', () => {
	expect(GRAPH.get('test/harness/engine.ts')).toEqual([]);
	expect(GRAPH.get('test/harness/verifier.ts')).toContain('nodes/TenantApiTrigger/receive.ts');
	expect(GRAPH.get('test/e2e/helpers.ts')).toContain('test/harness/sharedN8n.ts');
	expect(GRAPH.get('scripts/start.js')).toContain('test/harness/n8n/instance.js');
	// A type import counts for the layers, not for cycles: settings.ts imports coverage.ts, which imports a type back.
	expect(GRAPH.get('test/property/coverage.ts')).toContain('test/property/settings.ts');
	expect(RUNTIME.get('test/property/coverage.ts')).not.toContain('test/property/settings.ts');
	expect(RUNTIME.get('test/property/settings.ts')).toContain('test/property/coverage.ts');
});

test('every import points to its own layer or one below', () => {
	const upward = [...GRAPH].flatMap(([file, targets]) =>
		targets
			.filter((target) => LAYERS.indexOf(layerOf(target)) > LAYERS.indexOf(layerOf(file)))
			.map((target) => `${file} (${layerOf(file)}) → ${target} (${layerOf(target)})`),
	);
	expect(upward).toEqual([]);
});

test('no cycle of the imports that run', () => {
	const done = new Set<string>();
	const cycles: string[] = [];
	const visit = (file: string, stack: string[]) => {
		if (stack.includes(file)) cycles.push([...stack.slice(stack.indexOf(file)), file].join(' → '));
		if (done.has(file) || stack.includes(file)) return;
		for (const target of RUNTIME.get(file) ?? []) visit(target, [...stack, file]);
		done.add(file);
	};
	for (const file of RUNTIME.keys()) visit(file, []);
	expect(cycles).toEqual([]);
});
