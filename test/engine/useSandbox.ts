/** Set-up shared by the engine suites against the sandbox: one sandbox and harness per describe(). */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/server';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { TEST_CREDENTIAL_ID, createHarness, sandboxCredential } from '../harness/engine';
import type { Harness } from '../harness/engine';
import { until } from '../harness/until';

export interface Suite {
	sandbox: Sandbox;
	harness: Harness;
}

/**
 * A sandbox for the enclosing describe(), and a harness whose credential points at it (with `credential` on top).
 * Before each test, once no answer is still closing, the sandbox is reset and the credential set again (a test may
 * change it).
 */
export function useSandbox(options: SandboxOptions = {}, credential: IDataObject = {}): Suite {
	const suite = {} as Suite;
	beforeAll(async () => {
		suite.sandbox = await startSandbox(options);
		suite.harness = await createHarness({});
	});
	afterAll(async () => suite.sandbox.close());
	beforeEach(async () => {
		await until(() => suite.sandbox.stats().inFlight === 0);
		suite.sandbox.reset();
		suite.harness.credentials[TEST_CREDENTIAL_ID] = sandboxCredential(
			suite.sandbox.baseUrl,
			credential,
		);
	});
	return suite;
}
