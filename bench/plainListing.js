'use strict';
/**
 * A plain client listing the sandbox's accounts by cursor, for bench/listingN8n.js: the floor a node
 * in n8n is compared with. Run in a process of its own on n8n's Node, with one JSON argument
 *   { baseUrl, apiKey, tenantId, pageSize, accounts, client: 'fetch' | 'http-new-agent' }
 * and prints one JSON line: { pages, coldMs, warmMs } — the first listing of the process (cold, as
 * each `n8n execute` is a new process) and the second one (warm).
 *   fetch           Node's fetch (undici), keep-alive: what a plain client does;
 *   http-new-agent  node:http with a new http.Agent per request and JSON.parse of the body: what n8n's
 *                   helper does underneath (a new agent, so a new connection, per request), without
 *                   axios and without n8n.
 */
const http = require('node:http');

const options = JSON.parse(process.argv[2]);

function headers() {
	return { 'api-key': options.apiKey, 'x-tenant-id': options.tenantId, accept: 'application/json' };
}

async function getWithFetch(url) {
	const res = await fetch(url, { headers: headers() });
	if (res.status !== 200) throw new Error(`status ${res.status}`);
	return await res.json();
}

function getWithNewAgent(url) {
	return new Promise((resolve, reject) => {
		const req = http.get(url, { headers: headers(), agent: new http.Agent() }, (res) => {
			const chunks = [];
			res.on('data', (chunk) => chunks.push(chunk));
			res.on('end', () => {
				if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
				else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
			});
			res.on('error', reject);
		});
		req.on('error', reject);
	});
}

const get = { fetch: getWithFetch, 'http-new-agent': getWithNewAgent }[options.client];

/** One listing of every account; resolves { ms, pages }. */
async function listAll() {
	const started = performance.now();
	const all = [];
	let pages = 0;
	let cursor;
	do {
		const query = new URLSearchParams({
			limit: String(options.pageSize),
			...(cursor ? { cursor } : {}),
		});
		const page = await get(`${options.baseUrl}/accounts?${query}`);
		pages++;
		for (const account of page.data) all.push(account);
		cursor = page.has_more ? page.next_cursor : undefined;
	} while (cursor);
	if (all.length !== options.accounts) throw new Error(`${all.length} accounts listed`);
	return { ms: performance.now() - started, pages };
}

(async () => {
	const cold = await listAll();
	const warm = await listAll();
	process.stdout.write(
		`${JSON.stringify({ pages: cold.pages, coldMs: cold.ms, warmMs: warm.ms })}\n`,
	);
})().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});
