/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../../sandbox/server';

/** Call the sandbox API with the right key (override headers to test auth). */
export function api(
	sb: Sandbox,
	path: string,
	init: {
		method?: string;
		headers?: Record<string, string>;
		body?: string;
		signal?: AbortSignal;
	} = {},
) {
	return fetch(sb.baseUrl + path, {
		method: init.method ?? 'GET',
		headers: { 'Api-Key': sb.apiKey, ...(init.headers ?? {}) },
		body: init.body,
		signal: init.signal,
	});
}

/** POST a JSON body with an Idempotency-Key. */
export function post(
	sb: Sandbox,
	path: string,
	key: string | undefined,
	body: unknown,
	extra: { signal?: AbortSignal } = {},
) {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (key !== undefined) headers['Idempotency-Key'] = key;
	return api(sb, path, {
		method: 'POST',
		headers,
		body: typeof body === 'string' ? body : JSON.stringify(body),
		signal: extra.signal,
	});
}

export function control(sb: Sandbox, path: string, body?: unknown) {
	return fetch(
		sb.url + '/_sandbox/' + path,
		body === undefined
			? {}
			: {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				},
	);
}

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
	let waiters: Array<{ n: number; resolve: () => void }> = [];
	const queue = answers.slice();
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			received.push({ headers: req.headers, body: Buffer.concat(chunks), url: req.url ?? '' });
			const next = queue.length ? (queue.shift() as ScriptedAnswer) : 200;
			const answer = typeof next === 'number' ? { status: next } : next;
			res.writeHead(answer.status, answer.headers ?? {});
			res.end(answer.body ?? 'ok');
			waiters = waiters.filter((w) => {
				if (received.length >= w.n) w.resolve();
				return received.length < w.n;
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		/** Resolve once `n` requests have arrived (rejects after `ms`). */
		waitFor(n: number, ms = 3000) {
			if (received.length >= n) return Promise.resolve();
			return new Promise<void>((resolve, reject) => {
				const t = setTimeout(
					() => reject(new Error(`only ${received.length} of ${n} deliveries arrived`)),
					ms,
				);
				waiters.push({
					n,
					resolve: () => {
						clearTimeout(t);
						resolve();
					},
				});
			});
		},
		close() {
			server.closeAllConnections();
			return new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
