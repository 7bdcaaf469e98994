/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * What a project that starts a real n8n gets from jest.config.js (its `globals`) and from scripts/test.js
 * (TEST_TARBALL: the package, built and packed once per run).
 */
import * as fs from 'node:fs';

interface RealN8nGlobals {
	n8nVersion?: string;
	testTimeoutMs?: number;
}

const projectGlobals = globalThis as RealN8nGlobals;

function required<T>(value: T | undefined, name: string): T {
	if (value === undefined)
		throw new Error(
			`${name} is not set: run the real-n8n projects through jest.config.js (npm run e2e, …)`,
		);
	return value;
}

/** The n8n version the project runs against. */
export const N8N_VERSION: string = required(projectGlobals.n8nVersion, 'globals.n8nVersion');

/** The project's per-test time limit. */
export const TEST_TIMEOUT_MS: number = required(
	projectGlobals.testTimeoutMs,
	'globals.testTimeoutMs',
);

/** The packed package every real-n8n project installs. */
export function tarball(): string {
	const file = process.env.TEST_TARBALL;
	if (!file || !fs.existsSync(file))
		throw new Error(
			'TEST_TARBALL is not set: run through scripts/test.js (npm run e2e, npm test, …)',
		);
	return file;
}
