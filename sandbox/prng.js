'use strict';

/**
 * A small deterministic pseudo-random generator (mulberry32): the same seed gives the same floats in [0, 1).
 * The sandbox's seeded faults and latency jitter use it, and so do the tests and benchmarks that need one.
 * @param {number} [seed]
 */
function createPrng(seed = 1) {
	let a = seed >>> 0;
	return function next() {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

module.exports = { createPrng };
