/** TypeScript source as CommonJS JavaScript, as bench/register-ts.js transpiles each .ts file it loads. */
export declare function transpile(source: string, filename: string): string;
