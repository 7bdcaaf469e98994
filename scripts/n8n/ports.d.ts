/** Type declarations for ports.js (kept by hand; the JS file is the source of truth). */
export declare const HOST: '127.0.0.1';
/** A free port p on 127.0.0.1 with p + 1 … p + run - 1 free too. */
export declare function freePort(options?: { run?: number }): Promise<number>;
export declare function portFree(port: number): Promise<boolean>;
