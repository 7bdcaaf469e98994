'use strict';
/**
 * Lets plain `node` require the TypeScript test harness (test/harness/*.ts) without ts-node: each .ts
 * file is transpiled on load (no type check; `npm run build` and jest do that). `transpile` is what it
 * does to each file (test/property/mutantHook.ts applies a defect to a source before it).
 */
const fs = require('node:fs');
const ts = require('typescript');

/** TypeScript source as CommonJS JavaScript. @param {string} source @param {string} filename */
function transpile(source, filename) {
	return ts.transpileModule(source, {
		fileName: filename,
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
			isolatedModules: true,
		},
	}).outputText;
}

require.extensions['.ts'] = (module, filename) => {
	module._compile(transpile(fs.readFileSync(filename, 'utf8'), filename), filename);
};

module.exports = { transpile };
