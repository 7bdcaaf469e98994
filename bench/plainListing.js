'use strict';
/**
 * A plain client listing the sandbox's accounts by cursor, for bench/listingN8n.js: the floor a node in n8n is
 * compared with (bench/run.js lists with `listAll` and undici). Runs in a process of its own on n8n's Node, with one
 * JSON argument { baseUrl, apiKey, tenantId, pageSize, accounts, client: 'fetch' | 'http-new-agent' }, and prints
 * { pages, coldMs, warmMs }: the first listing of the process (cold, as each `n8n execute` is a new process) and the
 * second. `http-new-agent`: a new agent per request and JSON.parse of the body, what n8n's helper does underneath.
 */
const http = require('node:http');

/** One listing of every account by `get(url)` (a page's JSON): its time and pages. */
async function listAll(get, { baseUrl, pageSize, accounts }) {
	const started = performance.now();
	const all = [];
	let pages = 0;
	for (let cursor = ''; cursor !== undefined; pages++) {
		const query = new URLSearchParams({ limit: String(pageSize), ...(cursor ? { cursor } : {}) });
		const page = await get(`${baseUrl}/accounts?${query}`);
		for (const account of page.data) all.push(account);
		cursor = page.has_more ? page.next_cursor : undefined;
	}
	if (all.length !== accounts) throw new Error(`${all.length} accounts listed`);
	return { ms: performance.now() - started, pages };
}

const main = async (options) => {
	const headers = {
		'api-key': options.apiKey,
		'x-tenant-id': options.tenantId,
		accept: 'application/json',
	};
	const get = {
		fetch: async (url) => {
			const res = await fetch(url, { headers });
			if (res.status !== 200) throw new Error(`status ${res.status}`);
			return await res.json();
		},
		'http-new-agent': (url) =>
			new Promise((resolve, reject) =>
				http
					.get(url, { headers, agent: new http.Agent() }, (res) => {
						const chunks = [];
						res.on('data', (chunk) => chunks.push(chunk));
						res.on('end', () =>
							res.statusCode === 200
								? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
								: reject(new Error(`status ${res.statusCode}`)),
						);
						res.on('error', reject);
					})
					.on('error', reject),
			),
	}[options.client];

	const cold = await listAll(get, options);
	const warm = await listAll(get, options);
	process.stdout.write(
		`${JSON.stringify({ pages: cold.pages, coldMs: cold.ms, warmMs: warm.ms })}\n`,
	);
};

module.exports = { listAll };

if (require.main === module)
	main(JSON.parse(process.argv[2])).catch((error) => {
		process.stderr.write(`${error.stack}\n`);
		process.exit(1);
	});
