/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/** What a project that starts a real n8n gets from jest.config.js: its `globals`. */
interface RealN8nGlobals {
	n8nVersion?: string;
	testTimeoutMs?: number;
}

const projectGlobals = globalThis as RealN8nGlobals;

function required<T>(value: T | undefined, name: string): T {
	if (value === undefined)
		throw new Error(
			`${name} is not set: run the real-n8n projects through scripts/test.js (node scripts/test.js e2e-2x, …)`,
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
