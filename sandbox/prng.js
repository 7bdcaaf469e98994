'use strict';

/**
 * Small deterministic PRNG (mulberry32) so fault injection is reproducible from a seed: a function returning
 * floats in [0, 1).
 * @param {number|string} [seed]
 */
function createPrng(seed = 1) {
	let a = typeof seed === 'number' ? seed >>> 0 : hashString(String(seed));
	return function next() {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * FNV-1a 32-bit hash, used to turn string seeds into numbers.
 * @param {string} s
 */
function hashString(s) {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

module.exports = { createPrng };
