const { src, dest } = require('gulp');

/** tsc does not copy SVG icons; n8n loads them from dist next to the compiled node and credential. */
function copyIcons() {
	return src(['nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.', encoding: false }).pipe(dest('dist'));
}

exports['build:icons'] = copyIcons;
