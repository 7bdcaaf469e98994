'use strict';

/** A sandbox setting that cannot work (a fault rule, a webhook or rate-limit setting): nothing changes. */
class SandboxOptionError extends Error {}

/**
 * `value` as a number of at least `min` (a whole one with `whole`); `fallback` when it is not given.
 * @param {unknown} value @param {number} fallback @param {string} name @param {number} min @param {boolean} [whole]
 */
function numberOption(value, fallback, name, min, whole = false) {
	if (value === undefined || value === null) return fallback;
	const n = Number(value);
	if (!Number.isFinite(n) || n < min || (whole && !Number.isInteger(n)))
		throw new SandboxOptionError(`${name} must be ${whole ? 'an integer' : 'a number'} >= ${min}`);
	return n;
}

module.exports = { SandboxOptionError, numberOption };
