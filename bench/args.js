'use strict';
/**
 * The benchmarks' command lines: `--kebab-name value` (or `--kebab-name=value`) sets `kebabName` of `defaults`, read
 * as the default's kind: a number, a comma-separated list (of numbers when the default's are), a flag (a boolean
 * default: no value), text otherwise.
 * @template {Record<string, unknown>} T
 * @param {string[]} argv @param {T} defaults @returns {T}
 */
function parseArgs(argv, defaults) {
	/** @type {Record<string, unknown>} */
	const args = { ...defaults };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=');
		const name = flag.replace(/^--/, '').replace(/-(\w)/g, (_, c) => c.toUpperCase());
		if (!(name in defaults)) throw new Error(`unknown option ${flag}`);
		const kind = defaults[name];
		if (typeof kind === 'boolean') args[name] = true;
		else {
			const value = inline ?? argv[++i];
			if (typeof kind === 'number') args[name] = Number(value);
			else if (Array.isArray(kind))
				args[name] = value.split(',').map((v) => (typeof kind[0] === 'number' ? Number(v) : v));
			else args[name] = value;
		}
	}
	return /** @type {T} */ (args);
}

module.exports = { parseArgs };
