/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { until } from '../harness/until';

/** The file's sandbox (or the describe block's): started before all tests, reset before each, closed after all. */
export function useSandbox(options?: SandboxOptions): Sandbox {
	const sandbox = {} as Sandbox;
	beforeAll(async () => {
		Object.assign(sandbox, await startSandbox(options));
	});
	afterAll(() => sandbox.close?.());
	beforeEach(() => sandbox.reset());
	return sandbox;
}

/** POST a JSON body to the sandbox API with its key and an Idempotency-Key. */
export function post(sb: Sandbox, path: string, key: string, body: unknown, signal?: AbortSignal) {
	return fetch(sb.baseUrl + path, {
		method: 'POST',
		headers: { 'Api-Key': sb.apiKey, 'content-type': 'application/json', 'Idempotency-Key': key },
		body: JSON.stringify(body),
		signal,
	});
}

/** POST a JSON body to a control endpoint. */
export const control = (sb: Sandbox, path: string, body: unknown) =>
	fetch(`${sb.url}/_sandbox/${path}`, { method: 'POST', body: JSON.stringify(body) });

export interface Received {
	headers: http.IncomingHttpHeaders;
	body: Buffer;
	url: string;
}

/** An answer of the receiver: a status (then the body "ok"), or the whole answer. */
export type ScriptedAnswer =
	| number
	| { status: number; headers?: Record<string, string>; body?: string };

/** A webhook destination on loopback that records requests and answers as scripted, one answer per request (then 200 "ok"). */
export async function startReceiver(answers: ScriptedAnswer[] = []) {
	const received: Received[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			received.push({ headers: req.headers, body: Buffer.concat(chunks), url: req.url ?? '' });
			const next = answers[received.length - 1] ?? 200;
			const answer = typeof next === 'number' ? { status: next } : next;
			res.writeHead(answer.status, answer.headers ?? {});
			res.end(answer.body ?? 'ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
		received,
		/** Resolves once `n` requests have arrived. */
		waitFor: (n: number) => until(() => received.length >= n),
		close() {
			server.closeAllConnections();
			return new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
