/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/* What a project that starts a real n8n gets from jest.config.js: its `globals`. */
const { n8nVersion, testTimeoutMs } = globalThis as { n8nVersion?: string; testTimeoutMs?: number };
if (!n8nVersion || !testTimeoutMs)
	throw new Error(
		'globals.n8nVersion or testTimeoutMs is not set: run the real-n8n projects through scripts/test.js (node scripts/test.js e2e-2x, …)',
	);

/** The n8n version the project runs against. */
export const N8N_VERSION: string = n8nVersion;
/** The project's per-test time limit. */
export const TEST_TIMEOUT_MS: number = testTimeoutMs;
