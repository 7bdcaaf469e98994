/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/** Set-up shared by the badInput* engine suites: one sandbox and harness per suite, reset once no answer is still closing. */
import { startSandbox } from '../../sandbox/server';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { createHarness, sandboxCredential } from '../harness/engine';
import type { Harness } from '../harness/engine';

export interface Suite {
	sandbox: Sandbox;
	harness: Harness;
}

/**
 * Waits for something the sandbox will see: the node returns as soon as it has closed a connection,
 * and the server learns of it a moment later. If it never happens, the test fails on its timeout.
 */
export async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A sandbox for the enclosing describe(), reset before each test once no answer is still closing. */
export function useSandbox(options: SandboxOptions = {}): Suite {
	const suite = {} as Suite;
	beforeAll(async () => {
		suite.sandbox = await startSandbox(options);
		suite.harness = await createHarness(sandboxCredential(suite.sandbox.baseUrl));
	});
	afterAll(async () => suite.sandbox.close());
	beforeEach(async () => {
		await until(() => suite.sandbox.stats().inFlight === 0);
		suite.sandbox.reset();
	});
	return suite;
}
