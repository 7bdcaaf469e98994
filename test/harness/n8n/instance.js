'use strict';
/*
 * A real n8n (SQLite, one user folder) for the e2e and browser suites, `npm start` and `npm run bench:n8n`.
 * `n8n start` takes `port` and its task-runner broker `port + 1`; CLI commands that run workflows start
 * their own broker on `port + 2`, so they can run beside the server. It logs to <userFolder>/n8n.log
 * (CLI commands: cli.log); failures include the tail of that log.
 */
const fs = require('node:fs');
const path = require('node:path');
const installer = require('./install');
const { webhookUrlEnv, n8nEnv } = require('./env');
const { spawnGroup, stopGroup, tail } = require('./process-group');
const session = require('./session');
const { installPackage } = require('./community-package');
const { runCli, publishArgs, parseRawOutput } = require('./cli');

/**
 * @import { CliResult } from './cli'
 * @import { HttpJson } from './session'
 * @typedef {{ version?: string, userFolder: string, port?: number, tarball?: string, encryptionKey?: string,
 *   env?: Record<string, string>, log?: (message: string) => void }} InstanceOptions
 * @typedef {{ allowFailure?: boolean, extraEnv?: Record<string, string>, stdoutFile?: string }} CliOptions
 */

class N8nInstance {
	/** @param {InstanceOptions} opts */
	constructor(opts) {
		this.opts = opts;
		this.version = opts.version || installer.DEFAULT_VERSION;
		this.userFolder = path.resolve(opts.userFolder);
		this.port = Number(opts.port || 5678);
		this.owner = session.DEFAULT_OWNER;
		this.logFile = path.join(this.userFolder, 'n8n.log');
		this.cliLog = path.join(this.userFolder, 'cli.log');
		this.url = `http://127.0.0.1:${this.port}`;
		this.print = opts.log || (() => {});
		/** @type {import('./process-group').GroupChild|null} */
		this.child = null;
		/** @type {string|undefined} */
		this.apiKey = undefined;
		/** @type {string|undefined} */
		this.cookie = undefined;
		/** @type {import('./install').N8nInstallInfo|undefined} */
		this.installed = undefined;
	}

	get running() {
		return !!this.child && this.child.exitInfo === null;
	}

	ensureInstalled() {
		this.installed ??= installer.ensureN8n(this.version);
		return this.installed;
	}

	/**
	 * @param {Record<string, string>} [extra]
	 */
	env(extra = {}) {
		const publicBase = `http://localhost:${this.port}/`;
		return n8nEnv(this.version, {
			userFolder: this.userFolder,
			logLevel: process.env.N8N_LOG_LEVEL || 'info',
			settings: {
				N8N_ENCRYPTION_KEY: this.opts.encryptionKey || 'tenant-api-e2e-encryption-key',
				DB_TYPE: 'sqlite',
				N8N_PORT: String(this.port),
				N8N_HOST: 'localhost',
				...webhookUrlEnv(this.version, publicBase),
				N8N_EDITOR_BASE_URL: publicBase,
				N8N_RUNNERS_BROKER_PORT: String(this.port + 1),
				...(this.opts.env || {}),
				...extra,
			},
		});
	}

	async installPackage(tarball = this.opts.tarball) {
		if (!tarball) throw new Error('installPackage needs the packed tarball path');
		return installPackage(this.userFolder, tarball, { log: this.print });
	}

	/**
	 * @param {string[]} args
	 * @param {CliOptions} [options]
	 */
	cli(args, { allowFailure = false, extraEnv = {}, stdoutFile } = {}) {
		// `n8n execute` prints its result through the logger at level info: keep info.
		const env = this.env({ N8N_RUNNERS_BROKER_PORT: String(this.port + 2), ...extraEnv });
		return runCli(this.ensureInstalled(), args, {
			env,
			cwd: this.userFolder,
			logFile: this.cliLog,
			allowFailure,
			stdoutFile,
		});
	}

	/**
	 * Activate ("publish") a workflow before `n8n start`.
	 * @param {string} workflowId
	 */
	publish(workflowId) {
		return this.cli(publishArgs(this.ensureInstalled().major, workflowId));
	}

	/**
	 * Run a workflow with a Manual Trigger in the CLI process; returns the parsed run data. n8n 2.x on Node 24
	 * sometimes dies of SIGSEGV while exiting, after it printed the whole run (seen here: complete run data of a
	 * successful execution, nothing on stderr; n8n's issue tracker has SIGSEGV reports on Node 24). The run is what
	 * callers ask about, so such an exit counts as 0 when the printed run succeeded (`signal` still says SIGSEGV).
	 * The run is printed into a file (runCli's `stdoutFile`), so that a run of many items arrives whole.
	 * @param {string} workflowId
	 * @param {{ extraEnv?: Record<string, string> }} [options]
	 * @returns {Promise<CliResult & { data: import('n8n-workflow').IRun }>}
	 */
	async execute(workflowId, { extraEnv } = {}) {
		const res = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			allowFailure: true,
			extraEnv,
			stdoutFile: path.join(this.userFolder, `execute-${workflowId}.out`),
		});
		/** @type {import('n8n-workflow').IRun} */
		let data;
		try {
			data = /** @type {import('n8n-workflow').IRun} */ (parseRawOutput(res.stdout));
		} catch (err) {
			throw new Error(
				`${err.message}\n--- exit ${res.code ?? res.signal}, stderr\n${res.stderr.slice(-3000)}`,
			);
		}
		const crashedAfterSuccess =
			res.code === null && res.signal === 'SIGSEGV' && data.status === 'success';
		if (crashedAfterSuccess)
			this.print(
				`n8n execute --id=${workflowId}: SIGSEGV on exit after a successful run; counted as exit 0`,
			);
		return { ...res, code: crashedAfterSuccess ? 0 : res.code, data };
	}

	/** `n8n start`; resolves once the owner can log in and has an API key. */
	async start() {
		if (this.child) throw new Error('already started');
		const installed = this.ensureInstalled();
		fs.mkdirSync(this.userFolder, { recursive: true });
		this.print(`starting n8n ${this.version} on ${this.url} (log: ${this.logFile})`);
		this.child = spawnGroup(installed.nodeBin, [installed.n8nBin, 'start'], {
			logFile: this.logFile,
			env: this.env(),
			cwd: this.userFolder,
			label: `n8n ${this.version} start, port ${this.port}`,
		});
		try {
			await session.waitReady(this.child, () => session.isReady(this.url), {
				timeoutMs: 180000,
				what: `n8n at ${this.url}`,
			});
			Object.assign(this, await session.openSession(this.url, this.owner, 'e2e'));
		} catch (err) {
			const msg = `${err.message}\n--- tail of ${this.logFile}\n${tail(this.logFile)}`;
			await this.stop();
			throw new Error(msg);
		}
		return this;
	}

	/** n8n and its task runners. */
	async stop() {
		await stopGroup(this.child, { timeoutMs: 20000 });
		this.child = null;
	}

	/** @param {string} webhookPath */
	waitForWebhook(webhookPath) {
		return session.waitForWebhook(this.url, webhookPath, {
			context: () => tail(this.logFile, 80),
		});
	}

	/**
	 * @template [T=unknown]
	 * @param {string} method
	 * @param {string} urlPath
	 * @param {{ body?: unknown, headers?: Record<string, string>, cookie?: string }} [options]
	 * @returns {Promise<HttpJson<T>>}
	 */
	request(method, urlPath, { body, headers = {}, cookie } = {}) {
		return session.httpJson(this.url + urlPath, {
			method,
			body,
			headers: cookie ? { ...headers, cookie } : headers,
		});
	}

	/** A new login cookie for the owner. */
	login() {
		return session.login(this.url, this.owner);
	}

	/** @param {number} [lines] */
	logTail(lines) {
		return tail(this.logFile, lines);
	}

	/**
	 * @template [T=unknown]
	 * @param {string} method
	 * @param {string} urlPath
	 * @param {unknown} [body]
	 * @returns {Promise<HttpJson<T>>}
	 */
	api(method, urlPath, body) {
		return session.publicApi(this.url, /** @type {string} */ (this.apiKey))(method, urlPath, body);
	}
}

/** @param {InstanceOptions} opts */
function createInstance(opts) {
	return new N8nInstance(opts);
}

// Names only (no `name: expression`), so that tsc exports N8nInstance as a type too.
module.exports = { N8nInstance, createInstance };
