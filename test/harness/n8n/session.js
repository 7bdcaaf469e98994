'use strict';
/* Talking to a running n8n over HTTP: readiness, the owner, login, an API key, its public API, webhooks. */
const { sleep } = require('./process-group');

/**
 * @template [T=unknown]
 * @typedef {{ status: number, headers: Headers, text: string, json: T|undefined }} HttpJson `json`: undefined if not JSON
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
		// not JSON: json stays undefined
	}
	return { status: res.status, headers: res.headers, text, json };
}

/**
 * /healthz/readiness answers once the database is migrated; with `settings` also /rest/settings as JSON
 * (until migrations finish other routes answer "n8n is starting up"). The webhook processor has no REST API.
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
 * `check()` every `intervalMs` until it returns something (not undefined, null or false), or throws after `timeoutMs`.
 * @template T
 * @param {() => Promise<T | undefined | null | false>} check
 * @param {string} what
 * @returns {Promise<T>}
 */
async function poll(check, what, { timeoutMs = 30000, intervalMs = 500 } = {}) {
	for (const deadline = Date.now() + timeoutMs; ; await sleep(intervalMs)) {
		const found = await check();
		if (found !== undefined && found !== null && found !== false) return found;
		if (Date.now() > deadline) throw new Error(`${what} after ${timeoutMs / 1000} s`);
	}
}

/**
 * Poll `ready()` until it is true; throws when `child` exits first or after `timeoutMs`.
 * @param {import('./process-group').GroupChild} child
 * @param {() => Promise<boolean>} ready
 * @param {{ timeoutMs: number, what: string }} options
 */
async function waitReady(child, ready, { timeoutMs, what }) {
	const state = async () =>
		child.exitInfo ? 'exited' : (await ready().catch(() => false)) && 'ready';
	if ((await poll(state, `${what} not ready`, { timeoutMs })) === 'exited')
		throw new Error(`${what} exited (${JSON.stringify(child.exitInfo)}) before it was ready`);
}

/**
 * The owner (unless a reused user folder already has one: logging in then proves the password), its
 * `n8n-auth` login cookie and a new API key.
 * @param {string} baseUrl
 * @param {Owner} owner
 * @param {string} label
 */
async function openSession(baseUrl, owner, label) {
	const setup = await httpJson(`${baseUrl}/rest/owner/setup`, { method: 'POST', body: owner });
	if (setup.status !== 200 && !(setup.status === 400 && /already/i.test(setup.text)))
		throw new Error(`POST /rest/owner/setup -> ${setup.status}: ${setup.text.slice(0, 500)}`);
	const cookie = await login(baseUrl, owner);
	return { cookie, apiKey: await createApiKey(baseUrl, cookie, label) };
}

/**
 * The `n8n-auth` cookie.
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
	const answered = async () => {
		const res = await fetch(baseUrl + webhookPath, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		await res.arrayBuffer();
		return res.status !== 404;
	};
	await poll(answered, `${webhookPath} still 404`, { timeoutMs }).catch((err) => {
		throw new Error(`${err.message}\n${context()}`);
	});
}

/**
 * `n8n`: an instance or a queue-mode cluster. Resolves the workflow's id.
 * @param {{ api: ApiCall }} n8n
 * @param {{ name: string } & Record<string, unknown>} workflow
 */
async function createWorkflow(n8n, workflow) {
	/** @type {HttpJson<{ id?: string }>} */
	const created = await n8n.api('POST', '/workflows', workflow);
	if (created.status !== 200 || !created.json?.id)
		throw new Error(`creating "${workflow.name}" answered ${created.status}: ${created.text}`);
	return created.json.id;
}

/**
 * createWorkflow, then activated (published).
 * @param {{ api: ApiCall }} n8n
 * @param {{ name: string } & Record<string, unknown>} workflow
 */
async function createActiveWorkflow(n8n, workflow) {
	const id = await createWorkflow(n8n, workflow);
	const activated = await n8n.api('POST', `/workflows/${id}/activate`);
	if (activated.status !== 200)
		throw new Error(
			`activating "${workflow.name}" answered ${activated.status}: ${activated.text}`,
		);
	return id;
}

/**
 * @typedef {{ id: string, status: string, mode?: string, finished?: boolean,
 *   data?: import('n8n-workflow').IRunExecutionData }} ApiExecution an execution as n8n's public API returns it
 *   (`data` only with `includeData=true`)
 */

/**
 * A workflow's executions (`query`: `includeData`, `status`…). One page holds more than any workflow of
 * the suites has: a second page is an error.
 * @param {{ api: ApiCall }} n8n
 * @param {string} workflowId
 * @param {Record<string, string>} [query]
 * @returns {Promise<ApiExecution[]>}
 */
async function listExecutions(n8n, workflowId, query = {}) {
	const q = new URLSearchParams({ workflowId, limit: '250', ...query });
	/** @type {HttpJson<{ data: ApiExecution[], nextCursor?: string | null }>} */
	const res = await n8n.api('GET', `/executions?${q}`);
	if (res.status !== 200 || !res.json || res.json.nextCursor)
		throw new Error(`GET /api/v1/executions?${q} -> ${res.status}: ${res.text.slice(0, 300)}`);
	return res.json.data;
}

/**
 * An error when n8n does not list it (yet).
 * @param {{ api: ApiCall }} n8n
 * @param {string} id
 * @returns {Promise<ApiExecution>}
 */
async function getExecution(n8n, id, includeData = false) {
	/** @type {HttpJson<ApiExecution>} */
	const res = await n8n.api('GET', `/executions/${id}?includeData=${includeData}`);
	if (res.status !== 200 || !res.json)
		throw new Error(`GET /api/v1/executions/${id} -> ${res.status}: ${res.text.slice(0, 300)}`);
	return res.json;
}

module.exports = {
	DEFAULT_OWNER,
	isReady,
	waitReady,
	login,
	httpJson,
	openSession,
	publicApi,
	waitForWebhook,
	createWorkflow,
	createActiveWorkflow,
	poll,
	listExecutions,
	getExecution,
};
