'use strict';
/**
 * Lets plain `node` require TypeScript (the harness from bench/, the property campaign of `npm run fuzz` and
 * `npm run mutants`) without ts-node: each .ts file is transpiled on load (no type check; `npm run build` and jest
 * do that). `transpile` is what it does to each file (test/property/mutantHook.ts applies a defect to a source
 * before it).
 */
const fs = require('node:fs');
const ts = require('typescript');

const compilerOptions = {
	module: ts.ModuleKind.CommonJS,
	target: ts.ScriptTarget.ES2022,
	esModuleInterop: true,
	isolatedModules: true,
};

/** TypeScript source as CommonJS JavaScript. @param {string} source @param {string} fileName */
const transpile = (source, fileName) =>
	ts.transpileModule(source, { fileName, compilerOptions }).outputText;

/** Node's loader for .ts files (`_compile` is Module's own, left out of its types). @param {NodeJS.Module} module @param {string} filename */
require.extensions['.ts'] = (module, filename) =>
	/** @type {{ _compile(code: string, filename: string): void }} */ (
		/** @type {unknown} */ (module)
	)._compile(transpile(fs.readFileSync(filename, 'utf8'), filename), filename);

module.exports = { transpile };
