const { src, dest } = require('gulp');

/**
 * tsc does not copy icons: n8n loads them from dist next to the compiled node and credential. These are
 * the static files `n8n-node build` copies (png, svg, __schema__ json), taken only from nodes/ and
 * credentials/: `n8n-node build` takes them from the whole tree, docs/screenshots included, which the
 * package does not ship.
 */
function copyStaticFiles() {
	return src(
		['{nodes,credentials}/**/*.{png,svg}', '{nodes,credentials}/**/__schema__/**/*.json'],
		{
			base: '.',
			encoding: false,
			allowEmpty: true,
		},
	).pipe(dest('dist'));
}

exports['build:icons'] = copyStaticFiles;
