'use strict';
/*
 * Talking to a running n8n over HTTP: readiness, the owner account, login, an API key, the public and
 * internal APIs, production webhooks.
 *
 *   await waitReady(url, { exited: () => child.exitInfo });
 *   const { cookie, apiKey } = await openSession(url, DEFAULT_OWNER, 'e2e');   // owner, login, API key
 *   await publicApi(url, apiKey)('GET', '/executions?workflowId=…');
 */
const { sleep } = require('./process-group');

/**
 * @template [T=unknown]
 * @typedef {{ status: number, headers: Headers, text: string, json: T|undefined }} HttpJson an answer: `json` is
 *   the body parsed, undefined when it is not JSON
 */
/** @typedef {{ email: string, password: string, firstName: string, lastName: string }} Owner */
/**
 * A call of n8n's public API (`/api/v1` + path).
 * @typedef {<T = unknown>(method: string, urlPath: string, body?: unknown) => Promise<HttpJson<T>>} ApiCall
 */

/** @type {Owner} */
const DEFAULT_OWNER = {
	email: 'owner@tenant-api.test',
	password: 'Sandbox-Owner-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

/**
 * fetch with a JSON body; the answer as text and, when it parses, as JSON.
 * @template [T=unknown]
 * @param {string} url
 * @param {{ method?: string, body?: unknown, headers?: Record<string, string> }} [options]
 * @returns {Promise<HttpJson<T>>}
 */
async function httpJson(url, { method = 'GET', body, headers = {} } = {}) {
	const res = await fetch(url, {
		method,
		headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		// not JSON (or empty): json stays undefined
	}
	return { status: res.status, headers: res.headers, text, json };
}

/**
 * Whether n8n at `baseUrl` is ready: /healthz/readiness answers once the database is migrated; with
 * `settings` also /rest/settings, as JSON (before migrations finish every other route answers "n8n is
 * starting up"). Processes without the REST API (webhook processor) are ready at readiness.
 * @param {string} baseUrl
 */
async function isReady(baseUrl, { settings = true } = {}) {
	try {
		const res = await fetch(`${baseUrl}/healthz/readiness`);
		await res.arrayBuffer();
		if (res.status !== 200) return false;
		if (!settings) return true;
		const s = await fetch(`${baseUrl}/rest/settings`);
		return s.status === 200 && (await s.text()).startsWith('{');
	} catch {
		return false; // not listening yet
	}
}

/**
 * Poll `ready()` every 500 ms: resolves true once it is, false as soon as `exited()` reports that the
 * process is gone; throws after `timeoutMs`.
 * @param {() => Promise<boolean>} ready
 * @param {{ exited: () => unknown, timeoutMs: number, what: string }} options
 */
async function waitUntil(ready, { exited, timeoutMs, what }) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (exited()) return false;
		if (await ready().catch(() => false)) return true;
		if (Date.now() > deadline) throw new Error(`${what} not ready after ${timeoutMs / 1000} s`);
		await sleep(500);
	}
}

/**
 * POST /rest/owner/setup; 'existing' when a reused user folder already has an owner.
 * @param {string} baseUrl
 * @param {Owner} owner
 */
async function setupOwner(baseUrl, owner) {
	const res = await httpJson(`${baseUrl}/rest/owner/setup`, { method: 'POST', body: owner });
	if (res.status === 200) return 'created';
	// Already set up: logging in afterwards proves the password is still right.
	if (res.status === 400 && /already/i.test(res.text)) return 'existing';
	throw new Error(`POST /rest/owner/setup -> ${res.status}: ${res.text.slice(0, 500)}`);
}

/**
 * POST /rest/login; resolves the `n8n-auth` cookie.
 * @param {string} baseUrl
 * @param {Owner} owner
 */
async function login(baseUrl, owner) {
	const res = await httpJson(`${baseUrl}/rest/login`, {
		method: 'POST',
		body: { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
	});
	const cookie = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	if (res.status !== 200 || !cookie)
		throw new Error(`POST /rest/login -> ${res.status}: ${res.text.slice(0, 500)}`);
	return cookie;
}

/**
 * POST /rest/api-keys with every scope the owner may grant (newer versions require an explicit list).
 * @param {string} baseUrl
 * @param {string} cookie
 * @param {string} label
 */
async function createApiKey(baseUrl, cookie, label) {
	/** @type {HttpJson<{ data?: unknown } | undefined>} */
	const scopesRes = await httpJson(`${baseUrl}/rest/api-keys/scopes`, { headers: { cookie } });
	const scopes = scopesRes.status === 200 ? (scopesRes.json?.data ?? scopesRes.json) : undefined;
	const body = {
		label: `${label}-${Date.now()}`,
		expiresAt: null,
		...(Array.isArray(scopes) ? { scopes } : {}),
	};
	/** @type {HttpJson<{ rawApiKey?: string, data?: { rawApiKey?: string } }>} */
	const res = await httpJson(`${baseUrl}/rest/api-keys`, {
		method: 'POST',
		body,
		headers: { cookie },
	});
	const data = res.json?.data ?? res.json;
	if (res.status !== 200 || !data?.rawApiKey)
		throw new Error(`POST /rest/api-keys -> ${res.status}: ${res.text.slice(0, 500)}`);
	return data.rawApiKey;
}

/**
 * Owner (created or existing), login cookie and a new API key.
 * @param {string} baseUrl
 * @param {Owner} owner
 * @param {string} label
 */
async function openSession(baseUrl, owner, label) {
	await setupOwner(baseUrl, owner);
	const cookie = await login(baseUrl, owner);
	const apiKey = await createApiKey(baseUrl, cookie, label);
	return { cookie, apiKey };
}

/**
 * n8n's public API (`/api/v1` + path) with `X-N8N-API-KEY`.
 * @param {string} baseUrl
 * @param {string} apiKey
 * @returns {ApiCall}
 */
function publicApi(baseUrl, apiKey) {
	return (method, urlPath, body) =>
		httpJson(`${baseUrl}/api/v1${urlPath}`, { method, body, headers: { 'X-N8N-API-KEY': apiKey } });
}

/**
 * Production webhooks are registered while n8n activates published workflows, which can finish after
 * the REST API answers: resolves once `webhookPath` stops answering 404.
 * @param {string} baseUrl
 * @param {string} webhookPath
 * @param {{ timeoutMs?: number, context?: () => string }} [options]
 */
async function waitForWebhook(
	baseUrl,
	webhookPath,
	{ timeoutMs = 60000, context = () => '' } = {},
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await fetch(baseUrl + webhookPath, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		await res.arrayBuffer();
		if (res.status !== 404) return;
		if (Date.now() > deadline)
			throw new Error(`${webhookPath} still 404 after ${timeoutMs / 1000} s\n${context()}`);
		await sleep(500);
	}
}

/**
 * Creates a workflow through n8n's public API and activates it (publishes it); resolves with its id.
 * `n8n` is anything with the public API's `api(method, path, body)`: an instance, a queue-mode cluster.
 * @param {{ api: ApiCall }} n8n
 * @param {{ name: string } & Record<string, unknown>} workflow
 */
async function createActiveWorkflow(n8n, workflow) {
	/** @type {HttpJson<{ id?: string }>} */
	const created = await n8n.api('POST', '/workflows', workflow);
	if (created.status !== 200 || !created.json?.id)
		throw new Error(`creating "${workflow.name}" answered ${created.status}: ${created.text}`);
	const activated = await n8n.api('POST', `/workflows/${created.json.id}/activate`);
	if (activated.status !== 200)
		throw new Error(
			`activating "${workflow.name}" answered ${activated.status}: ${activated.text}`,
		);
	return created.json.id;
}

module.exports = {
	DEFAULT_OWNER,
	httpJson,
	isReady,
	waitUntil,
	login,
	openSession,
	publicApi,
	waitForWebhook,
	createActiveWorkflow,
};
