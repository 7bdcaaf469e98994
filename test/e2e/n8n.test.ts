/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The packed package inside a real n8n (that of e2e-2x or e2e-1x), installed into <userFolder>/.n8n/nodes
 * the way n8n's community installer does (what lands there: test/packaging/install.test.ts), against the sandbox:
 * what n8n itself does around the nodes. The nodes' own behaviour (listing, keys, every verification, refusals and
 * their diagnosis, 415s and 400s the trigger decides) is proven in test/engine; here: n8n loads and runs them, the
 * examples, its credential tester, the executions it lists, the trigger's answer as n8n sends it (what `npm start`
 * prints for its first delivery), its body parser (raw bytes kept for forms, multipart consumed, 422 for JSON that
 * does not parse), a refused delivery recorded by the editor's test run (1.x and 2.x start it differently), and in
 * production a workflow saved with a Verification this version no longer has: every delivery refused, the refusal
 * recorded as an execution of its own (Record Refused Deliveries; what it records: test/engine/trigger.test.ts).
 */
import * as crypto from 'node:crypto';
import * as zlib from 'node:zlib';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/server';
import {
	type ApiExecution,
	type CredentialRef,
	VERSION,
	WEBHOOK_SECRET,
	exampleWorkflow,
	executionsUntil,
	hmacHex,
	nodeOutput,
	publishTrigger,
	runManually,
	sandboxCredentials,
	sessionLib,
	projectN8n,
	startSandbox,
	startLib,
	startManualRun,
	TRIGGER_TYPE,
	workflows,
} from './helpers';

describe(`n8n ${VERSION} with the packed package`, () => {
	let sandbox: Sandbox;
	const n8n = projectN8n();
	const url = n8n.url;
	let credentials: Record<'tenantApi' | 'tenantWebhookApi', CredentialRef>;
	/** The example webhook-trigger.json, published. */
	let trigger: { workflowId: string; path: string };

	beforeAll(async () => {
		sandbox = await startSandbox();
		credentials = await sandboxCredentials(n8n, sandbox, 'n8n.test');
	});

	afterAll(() => sandbox?.close());

	test("the example post-with-idempotency, run from the editor: 3 records under the Code node's business keys", async () => {
		sandbox.reset();
		const id = await sessionLib.createWorkflow(
			n8n,
			exampleWorkflow('post-with-idempotency', credentials),
		);
		const run = await runManually(n8n, id, "When clicking 'Execute workflow'");
		expect([run.status, run.data.resultData.error]).toEqual(['success', undefined]);
		expect(nodeOutput(run, 'Create transfer')).toHaveLength(3);
		const records = sandbox.records();
		expect(records.map((r) => [r.endpoint, r.order_id, r.idempotency_key]).sort()).toEqual([
			['/transfers', '1001', 'order-1001'],
			['/transfers', '1002', 'order-1002'],
			['/transfers', '1003', 'order-1003'],
		]);
		expect(records.find((r) => r.order_id === '1003')?.amount).toBe(12000);
		// The control API tells the same story to a separate process.
		const remote = await (await fetch(`${sandbox.url}/_sandbox/stats`)).json();
		expect(remote.records ?? remote.data?.records).toBe(3);
	});

	describe('the example trigger published', () => {
		beforeAll(async () => {
			trigger = await publishTrigger(n8n, exampleWorkflow('webhook-trigger', credentials));
			// From now on the sandbox delivers its events (a record created, `npm start`'s first delivery) there.
			sandbox.configureWebhook({
				url: url + trigger.path,
				secrets: [WEBHOOK_SECRET],
				scheme: 'hmac-sha256-hex',
			});
		});

		const post = (path: string, body: string, headers: Record<string, string> = {}) =>
			fetch(url + path, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body,
			});
		const signedPost = (path: string, body: string, headers: Record<string, string> = {}) =>
			post(path, body, { 'x-signature': hmacHex(WEBHOOK_SECRET, body), ...headers });

		/** Tenant API Trigger (`parameters`) → (Verified) NoOp "Verified", (Refused) NoOp "Refused", with the example webhook credential. */
		function verifiedAndRefused(name: string, parameters: IDataObject = {}) {
			const { node, chain } = workflows;
			const trigger = node('Trigger', TRIGGER_TYPE, parameters, {
				webhookId: crypto.randomUUID(),
				credentials: { tenantWebhookApi: credentials.tenantWebhookApi },
			});
			const to = (nodeName: string) => [{ node: nodeName, type: 'main', index: 0 }];
			const flow = chain(name, [trigger], {
				connections: { Trigger: { main: [to('Verified'), to('Refused')] } },
			});
			const noOps = ['Verified', 'Refused'].map((nodeName) =>
				node(nodeName, 'n8n-nodes-base.noOp'),
			);
			return { ...flow, nodes: [...flow.nodes, ...noOps] };
		}
		const ran = (execution: ApiExecution, node: string) =>
			execution.data.resultData.runData[node] !== undefined;
		const refusedItem = (execution: ApiExecution) =>
			execution.data.resultData.runData.Trigger[0].data?.main[1]?.[0]?.json as IDataObject;
		const FORGED_BODY = JSON.stringify({
			id: 'evt_forged',
			event: 'transfers.created',
			note: 'never in a diagnosis',
		});
		const forged = (path: string) =>
			post(path, FORGED_BODY, { 'x-signature': hmacHex('whsec_forged', FORGED_BODY) });

		test("the credential's Test button goes through its authenticate function: Api-Key sent, x-tenant-id only when set", async () => {
			const seen: string[][] = [];
			let status = 200;
			const recorder = createServer((req, res) => {
				seen.push([req.url, req.headers['api-key'], req.headers['x-tenant-id']].map(String));
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(
					status === 200 ? '{"data":[],"has_more":false}' : '{"error":{"code":"unauthorized"}}',
				);
			});
			await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
			const baseUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/v1`;
			// The stored example credential, tested with the values typed in the dialog (as the editor sends them).
			const testWith = async (secretKey: string, tenantId: string) => {
				const data = { environment: 'sandbox', baseUrl, secretKey, tenantId };
				const res = await n8n.request<{ data: { status: string } }>(
					'POST',
					'/rest/credentials/test',
					{
						cookie: n8n.cookie,
						body: { credentials: { ...credentials.tenantApi, type: 'tenantApi', data } },
					},
				);
				return [res.status, res.json?.data.status];
			};
			try {
				expect(await testWith('sk_e2e_button', 'tenant_e2e')).toEqual([200, 'OK']);
				expect(await testWith('sk_e2e_button', '')).toEqual([200, 'OK']);
				status = 401;
				expect(await testWith('sk_e2e_wrong', '')).toEqual([200, 'Error']);
				// n8n (1.x and 2.x) sends a request refused with 401 once more (its pre-authentication retry).
				expect(seen).toEqual([
					['/v1/accounts', 'sk_e2e_button', 'tenant_e2e'],
					['/v1/accounts', 'sk_e2e_button', 'undefined'],
					...seen.slice(2).map(() => ['/v1/accounts', 'sk_e2e_wrong', 'undefined']),
				]);
				expect(seen.length).toBeGreaterThanOrEqual(3);
			} finally {
				await new Promise<void>((resolve) => recorder.close(() => resolve()));
			}
		});

		test("the published example: a signed delivery starts one successful execution carrying the payload, named by the body's SHA-256; forged and unsigned ones get 401 and start none", async () => {
			expect(
				(await n8n.api<{ active: boolean }>('GET', `/workflows/${trigger.workflowId}`)).json
					?.active,
			).toBe(true);
			expect((await forged(trigger.path)).status).toBe(401);
			expect((await post(trigger.path, FORGED_BODY)).status).toBe(401);
			const event = {
				id: `evt_e2e_${Date.now()}`,
				type: 'transfer.created',
				data: { order_id: '1001', amount: 2500 },
			};
			expect((await signedPost(trigger.path, JSON.stringify(event))).status).toBe(200);
			// The refused requests were answered before the signed one was sent: the one execution listed is the signed one's.
			const list = await executionsUntil(n8n, trigger.workflowId, (ended) => ended.length >= 1);
			expect(list.map((execution) => execution.status)).toEqual(['success']);
			const runData = list[0].data.resultData.runData;
			const triggerOut = JSON.stringify(runData['Tenant API Trigger'][0].data?.main[0]);
			expect(triggerOut).toContain(event.id);
			expect(triggerOut).toContain('transfer.created');
			expect(JSON.stringify(runData['Received'][0].data?.main[0])).toContain(event.id);
			// The delivery identity later nodes read (docs/trigger.md "Delivery identity"): without Delivery ID Fields,
			// the SHA-256 of the bytes, whatever the body holds.
			expect(runData['Tenant API Trigger'][0].data?.main[0]?.[0]?.json.webhookDelivery).toEqual({
				id: crypto.createHash('sha256').update(JSON.stringify(event)).digest('hex'),
				idSource: 'body:sha256',
				timestamp: null,
				verification: 'hmacSha256',
				secret: 'current',
				bodyType: 'json',
			});
		});

		test("npm start's first delivery: the sandbox's event is answered on receipt with an empty 200 and runs the example", async () => {
			const before = (await executionsUntil(n8n, trigger.workflowId, () => true)).length;
			expect(await startLib.firstDelivery(sandbox)).toMatch(
				/^first delivery evt_\d+: delivered after 1 attempt\(s\) \[answer: 200, no Content-Type, empty body\]$/,
			);
			const list = await executionsUntil(n8n, trigger.workflowId, (ended) => ended.length > before);
			expect(list.map((execution) => execution.status)).toEqual(
				Array<string>(before + 1).fill('success'),
			);
		});

		test('form-urlencoded with Body Format Form Fields: n8n keeps the raw bytes, the trigger verifies them and outputs the fields', async () => {
			const credential = credentials.tenantWebhookApi;
			const parameters = { verification: 'hmacSha256', bodyFormat: 'form' };
			const formTrigger = workflows.node('Tenant API Trigger', TRIGGER_TYPE, parameters, {
				webhookId: crypto.randomUUID(),
				credentials: { tenantWebhookApi: credential },
			});
			const { workflowId, path } = await publishTrigger(
				n8n,
				workflows.chain('Tenant API: form trigger', [formTrigger]),
			);
			const body = 'id=evt_form_1&event=transfer.created&amount=1250&note=caf%C3%A9+au+lait';
			expect(
				(await signedPost(path, body, { 'content-type': 'application/x-www-form-urlencoded' }))
					.status,
			).toBe(200);
			const [run] = await executionsUntil(n8n, workflowId, (list) => list.length >= 1);
			expect(run.status).toBe('success');
			expect(run.data.resultData.runData['Tenant API Trigger'][0].data?.main[0]?.[0]?.json).toEqual(
				{
					id: 'evt_form_1',
					event: 'transfer.created',
					amount: '1250',
					note: 'café au lait',
					webhookDelivery: expect.objectContaining({
						id: crypto.createHash('sha256').update(body).digest('hex'),
						idSource: 'body:sha256',
						bodyType: 'form',
					}),
				},
			);
		});

		test("n8n's body parser before the trigger: multipart/form-data is consumed (no bytes to authenticate: the trigger answers 401, never a 5xx), invalid JSON gets n8n's 422; neither starts anything; a gzip body signed over its JSON is inflated by n8n and verified", async () => {
			const { workflowId, path } = await publishTrigger(n8n, verifiedAndRefused('Body parser'));
			const form = new FormData();
			form.append('id', 'evt_multipart');
			const multipart = await fetch(url + path, { method: 'POST', body: form });
			expect([multipart.status, await multipart.json()]).toEqual([
				401,
				{ message: 'Invalid signature' },
			]);
			expect((await signedPost(path, '{"event":')).status).toBe(422);
			// gzip on the wire, the signature over the JSON: n8n inflates the body before the trigger reads its bytes.
			const json = JSON.stringify({ id: 'evt_gzip', event: 'transfers.created' });
			const gzipped = await fetch(url + path, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'content-encoding': 'gzip',
					'x-signature': hmacHex(WEBHOOK_SECRET, json),
				},
				body: zlib.gzipSync(json),
			});
			expect(gzipped.status).toBe(200);
			// The others were answered before it was sent: the one execution listed is the gzipped one's.
			const executions = await executionsUntil(n8n, workflowId, (list) =>
				list.some((e) => ran(e, 'Verified')),
			);
			expect(executions.map((e) => [ran(e, 'Verified'), ran(e, 'Refused')])).toEqual([
				[true, false],
			]);
			expect(executions[0].data.resultData.runData.Trigger[0].data?.main[0]?.[0]?.json.id).toBe(
				'evt_gzip',
			);
		});

		test("the Test URL: the refusal is answered 401, recorded on the Refused output of the editor's run with its diagnosis, and nothing runs from Verified", async () => {
			const workflow = verifiedAndRefused('Refusals at the Test URL');
			const { webhookId } = workflow.nodes[0];
			const workflowId = await sessionLib.createWorkflow(n8n, workflow);
			const listening = await startManualRun(n8n, workflowId, 'Trigger');
			expect([listening.status, listening.json]).toEqual([
				200,
				{ data: { waitingForWebhook: true } },
			]);

			const answer = await forged(`/webhook-test/${webhookId}/webhook`);
			expect([answer.status, await answer.json()]).toEqual([401, { message: 'Invalid signature' }]);
			const [execution] = await executionsUntil(n8n, workflowId, (list) => list.length >= 1);
			expect(execution.status).toBe('success');
			expect([ran(execution, 'Verified'), ran(execution, 'Refused')]).toEqual([false, true]);
			expect(refusedItem(execution)).toMatchObject({
				reason: 'signature_mismatch',
				answered: 401,
				url: 'Test URL',
				secretsTried: ['current'],
			});
			expect(JSON.stringify(refusedItem(execution))).not.toContain('never in a diagnosis');
		});

		test('production, a workflow saved with a Verification this version no longer has (twilio): a signed delivery is refused 401, nothing runs from Verified; with Record Refused Deliveries the refusal is an execution of its own, from the Refused output', async () => {
			const { workflowId, path } = await publishTrigger(
				n8n,
				verifiedAndRefused('Removed Verification', {
					verification: 'twilio',
					options: { recordRefusals: true },
				}),
			);
			const body = JSON.stringify({ event: 'transfers.created', data: { amount: 1 } });
			const answer = await signedPost(path, body);
			expect([answer.status, await answer.json()]).toEqual([401, { message: 'Invalid signature' }]);
			// The refusal is recorded from the same request: once it is listed, every execution that request started is.
			const executions = await executionsUntil(n8n, workflowId, (list) =>
				list.some((e) => ran(e, 'Refused')),
			);
			expect(executions.map((e) => [ran(e, 'Verified'), ran(e, 'Refused')])).toEqual([
				[false, true],
			]);
			expect(refusedItem(executions[0])).toMatchObject({
				reason: 'unknown_verification',
				answered: 401,
				url: 'Production URL',
			});
		});
	});
});
