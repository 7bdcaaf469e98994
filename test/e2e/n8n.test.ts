/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The packed package inside a real n8n (N8N_E2E_VERSION, default 2.40.7), installed into
 * <userFolder>/.n8n/nodes the way n8n's community installer does, against the sandbox.
 */
import * as fs from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { INodeTypeDescription } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/server';
import { sign } from '../../sandbox/signing';
import type { N8nInstance } from '../../scripts/n8n/instance';
import { type ApiExecution, type SuiteSetUp, VERSION, WEBHOOK_SECRET, hmacHex, nodeOutput, publishTrigger, readExample, setUpSuite, sleep, successfulExecution, triggerWebhookPath } from './helpers';

const LIST = readExample('list-accounts');
const POST = readExample('post-with-idempotency');
const TRIGGER = readExample('webhook-trigger');
const WEBHOOK_PATH = triggerWebhookPath(TRIGGER);

describe(`n8n ${VERSION} with the packed package`, () => {
	let suite: SuiteSetUp | undefined;
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let userFolder: string;

	beforeAll(async () => {
		suite = await setUpSuite({ name: '', webhookPath: WEBHOOK_PATH, examples: true });
		({ sandbox, n8n, userFolder } = suite);
	});

	afterAll(() => suite?.tearDown());

	test('the tarball is installed as a community package (no dependencies pulled in)', () => {
		const dir = path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-tenant-api');
		const installed = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		expect(installed.name).toBe('n8n-nodes-tenant-api');
		for (const f of installed.n8n.nodes) expect(fs.existsSync(path.join(dir, f))).toBe(true);
		// Only our package under .n8n/nodes/node_modules (n8n-workflow is a peer and not installed).
		const modules = fs.readdirSync(path.join(userFolder, '.n8n', 'nodes', 'node_modules')).filter((d) => !d.startsWith('.'));
		expect(modules).toEqual(['n8n-nodes-tenant-api']);
	});

	test('n8n execute: list accounts returns 50 accounts from the sandbox', async () => {
		const before = sandbox.stats().requests;
		const { code, data } = await n8n.execute(LIST.id);
		expect(code).toBe(0);
		expect(data.data.resultData.error).toBeUndefined();
		const items = nodeOutput(data, 'List accounts');
		expect(items).toHaveLength(50);
		expect(items[0]).toEqual(expect.objectContaining({ id: 'acc_0001', object: 'account' }));
		expect(new Set(items.map((i) => i.id)).size).toBe(50);
		expect(sandbox.stats().requests).toBeGreaterThan(before);
	});

	test('n8n execute: POST with idempotency creates 3 records; a re-run creates none', async () => {
		sandbox.reset();
		const first = await n8n.execute(POST.id);
		expect(first.code).toBe(0);
		expect(first.data.data.resultData.error).toBeUndefined();
		const out1 = nodeOutput(first.data, 'Create transfer');
		expect(out1).toHaveLength(3);

		const records = sandbox.records();
		expect(records).toHaveLength(3);
		expect(records.map((r) => r.idempotency_key).sort()).toEqual(['order-1001', 'order-1002', 'order-1003']);
		expect(records.map((r) => r.endpoint)).toEqual(['/transfers', '/transfers', '/transfers']);
		expect(records.map((r) => r.order_id).sort()).toEqual(['1001', '1002', '1003']);
		expect(records.find((r) => r.order_id === '1003')?.amount).toBe(12000);

		const second = await n8n.execute(POST.id);
		expect(second.code).toBe(0);
		const out2 = nodeOutput(second.data, 'Create transfer');
		expect(out2).toHaveLength(3);
		const stats = sandbox.stats();
		expect(stats.records).toBe(3);
		expect(stats.distinctIdempotencyKeys).toBe(3);
		expect(stats.replays).toBeGreaterThanOrEqual(3);
		// The replayed responses describe the same records.
		expect(JSON.stringify(out2.map((o) => o.id))).toBe(JSON.stringify(out1.map((o) => o.id)));

		// The control API tells the same story to a separate process.
		const remote = await (await fetch(`${sandbox.url}/_sandbox/stats`)).json();
		expect(remote.records ?? remote.data?.records).toBe(3);
	});

	describe('n8n start with the trigger workflow published', () => {
		let url: string;

		beforeAll(async () => {
			await n8n.start();
			url = n8n.url;
			await n8n.waitForWebhook(WEBHOOK_PATH);
		});

		async function executions(): Promise<ApiExecution[]> {
			const res = await n8n.api<{ data: ApiExecution[] }>('GET', `/executions?workflowId=${TRIGGER.id}&includeData=true&limit=50`);
			if (res.status !== 200) throw new Error(`GET /api/v1/executions -> ${res.status}: ${res.text}`);
			return res.json?.data ?? [];
		}

		async function waitForExecutions(count: number, timeoutMs = 30000): Promise<ApiExecution[]> {
			const deadline = Date.now() + timeoutMs;
			let list: ApiExecution[] = [];
			while (Date.now() < deadline) {
				list = await executions();
				if (list.length >= count && list.every((e) => e.finished || e.status === 'success' || e.status === 'error')) return list;
				await sleep(500);
			}
			return list;
		}

		test('both node types are loaded under the package name', async () => {
			const res = await n8n.request<INodeTypeDescription[]>('GET', '/types/nodes.json', { cookie: n8n.cookie });
			expect(res.status).toBe(200);
			const names = (res.json ?? []).map((t) => t.name);
			expect(names).toEqual(expect.arrayContaining(['n8n-nodes-tenant-api.tenantApi', 'n8n-nodes-tenant-api.tenantApiTrigger']));
			expect(names.some((n) => n.startsWith('CUSTOM.'))).toBe(false);
		});

		test("the credential's Test button goes through its authenticate function: Api-Key sent, x-tenant-id only when set", async () => {
			const seen: Array<IncomingHttpHeaders & { url?: string }> = [];
			let status = 200;
			const recorder = createServer((req, res) => {
				seen.push({ ...req.headers, url: req.url });
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(status === 200 ? '{"data":[],"has_more":false}' : '{"error":{"code":"unauthorized","message":"Invalid or missing API key"}}');
			});
			await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
			const baseUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/v1`;
			// The stored example credential, tested with the values typed in the dialog (as the editor sends them).
			const testWith = async (data: Record<string, string>) => {
				const res = await n8n.request<{ data: { status: string; message: string } }>('POST', '/rest/credentials/test', {
					cookie: n8n.cookie,
					body: { credentials: { id: 'tenantApiDemo', name: 'Tenant API (sandbox)', type: 'tenantApi', data: { environment: 'sandbox', baseUrl, ...data } } },
				});
				expect(res.status).toBe(200);
				if (!res.json) throw new Error(`POST /rest/credentials/test answered no JSON: ${res.text}`);
				return res.json.data;
			};
			try {
				expect(await testWith({ secretKey: 'sk_e2e_button', tenantId: 'tenant_e2e' })).toMatchObject({ status: 'OK' });
				expect(await testWith({ secretKey: 'sk_e2e_button', tenantId: '' })).toMatchObject({ status: 'OK' });
				status = 401;
				expect(await testWith({ secretKey: 'sk_e2e_wrong', tenantId: '' })).toMatchObject({ status: 'Error' });
				const sent = seen.map((headers) => [headers.url, headers['api-key'], headers['x-tenant-id']]);
				expect(sent.slice(0, 2)).toEqual([
					['/v1/accounts', 'sk_e2e_button', 'tenant_e2e'],
					['/v1/accounts', 'sk_e2e_button', undefined],
				]);
				// n8n (1.x and 2.x) sends a request refused with 401 once more (its pre-authentication retry).
				expect(sent.length).toBeGreaterThanOrEqual(3);
				for (const request of sent.slice(2)) expect(request).toEqual(['/v1/accounts', 'sk_e2e_wrong', undefined]);
			} finally {
				await new Promise<void>((resolve) => recorder.close(() => resolve()));
			}
		});

		test('the trigger workflow is active', async () => {
			const res = await n8n.api<{ active: boolean }>('GET', `/workflows/${TRIGGER.id}`);
			expect(res.status).toBe(200);
			expect(res.json?.active).toBe(true);
		});

		test('a signed delivery starts one successful execution carrying the payload', async () => {
			const event = { id: `evt_e2e_${Date.now()}`, type: 'transfer.created', data: { order_id: '1001', amount: 2500 } };
			const body = Buffer.from(JSON.stringify(event));
			const res = await fetch(url + WEBHOOK_PATH, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-signature': hmacHex(WEBHOOK_SECRET, body) },
				body,
			});
			expect(res.status).toBe(200);
			const list = await waitForExecutions(1);
			expect(list).toHaveLength(1);
			expect(list[0].status).toBe('success');
			const runData = list[0].data.resultData.runData;
			const triggerOut = JSON.stringify(runData['Tenant API Trigger'][0].data?.main[0]);
			expect(triggerOut).toContain(event.id);
			expect(triggerOut).toContain('transfer.created');
			expect(JSON.stringify(runData['Received'][0].data?.main[0])).toContain(event.id);
			// The delivery identity later nodes read (docs/trigger.md "Delivery identity").
			expect(runData['Tenant API Trigger'][0].data?.main[0]?.[0]?.json.webhookDelivery).toEqual({
				id: event.id,
				idSource: 'body:id',
				timestamp: null,
				verification: 'hmacSha256',
				secret: 'current',
				bodyType: 'json',
			});
		});

		test("the sandbox's own signed delivery is accepted too", async () => {
			const result = await sandbox.deliver('transfer.created');
			expect(result.status).toBe(200);
			const list = await waitForExecutions(2);
			expect(list).toHaveLength(2);
			expect(list.every((e) => e.status === 'success')).toBe(true);
		});

		test('a forged delivery gets 401 and starts no execution', async () => {
			const before = (await executions()).length;
			const body = Buffer.from(JSON.stringify({ id: 'evt_forged', type: 'transfer.created', data: { amount: 1 } }));
			const forged = await fetch(url + WEBHOOK_PATH, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-signature': hmacHex('not-the-secret', body) },
				body,
			});
			expect(forged.status).toBe(401);
			const unsigned = await fetch(url + WEBHOOK_PATH, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body,
			});
			expect(unsigned.status).toBe(401);
			await sleep(2000);
			const after = await executions();
			expect(after).toHaveLength(before);
			expect(JSON.stringify(after)).not.toContain('evt_forged');
		});

		test('form-urlencoded: the JSON trigger answers a signed form 415 and starts nothing (Body Format decides, never the Content-Type)', async () => {
			const before = (await executions()).length;
			const body = Buffer.from('id=evt_form_1&event=transfer.created&amount=1250&note=caf%C3%A9+au+lait');
			const res = await fetch(url + WEBHOOK_PATH, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-signature': hmacHex(WEBHOOK_SECRET, body) },
				body,
			});
			expect(res.status).toBe(415);
			await sleep(1000);
			expect(await executions()).toHaveLength(before);
		});

		test('form-urlencoded with Body Format Form Fields: n8n keeps the raw bytes, the trigger verifies them and outputs the fields', async () => {
			const credential = { id: 'tenantWebhookDemo', name: 'Tenant Webhook (sandbox)' };
			const parameters = { verification: 'hmacSha256', bodyFormat: 'form' };
			const { workflowId, path } = await publishTrigger(n8n, { name: 'Tenant API: form trigger', webhookId: '3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d', parameters, credential });
			const body = Buffer.from('id=evt_form_1&event=transfer.created&amount=1250&note=caf%C3%A9+au+lait');
			const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-signature': hmacHex(WEBHOOK_SECRET, body) };
			expect((await fetch(url + path, { method: 'POST', headers, body })).status).toBe(200);
			const run = await successfulExecution(n8n, workflowId);
			expect(run.data.resultData.runData['Tenant API Trigger'][0].data?.main[0]?.[0]?.json).toEqual({
				id: 'evt_form_1',
				event: 'transfer.created',
				amount: '1250',
				note: 'café au lait',
				webhookDelivery: expect.objectContaining({ id: 'evt_form_1', bodyType: 'form' }),
			});
		});

		test('multipart/form-data gets 401 (n8n consumes it before the trigger runs), never a 5xx; signed XML gets 415', async () => {
			const before = (await executions()).length;
			const form = new FormData();
			form.append('id', 'evt_multipart');
			const multipart = await fetch(url + WEBHOOK_PATH, { method: 'POST', body: form });
			expect(multipart.status).toBe(401);
			expect(await multipart.json()).toEqual({ message: 'Invalid signature' });
			const xml = Buffer.from('<event>transfer.created</event>');
			const unsupported = await fetch(url + WEBHOOK_PATH, {
				method: 'POST',
				headers: { 'content-type': 'application/xml', 'x-signature': hmacHex(WEBHOOK_SECRET, xml) },
				body: xml,
			});
			expect(unsupported.status).toBe(415);
			await sleep(1000);
			expect(await executions()).toHaveLength(before);
		});

		test('Standard Webhooks with its own Tenant Webhook API credential (created through the public API): the signed webhook-id is the identity', async () => {
			const secret = `whsec_${Buffer.from(`e2e standard webhooks ${VERSION}`).toString('base64')}`;
			const cred = await n8n.api<{ id: string; name: string }>('POST', '/credentials', { name: 'Tenant Webhook (Standard Webhooks)', type: 'tenantWebhookApi', data: { signingSecret: secret, previousSigningSecret: '' } });
			expect(cred.status).toBe(200);
			const credential = { id: cred.json?.id, name: cred.json?.name };
			const { workflowId, path } = await publishTrigger(n8n, {
				name: 'Tenant API: Standard Webhooks trigger',
				webhookId: '7d1f3c2a-4b5e-4f60-8a71-92b3c4d5e6f7',
				parameters: { verification: 'standardWebhooks' },
				credential,
			});
			const event = { id: 'evt_std_1', type: 'transfer.created', data: { amount: 1250 } };
			const body = Buffer.from(JSON.stringify(event));
			const ts = Math.floor(Date.now() / 1000);
			const headers = { 'content-type': 'application/json', ...sign({ secret, scheme: 'standard-webhooks', body, timestamp: ts, id: 'msg_e2e_1' }) };
			expect((await fetch(url + path, { method: 'POST', headers, body })).status).toBe(200);
			expect((await fetch(url + path, { method: 'POST', headers: { ...headers, 'webhook-id': 'msg_e2e_2' }, body })).status).toBe(401);
			const run = await successfulExecution(n8n, workflowId);
			const json = run.data.resultData.runData['Tenant API Trigger'][0].data?.main[0]?.[0]?.json;
			expect(json?.webhookDelivery).toEqual({ id: 'msg_e2e_1', idSource: 'header:webhook-id', timestamp: ts, verification: 'standardWebhooks', secret: 'current', bodyType: 'json' });
		});
	});
});
