/** Type declarations for prng.js (kept by hand; the JS file is the source of truth). */
/** mulberry32: a function returning floats in [0, 1), the same sequence for the same seed (a string seed is hashed). */
export declare function createPrng(seed?: number | string): () => number;
