'use strict';
/*
 * A real n8n instance for end-to-end tests and `npm start`.
 *
 *   const { createInstance } = require('./scripts/n8n/instance');
 *   const n8n = createInstance({ version: '2.40.7', userFolder, port: 5678, tarball });
 *   await n8n.installPackage();                 // <userFolder>/.n8n/nodes, like n8n's installer
 *   await n8n.cli(['import:credentials', '--input=creds.json']);
 *   await n8n.publish('workflowId');           // publish:workflow (2.x) / update:workflow --active=true (1.x)
 *   const { url, apiKey, cookie } = await n8n.start();   // n8n start, owner, login, API key
 *   await n8n.waitForWebhook('/webhook/<id>/webhook'); // production webhook registered
 *   await n8n.stop();
 *
 * `startInstance(opts)` does installPackage (when a tarball is given) + start in one call.
 * Ports: `n8n start` takes `port` and its task-runner broker `port + 1`; CLI commands that run
 * workflows (`execute`) start their own broker on `port + 2`, so they can run beside the server.
 * Options: version, userFolder, port, tarball, host (listen address, default 127.0.0.1),
 * publicHost (for editor/webhook URLs, default localhost), encryptionKey, owner, env (extra env), log.
 * Everything n8n prints goes to <userFolder>/n8n.log (CLI commands: <userFolder>/cli.log);
 * failures include the tail of that log.
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');
const installer = require('./install');

/** Process groups still running; killed if this process exits without stopping them. */
const liveGroups = new Set();
process.on('exit', () => {
	for (const pgid of liveGroups) {
		try {
			process.kill(-pgid, 'SIGKILL');
		} catch {
			/* already gone */
		}
	}
});

const DEFAULT_OWNER = {
	email: 'owner@tenant-api.test',
	password: 'Sandbox-Owner-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

/**
 * n8n modules that call n8n's servers on their own, per major version: 2.40.7 fetches its MCP server
 * registry (api.n8n.io) at start. 1.x has no such module and refuses to start when
 * N8N_DISABLED_MODULES names a module it does not know, hence per version.
 * test/e2e/offline.test.ts proves the list complete: n8n runs under scripts/n8n/netguard.js.
 */
const ONLINE_MODULES = { 1: [], 2: ['mcp-registry'] };

/**
 * THE environment that keeps n8n on loopback and quiet; every n8n the project starts (e2e, browser,
 * `npm start`, bench, queue mode) gets it. See README "What `npm start` and the tests set".
 * @param {string} version n8n version, e.g. 2.40.7
 */
function offlineEnv(version) {
	const major = Number(String(version).split('.')[0]);
	const modules = ONLINE_MODULES[major];
	if (!modules) throw new Error(`offlineEnv: no list of online modules for n8n ${version}`);
	return {
		...(modules.length ? { N8N_DISABLED_MODULES: modules.join(',') } : {}),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
	};
}

function tail(file, lines = 60) {
	try {
		const text = fs.readFileSync(file, 'utf8').split('\n');
		return text.slice(-lines).join('\n');
	} catch {
		return `(no log at ${file})`;
	}
}

function sleep(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

/**
 * Parse the JSON document that `n8n execute --rawOutput` prints (JSON.stringify(run, null, 2)):
 * it starts at a line that is exactly "{" and ends at a line that is exactly "}"; log lines may
 * come before or after it.
 */
function parseRawOutput(stdout) {
	const lines = stdout.split('\n').map((l) => l.replace(/\r$/, ''));
	const ends = [];
	lines.forEach((l, i) => l === '}' && ends.push(i));
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		for (let k = ends.length - 1; k >= 0 && ends[k] > i; k--) {
			try {
				return JSON.parse(lines.slice(i, ends[k] + 1).join('\n'));
			} catch {
				/* try the previous closing line */
			}
		}
	}
	throw new Error(`no JSON document in n8n output:\n${stdout.slice(-2000)}`);
}

function createInstance(opts) {
	const version = opts.version || installer.DEFAULT_VERSION;
	const userFolder = path.resolve(opts.userFolder);
	const port = Number(opts.port || 5678);
	const host = opts.host || '127.0.0.1';
	const owner = { ...DEFAULT_OWNER, ...(opts.owner || {}) };
	const encryptionKey = opts.encryptionKey || 'tenant-api-e2e-encryption-key';
	const logFile = path.join(userFolder, 'n8n.log');
	const cliLog = path.join(userFolder, 'cli.log');
	const print = opts.log || (() => {});
	let info;
	let child = null;
	let exited = null;
	const state = { url: `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}` };

	function ensureInstalled() {
		if (!info) {
			info = installer.ensureN8n(version);
		}
		return info;
	}

	function env(extra = {}) {
		const i = ensureInstalled();
		const e = installer.envFor(version, {
			...offlineEnv(version),
			N8N_USER_FOLDER: userFolder,
			N8N_ENCRYPTION_KEY: encryptionKey,
			DB_TYPE: 'sqlite',
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: host,
			N8N_HOST: opts.publicHost || 'localhost',
			N8N_PROTOCOL: 'http',
			// 2.x reads N8N_WEBHOOK_URL (WEBHOOK_URL is deprecated there), 1.x only WEBHOOK_URL.
			[i.major >= 2 ? 'N8N_WEBHOOK_URL' : 'WEBHOOK_URL']: opts.webhookUrl || `http://${opts.publicHost || 'localhost'}:${port}/`,
			N8N_EDITOR_BASE_URL: `http://${opts.publicHost || 'localhost'}:${port}/`,
			// The task-runner broker needs a port of its own; keep it next to ours so instances don't collide.
			N8N_RUNNERS_BROKER_PORT: String(port + 1),
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			GENERIC_TIMEZONE: 'UTC',
			TZ: 'UTC',
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL || 'info',
			N8N_LOG_OUTPUT: 'console',
			NODE_ENV: 'production',
			...(i.major === 1 ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {}),
			...(opts.env || {}),
			...extra,
		});
		// Settings from the developer's shell must not leak into the instance (the caller may set them).
		for (const name of ['N8N_CONFIG_FILES', 'NODE_OPTIONS']) {
			if (!(name in (opts.env || {})) && !(name in extra)) delete e[name];
		}
		return e;
	}

	/**
	 * Install the packed tarball into <userFolder>/.n8n/nodes the way n8n's community installer does
	 * (CommunityPackagesService.downloadPackage, the same in 1.123 and 2.40): unpack the tarball into
	 * nodes/node_modules/<name>, drop devDependencies/peerDependencies/optionalDependencies from its
	 * package.json, `npm install --ignore-scripts=true ...` inside it (installs runtime dependencies:
	 * none for this package), and record `<name>: <version>` in nodes/package.json.
	 */
	async function installPackage(tarball = opts.tarball) {
		if (!tarball) throw new Error('installPackage needs the packed tarball path');
		tarball = path.resolve(tarball);
		const nodesDir = path.join(userFolder, '.n8n', 'nodes');
		fs.mkdirSync(path.join(nodesDir, 'node_modules'), { recursive: true });
		const pkgJsonPath = path.join(nodesDir, 'package.json');
		const nodesPkg = fs.existsSync(pkgJsonPath)
			? JSON.parse(fs.readFileSync(pkgJsonPath, 'utf8'))
			: { name: 'installed-nodes', private: true, dependencies: {} };
		nodesPkg.dependencies = nodesPkg.dependencies || {};

		const staging = fs.mkdtempSync(path.join(nodesDir, '.unpack-'));
		try {
			const untar = spawnSync('tar', ['-xzf', tarball, '-C', staging, '--strip-components=1'], { encoding: 'utf8' });
			if (untar.status !== 0) throw new Error(`tar -xzf ${tarball} failed: ${untar.stderr}`);
			const manifestPath = path.join(staging, 'package.json');
			const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
				fs.readFileSync(manifestPath, 'utf8'),
			);
			void devDependencies, void peerDependencies, void optionalDependencies;
			fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2), 'utf8');
			const target = path.join(nodesDir, 'node_modules', manifest.name);
			fs.rmSync(target, { recursive: true, force: true });
			fs.mkdirSync(path.dirname(target), { recursive: true });
			fs.renameSync(staging, target);
			print(`installing ${path.basename(tarball)} into ${target}`);
			const args = [
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
				'--loglevel=warn',
			];
			const res = spawnSync('npm', args, { cwd: target, encoding: 'utf8', env: { ...process.env } });
			if (res.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
			nodesPkg.dependencies[manifest.name] = manifest.version;
			fs.writeFileSync(pkgJsonPath, JSON.stringify(nodesPkg, null, 2), 'utf8');
			return target;
		} finally {
			fs.rmSync(staging, { recursive: true, force: true });
		}
	}

	/**
	 * Run an n8n CLI command (async: the sandbox may live in this process and must keep answering).
	 * Resolves { code, stdout, stderr }; rejects on a non-zero exit unless `allowFailure`.
	 */
	function cli(args, { allowFailure = false, timeoutMs = 180000, extraEnv = {} } = {}) {
		const i = ensureInstalled();
		fs.mkdirSync(userFolder, { recursive: true });
		return new Promise((resolve, reject) => {
			const p = spawn(i.nodeBin, [i.n8nBin, ...args], {
				cwd: userFolder,
				// `n8n execute` prints its result through the logger at level info: keep info.
				// Commands that run workflows start a task-runner broker: give them port + 2 so
				// they can run while `n8n start` (port, port + 1) is up.
				env: env({ N8N_RUNNERS_BROKER_PORT: String(port + 2), ...extraEnv }),
				stdio: ['ignore', 'pipe', 'pipe'],
				detached: true,
			});
			liveGroups.add(p.pid);
			let stdout = '';
			let stderr = '';
			p.stdout.on('data', (d) => (stdout += d));
			p.stderr.on('data', (d) => (stderr += d));
			const timer = setTimeout(() => {
				try {
					process.kill(-p.pid, 'SIGKILL');
				} catch {
					/* already gone */
				}
			}, timeoutMs);
			p.on('error', (err) => {
				clearTimeout(timer);
				reject(err);
			});
			p.on('close', (code, signal) => {
				clearTimeout(timer);
				liveGroups.delete(p.pid);
				fs.appendFileSync(
					cliLog,
					`\n$ n8n ${args.join(' ')}  -> ${code ?? signal}\n--- stdout\n${stdout}\n--- stderr\n${stderr}\n`,
				);
				const result = { code, signal, stdout, stderr };
				if (code !== 0 && !allowFailure) {
					const err = new Error(
						`n8n ${args.join(' ')} exited with ${code ?? signal}\n--- stdout (tail)\n${stdout.slice(-3000)}\n--- stderr (tail)\n${stderr.slice(-3000)}`,
					);
					err.result = result;
					reject(err);
				} else resolve(result);
			});
		});
	}

	/** Activate ("publish") a workflow before `n8n start`: the command differs between 1.x and 2.x. */
	function publish(workflowId) {
		const i = ensureInstalled();
		return i.major >= 2
			? cli(['publish:workflow', `--id=${workflowId}`])
			: cli(['update:workflow', `--id=${workflowId}`, '--active=true']);
	}

	/** Run a workflow with a Manual Trigger in the CLI process; returns the parsed run data. */
	async function execute(workflowId) {
		const res = await cli(['execute', `--id=${workflowId}`, '--rawOutput'], { allowFailure: true });
		let data;
		try {
			data = parseRawOutput(res.stdout);
		} catch (err) {
			throw new Error(`${err.message}\n--- stderr\n${res.stderr.slice(-3000)}`);
		}
		return { ...res, data };
	}

	async function request(method, urlPath, { body, headers = {}, cookie } = {}) {
		return await httpJson(state.url + urlPath, { method, body, headers: cookie ? { ...headers, cookie } : headers });
	}

	async function waitHealthy(timeoutMs) {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (exited) {
				throw new Error(`n8n exited (${exited.code ?? exited.signal}) before it was ready`);
			}
			try {
				// /healthz answers as soon as the port is open; /healthz/readiness once the database is
				// migrated (before that every other route answers "n8n is starting up").
				const res = await fetch(`${state.url}/healthz/readiness`);
				if (res.status === 200) {
					const settings = await fetch(`${state.url}/rest/settings`);
					const text = await settings.text();
					if (settings.status === 200 && text.startsWith('{')) return;
				}
			} catch {
				/* not listening yet */
			}
			await sleep(500);
		}
		throw new Error(`n8n not healthy at ${state.url} after ${timeoutMs / 1000} s`);
	}

	function cookieFrom(res) {
		const raw = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [res.headers.get('set-cookie') || ''];
		const auth = raw.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
		return auth;
	}

	async function setupOwner() {
		const res = await request('POST', '/rest/owner/setup', { body: owner });
		if (res.status === 200) return 'created';
		// Already set up (a reused user folder): logging in proves the password is still right.
		if (res.status === 400 && /already/i.test(res.text)) return 'existing';
		throw new Error(`POST /rest/owner/setup -> ${res.status}: ${res.text.slice(0, 500)}`);
	}

	async function login() {
		const res = await request('POST', '/rest/login', {
			body: { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
		});
		const cookie = cookieFrom(res);
		if (res.status !== 200 || !cookie) {
			throw new Error(`POST /rest/login -> ${res.status}: ${res.text.slice(0, 500)}`);
		}
		return cookie;
	}

	async function createApiKey(cookie) {
		// Ask which scopes the owner may grant (newer versions require an explicit list).
		const scopesRes = await request('GET', '/rest/api-keys/scopes', { cookie });
		const scopes = scopesRes.status === 200 ? (scopesRes.json?.data ?? scopesRes.json) : undefined;
		const body = { label: `e2e-${Date.now()}`, expiresAt: null };
		if (Array.isArray(scopes)) body.scopes = scopes;
		const res = await request('POST', '/rest/api-keys', { cookie, body });
		const data = res.json?.data ?? res.json;
		if (res.status !== 200 || !data?.rawApiKey) {
			throw new Error(`POST /rest/api-keys -> ${res.status}: ${res.text.slice(0, 500)}`);
		}
		return data.rawApiKey;
	}

	/** `n8n start` in its own process group; resolves once the owner can log in and has an API key. */
	async function start({ timeoutMs = 180000 } = {}) {
		if (child) throw new Error('already started');
		const i = ensureInstalled();
		fs.mkdirSync(userFolder, { recursive: true });
		const out = fs.openSync(logFile, 'a');
		fs.writeSync(out, `\n===== n8n ${version} start ${new Date().toISOString()} port ${port}\n`);
		print(`starting n8n ${version} on ${state.url} (log: ${logFile})`);
		exited = null;
		child = spawn(i.nodeBin, [i.n8nBin, 'start'], {
			cwd: userFolder,
			env: env(),
			stdio: ['ignore', out, out],
			detached: true,
		});
		fs.closeSync(out);
		liveGroups.add(child.pid);
		const me = child;
		child.on('exit', (code, signal) => {
			if (child === me) exited = { code, signal };
		});
		try {
			await waitHealthy(timeoutMs);
			await setupOwner();
			const cookie = await login();
			const apiKey = await createApiKey(cookie);
			Object.assign(state, { cookie, apiKey });
		} catch (err) {
			const msg = `${err.message}\n--- tail of ${logFile}\n${tail(logFile)}`;
			await stop();
			throw new Error(msg);
		}
		return handle;
	}

	/**
	 * Production webhooks are registered while n8n activates published workflows, which can finish
	 * after the REST API answers: resolves once `webhookPath` stops answering 404.
	 */
	async function waitForWebhook(webhookPath, { timeoutMs = 60000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const res = await fetch(state.url + webhookPath, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
			await res.arrayBuffer();
			if (res.status !== 404) return;
			if (Date.now() > deadline) throw new Error(`${webhookPath} still 404 after ${timeoutMs / 1000} s\n${tail(logFile, 80)}`);
			await sleep(500);
		}
	}

	/** Stop the whole process group (n8n and its task runners) and wait for it to go. */
	async function stop({ timeoutMs = 20000 } = {}) {
		const p = child;
		if (!p) return;
		if (!exited && p.exitCode === null && p.signalCode === null) {
			const gone = new Promise((r) => p.once('exit', r));
			try {
				process.kill(-p.pid, 'SIGTERM');
			} catch {
				/* already gone */
			}
			const t = setTimeout(() => {
				try {
					process.kill(-p.pid, 'SIGKILL');
				} catch {
					/* already gone */
				}
			}, timeoutMs);
			await gone;
			clearTimeout(t);
		}
		// Leftover members of the group (e.g. a task runner) get no second chance.
		try {
			process.kill(-p.pid, 'SIGKILL');
		} catch {
			/* group empty */
		}
		liveGroups.delete(p.pid);
		child = null;
	}

	const handle = {
		version,
		userFolder,
		port,
		logFile,
		owner,
		get url() {
			return state.url;
		},
		get apiKey() {
			return state.apiKey;
		},
		get cookie() {
			return state.cookie;
		},
		get email() {
			return owner.email;
		},
		get password() {
			return owner.password;
		},
		get running() {
			return !!child && !exited;
		},
		ensureInstalled,
		installPackage,
		cli,
		publish,
		execute,
		start,
		stop,
		waitForWebhook,
		request,
		login,
		logTail: (n) => tail(logFile, n),
		/** Call the public API with the instance's API key. */
		api: (method, urlPath, body) =>
			request(method, `/api/v1${urlPath}`, { body, headers: { 'X-N8N-API-KEY': state.apiKey } }),
	};
	return handle;
}

/** installPackage (when opts.tarball) + start, in one call. */
async function startInstance(opts) {
	const n8n = createInstance(opts);
	if (opts.tarball) await n8n.installPackage(opts.tarball);
	await n8n.start();
	return n8n;
}

function randomKey() {
	return crypto.randomBytes(24).toString('hex');
}

/** fetch with a JSON body; the answer as text and, when it parses, as JSON. */
async function httpJson(url, { method = 'GET', body, headers = {} } = {}) {
	const h = { ...headers };
	if (body !== undefined) h['content-type'] = 'application/json';
	const res = await fetch(url, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
	const text = await res.text();
	let json;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

module.exports = { createInstance, startInstance, parseRawOutput, offlineEnv, randomKey, httpJson, DEFAULT_OWNER };
