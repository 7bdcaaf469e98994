/** Set-up shared by the badInput* engine suites: one sandbox and harness per suite, reset once no answer is still closing. */
import { startSandbox } from '../../sandbox/server';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { createHarness, sandboxCredential } from '../harness/engine';
import type { Harness } from '../harness/engine';
import { until } from '../harness/until';

export interface Suite {
	sandbox: Sandbox;
	harness: Harness;
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
