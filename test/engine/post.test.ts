/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { postTransfer } from '../harness/engine';
import { useSandbox } from './useSandbox';

/*
 * Request → POST inside WorkflowExecute: no redirect followed. A plain run's records, keys and output order are
 * proven by soak.test.ts (one record per item, keyed by the key its output item reports, paired with its input),
 * the keys' UUID shape by exactlyOnce.test.ts, the output without Include Metadata by send.test.ts; retries (in the
 * node and by Retry On Fail) in soak.test.ts, 429s in rateLimit.test.ts, keys across executions and business keys
 * in exactlyOnce.test.ts, error answers, refused Endpoints and Base URLs and secrets echoed back with and without
 * Continue On Fail in badInput.test.ts.
 */

describe('Tenant API node: Request → POST, inside WorkflowExecute', () => {
	const suite = useSandbox();

	it('refuses a redirect instead of following it: the Api-Key never leaves the Base URL', async () => {
		let decoyHits = 0;
		const decoy = createServer((_req, res) => {
			decoyHits++;
			res.end('{}');
		});
		await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
		try {
			const location = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}/steal`;
			suite.sandbox.setFaults([{ method: 'POST', action: { status: 307, headers: { location } } }]);
			const { error } = await postTransfer(suite.harness, {});
			expect(error?.message).toMatch(/redirect/);
			expect(decoyHits).toBe(0);
		} finally {
			await new Promise<void>((resolve) => decoy.close(() => resolve()));
		}
	});
});
