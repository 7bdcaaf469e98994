/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The sandbox's hostile answers (used by the action node's bad-input tests): drip-fed bodies, gzip
 * bombs, slow commits that hold a key "in progress", echoed request headers, and a listing with no
 * end marker. Read with node:http so that nothing is decompressed or buffered behind our back.
 */
import * as http from 'node:http';
import { gunzipSync } from 'node:zlib';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { until } from '../harness/until';
import { api, post } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ accounts: 7 });
});
afterAll(() => sb.close());
beforeEach(() => {
	sb.reset();
	sb.setPagination('cursor');
});

interface RawResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
}

/** GET with the key; reads until the end, or until `stopAfter` bytes and then closes the connection. */
function rawGet(path: string, stopAfter = Number.POSITIVE_INFINITY): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const req = http.get(`${sb.baseUrl}${path}`, { headers: { 'api-key': sb.apiKey } }, (res) => {
			const chunks: Buffer[] = [];
			let size = 0;
			const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
			res.on('data', (chunk: Buffer) => {
				chunks.push(chunk);
				size += chunk.length;
				if (size >= stopAfter) {
					req.destroy();
					done();
				}
			});
			res.on('end', done);
		});
		req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
	});
}

describe('hostile answers', () => {
	it('drip: the whole answer arrives, byte by byte, with its Content-Length', async () => {
		sb.setFaults([{ method: 'GET', times: 1, action: { drip: { intervalMs: 5, bytesPerTick: 64 } } }]);
		const res = await rawGet('/accounts?limit=2');
		expect(res.status).toBe(200);
		expect(Number(res.headers['content-length'])).toBe(res.body.length);
		expect(JSON.parse(res.body.toString()).data.map((a: { id: string }) => a.id)).toEqual(['acc_0001', 'acc_0002']);
		expect(sb.stats().answersCutShort).toBe(0);
	});

	it('drip, endless: spaces follow the answer until the client leaves, which is counted', async () => {
		sb.setFaults([{ method: 'GET', times: 1, action: { drip: { intervalMs: 1, bytesPerTick: 256, endless: true } } }]);
		const res = await rawGet('/accounts?limit=1', 4096);
		expect(res.headers['content-length']).toBeUndefined();
		const text = res.body.toString();
		expect(text.trimEnd()).toMatch(/^\{"data":\[\{"id":"acc_0001"/);
		expect(text.length).toBeGreaterThanOrEqual(4096);
		await until(() => sb.stats().answersCutShort === 1);
	});

	it('drip on a POST commits first: the record exists whatever happens to the answer', async () => {
		sb.setFaults([{ method: 'POST', times: 1, action: { drip: { intervalMs: 1, bytesPerTick: 1024 } } }]);
		const res = await post(sb, '/transfers', 'drip-1', { amount: 1 });
		expect(res.status).toBe(201);
		expect((await res.json()).amount).toBe(1);
		expect(sb.stats().records).toBe(1);
	});

	it('gzipBomb: gzip-encoded JSON, about 1 KiB on the wire per MiB inflated', async () => {
		sb.setFaults([{ method: 'GET', times: 1, action: { gzipBomb: { inflatedMiB: 8 } } }]);
		const res = await rawGet('/accounts');
		expect(res.headers['content-encoding']).toBe('gzip');
		expect(res.body.length).toBeLessThan(16 * 1024);
		const inflated = gunzipSync(res.body);
		expect(inflated.length).toBe(8 * 1024 * 1024 + 2);
		expect(JSON.parse(inflated.toString())).toEqual([]);
	});

	it('gzipBomb, endless: members follow until the client leaves', async () => {
		sb.setFaults([{ method: 'GET', times: 1, action: { gzipBomb: { endless: true } } }]);
		const res = await rawGet('/accounts', 200 * 1024);
		expect(res.body.length).toBeGreaterThanOrEqual(200 * 1024);
		await until(() => sb.stats().answersCutShort === 1);
	});

	it('commitDelayMs: the key is "in progress" (409 idempotency_key_in_use) until the commit, then replays', async () => {
		sb.setFaults([{ method: 'POST', times: 1, action: { commitDelayMs: 300 } }]);
		const first = post(sb, '/transfers', 'slow-1', { amount: 1 });
		await until(() => sb.stats().postsInProgress === 1);
		const meanwhile = await post(sb, '/transfers', 'slow-1', { amount: 1 });
		expect(meanwhile.status).toBe(409);
		expect((await meanwhile.json()).error).toEqual({ code: 'idempotency_key_in_use', message: expect.stringMatching(/in-progress request/) });
		expect(sb.stats().records).toBe(0);
		expect((await first).status).toBe(201);
		const after = await post(sb, '/transfers', 'slow-1', { amount: 1 });
		expect(after.headers.get('idempotent-replayed')).toBe('true');
		expect(sb.stats()).toMatchObject({ records: 1, postsInProgress: 0 });
	});

	it('echoRequest: the success answer carries the request headers, the Api-Key included', async () => {
		sb.setFaults([{ method: 'POST', times: 1, action: { echoRequest: true } }]);
		const res = await post(sb, '/transfers', 'echo-1', { amount: 1 });
		const body = await res.json();
		expect(body).toMatchObject({ amount: 1, request: { method: 'POST', headers: { 'api-key': sb.apiKey } } });
		expect(sb.stats().records).toBe(1);
	});

	it('pageNoTotals: {data, page} pages and nothing but an empty page marks the end', async () => {
		sb.setPagination('pageNoTotals');
		const pages = [];
		for (let page = 1; page <= 3; page++) pages.push(await (await api(sb, `/accounts?limit=3&page=${page}`)).json());
		expect(pages.map((body) => body.data.length)).toEqual([3, 3, 1]);
		expect(Object.keys(pages[0])).toEqual(['data', 'page']);
		expect(pages.map((body) => body.page)).toEqual([1, 2, 3]);
		expect((await (await api(sb, '/accounts?limit=3&page=4')).json()).data).toEqual([]);
	});
});
