'use strict';
/**
 * Lets plain `node` require the TypeScript test harness (test/harness/*.ts) without ts-node: each .ts
 * file is transpiled on load (no type check; `npm run build` and jest do that).
 */
const fs = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
	const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		fileName: filename,
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, isolatedModules: true },
	});
	module._compile(outputText, filename);
};
