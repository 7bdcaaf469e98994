#!/usr/bin/env node
'use strict';
/*
 * n8n in queue mode on loopback: Redis + PostgreSQL (services.js), one main (`n8n start`), N workers
 * (`n8n worker --concurrency=C`) and one webhook processor (`n8n webhook`), each in its own user
 * folder with the packed package installed as a community package, all with the same encryption key.
 *
 *   const { startCluster } = require('./test/harness/queue/cluster');
 *   const c = await startCluster({ tarball, runDir });        // everything up, owner + API key ready
 *   await c.api('POST', '/credentials', {...});                // n8n public API on the main
 *   c.webhookBase  c.workers[0].pid  c.workers[0].kill()  await c.stop()
 *
 *   node test/harness/queue/cluster.js [--workers 2] [--concurrency 5]   # by hand: up until Ctrl-C
 *
 * Uses the pieces of test/harness/n8n/ every n8n of the project uses (the offline environment, process
 * groups, the owner/login/API-key session, the community-package installer); every process group is
 * registered with the reaper (services.createTracker).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const installer = require('../n8n/install');
const { n8nEnv, webhookUrlEnv } = require('../n8n/env');
const { spawnGroup, stopGroup, killLeader, tail } = require('../n8n/process-group');
const { HOST, freePort } = require('../n8n/ports');
const session = require('../n8n/session');
const { installPackage } = require('../n8n/community-package');
const svc = require('./services');

/**
 * @import { GroupChild } from '../n8n/process-group'
 * @import { HttpJson } from '../n8n/session'
 * @typedef {'main'|'webhook'|'worker'} ProcessRole
 * @typedef {{ name: string, role: ProcessRole, args: string[], extraEnv?: Record<string, string>,
 *   ready: (p: ClusterProcess) => Promise<boolean> }} ProcessSpec
 * @typedef {{ tarball: string, runDir?: string, version?: string, workers?: number, concurrency?: number,
 *   encryptionKey?: string, env?: Record<string, string>, deadlineMs?: number, log?: (message: string) => void }} ClusterOptions
 *   `tarball`: the packed package (test/harness/pack.js); `runDir`: logs and user folders (default: a new temp folder);
 *   `version`: n8n's (default install.js DEFAULT_VERSION); `workers` (default 2), `concurrency` per worker (default 5); `env`: extra
 *   environment for every n8n process; `deadlineMs`: the reaper kills everything after this long (default 15 min)
 */

const OWNER = session.DEFAULT_OWNER;
/** A process that found one of its ports taken gets new ones, up to this many starts. */
const MAX_STARTS = 4;
const PORT_TAKEN = /already in use|EADDRINUSE/i;

/**
 * How soon n8n gives up the jobs of a worker that died (ms; n8n's @n8n/config `queue.bull.settings`,
 * docs/queue-mode.md "A worker that dies"). With n8n's defaults (a 60 s lock renewed every 10 s, a stalled-job
 * check every 30 s) the worker-kill test waited minutes for it. A live worker renews its locks every 3 s:
 * only an event loop blocked for 15 s would lose one.
 */
const DEAD_WORKER_TIMING = {
	QUEUE_WORKER_LOCK_DURATION: '15000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

/**
 * What every process of the cluster shares (docs/queue-mode.md lists these). n8n's default pool is 2
 * connections per process: a burst of 40 deliveries then waits longer than
 * DB_POSTGRESDB_CONNECTION_TIMEOUT (20 s) on the webhook processor and gets 500s; size it to the
 * expected concurrency.
 * @param {{ redis: { host: string, port: number }, pg: { host: string, port: number, database: string, user: string, password: string },
 *   encryptionKey: string, extra?: Record<string, string> }} options
 */
function queueSettings({ redis, pg, encryptionKey, extra = {} }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pg.host,
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: pg.password,
		N8N_ENCRYPTION_KEY: encryptionKey,
		DB_POSTGRESDB_POOL_SIZE: '10',
		...DEAD_WORKER_TIMING,
		...extra,
	};
}

/**
 * Readiness by HTTP (`settings`: the REST API too, as on the main).
 * @param {{ settings: boolean }} options
 * @returns {ProcessSpec['ready']}
 */
const httpReady =
	({ settings }) =>
	(p) =>
		session.isReady(`http://${HOST}:${p.port}`, { settings });
/**
 * Readiness by a line in the process's log (workers have no HTTP server of ours to ask).
 * @param {string} marker
 * @returns {ProcessSpec['ready']}
 */
const logReady = (marker) => async (p) => p.log().includes(marker);

/**
 * The ports a process of each role needs; `port` is the one it serves HTTP on.
 * @type {Record<ProcessRole, (p: ClusterProcess, fresh?: boolean) => Promise<Record<string, string>>>}
 */
const PORTS = {
	async main(p, fresh) {
		if (fresh || !p.port) p.port = await freePort();
		return { N8N_PORT: String(p.port), N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
	},
	async webhook(p, fresh) {
		if (fresh || !p.port) p.port = await freePort();
		return { N8N_PORT: String(p.port), N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
	},
	async worker(p) {
		p.port = await freePort();
		return {
			N8N_PORT: String(p.port),
			QUEUE_HEALTH_CHECK_PORT: String(p.port),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		};
	},
};

/** One n8n process of the cluster: `n8n <args>` in <runDir>/<name>, logging to <runDir>/<name>/n8n.log. */
class ClusterProcess {
	/**
	 * @param {QueueCluster} cluster
	 * @param {ProcessSpec} spec
	 */
	constructor(cluster, { name, role, args, extraEnv = {}, ready }) {
		this.cluster = cluster;
		this.name = name;
		this.role = role;
		this.args = args;
		this.extraEnv = extraEnv;
		this.ready = ready;
		this.userFolder = path.join(cluster.runDir, name);
		this.logFile = path.join(this.userFolder, 'n8n.log');
		/** @type {GroupChild|null} */
		this.child = null;
		/** @type {number|null} the port it serves HTTP on (workers: their health-check port) */
		this.port = null;
		/** @type {Record<string, string>|null} */
		this.portEnv = null;
	}

	get pid() {
		return this.child?.pid ?? null;
	}

	get running() {
		return !!this.child && this.child.exitInfo === null;
	}

	log() {
		try {
			return fs.readFileSync(this.logFile, 'utf8');
		} catch {
			return '';
		}
	}

	launch() {
		const { installed, tracker } = this.cluster;
		// QUEUE_NODE_ARGS: extra Node flags for every n8n process (e.g. --cpu-prof when profiling).
		const nodeArgs = (process.env.QUEUE_NODE_ARGS || '').split(' ').filter(Boolean);
		this.child = spawnGroup(installed.nodeBin, [...nodeArgs, installed.n8nBin, ...this.args], {
			logFile: this.logFile,
			env: this.cluster.envFor(this.userFolder, { ...this.portEnv, ...this.extraEnv }),
			cwd: this.userFolder,
			registry: tracker,
			label: this.name,
		});
	}

	/** Start and wait until ready; a start that fails because a port was taken gets new ports. */
	async start({ timeoutMs = 240000 } = {}) {
		for (let attempt = 1; ; attempt++) {
			this.portEnv ??= await PORTS[this.role](this, attempt > 1);
			const logStart = this.log().length;
			this.launch();
			const child = /** @type {GroupChild} */ (this.child);
			const ready = await session
				.waitUntil(() => this.ready(this), {
					exited: () => child.exitInfo,
					timeoutMs,
					what: this.name,
				})
				.catch((err) => Promise.reject(new Error(`${err.message}\n${tail(this.logFile, 40)}`)));
			if (ready) break;
			await this.stop();
			const why = this.log().slice(logStart);
			if (attempt < MAX_STARTS && PORT_TAKEN.test(why)) {
				this.cluster.log(
					`${this.name}: a port was taken (${(why.match(/.*(already in use|EADDRINUSE).*/i) || [''])[0].trim()}); new ports`,
				);
				this.portEnv = null;
				continue;
			}
			throw new Error(
				`${this.name} exited (${JSON.stringify(child.exitInfo)}) before it was ready\n${tail(this.logFile, 40)}`,
			);
		}
		this.cluster.log(`${this.name} ready (pid ${this.pid})`);
		return this;
	}

	stop() {
		return stopGroup(this.child, { registry: this.cluster.tracker });
	}

	/** SIGKILL the n8n process itself (its pid), as a crash would; then its leftovers. */
	kill() {
		return killLeader(/** @type {GroupChild} */ (this.child), { registry: this.cluster.tracker });
	}
}

class QueueCluster {
	/** @param {ClusterOptions} opts */
	constructor(opts) {
		this.opts = opts;
		this.version = opts.version || installer.DEFAULT_VERSION;
		this.runDir = path.resolve(
			opts.runDir || fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-queue-')),
		);
		this.log = opts.log || svc.log;
		this.t0 = Date.now();
		/** @type {Record<string, number>} seconds since the start at which each step was done */
		this.timings = {};
		/** @type {ClusterProcess[]} */
		this.processes = [];
		/** @type {{ cookie: string|null, apiKey: string|null }} */
		this.access = { cookie: null, apiKey: null };
		// Set by boot():
		/** @type {import('../n8n/install').N8nInstallInfo} */
		this.installed;
		/** @type {import('./services').Tracker} */
		this.tracker;
		/** @type {Awaited<ReturnType<typeof svc.startRedis>>} */
		this.redis;
		/** @type {Awaited<ReturnType<typeof svc.startPostgres>>} */
		this.pg;
		/** @type {Record<string, string>} */
		this.shared;
		/** @type {ClusterProcess} */
		this.main;
		/** @type {ClusterProcess} n8n webhook: the webhook processor */
		this.webhook;
		/** @type {ClusterProcess[]} */
		this.workers;
	}

	/** @param {string} name */
	lap(name) {
		this.timings[name] = Math.round((Date.now() - this.t0) / 100) / 10;
	}

	get mainUrl() {
		return `http://${HOST}:${this.main.port}`;
	}

	get webhookBase() {
		return `http://${HOST}:${this.webhook.port}`;
	}

	get cookie() {
		return this.access.cookie;
	}

	/**
	 * @param {string} userFolder
	 * @param {Record<string, string>} own
	 */
	envFor(userFolder, own) {
		return n8nEnv(this.version, {
			userFolder,
			listenAddress: HOST,
			// At least info: the suite reads the workers' "Worker started/finished execution" lines.
			logLevel: process.env.QUEUE_N8N_LOG_LEVEL || 'info',
			settings: {
				N8N_HOST: 'localhost',
				...this.shared,
				...webhookUrlEnv(this.version, `${this.webhookBase}/`),
				N8N_EDITOR_BASE_URL: `${this.mainUrl}/`,
				...own,
			},
		});
	}

	/** Services up, every user folder with the package, the main started, owner + API key. */
	async boot() {
		const workerCount = this.opts.workers ?? 2;
		const concurrency = this.opts.concurrency ?? 5;
		this.installed = installer.ensureN8n(this.version);
		this.tracker = svc.createTracker(this.runDir, {
			deadlineMs: this.opts.deadlineMs ?? 15 * 60 * 1000,
		});
		[this.redis, this.pg] = await Promise.all([
			svc.startRedis({ dir: this.runDir, tracker: this.tracker }),
			svc.startPostgres({ dir: this.runDir, tracker: this.tracker }),
		]);
		this.lap('services');
		const encryptionKey = this.opts.encryptionKey || crypto.randomBytes(24).toString('hex');
		this.shared = queueSettings({
			redis: this.redis,
			pg: this.pg,
			encryptionKey,
			extra: this.opts.env,
		});

		this.main = this.define({
			name: 'main',
			role: 'main',
			args: ['start'],
			// The main answers the editor and the API only: production webhooks go to the webhook processor.
			extraEnv: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
			ready: httpReady({ settings: true }),
		});
		this.webhook = this.define({
			name: 'webhook',
			role: 'webhook',
			args: ['webhook'],
			ready: httpReady({ settings: false }),
		});
		this.workers = Array.from({ length: workerCount }, (_, i) =>
			this.define({
				name: `worker${i + 1}`,
				role: 'worker',
				args: ['worker', `--concurrency=${concurrency}`],
				ready: logReady('n8n worker is now ready'),
			}),
		);
		// Both URLs are in every process's environment: pick the main's and the webhook processor's ports now.
		this.main.portEnv = await PORTS.main(this.main);
		this.webhook.portEnv = await PORTS.webhook(this.webhook);
		await Promise.all(this.processes.map((p) => this.prepareFolder(p)));
		this.lap('packageInstalled');

		// The main first: it runs the database migrations (every n8n command would, concurrently).
		await this.main.start();
		this.lap('mainReady');
		await this.openSession();
	}

	/** @param {ProcessSpec} spec */
	define(spec) {
		const p = new ClusterProcess(this, spec);
		this.processes.push(p);
		return p;
	}

	/**
	 * A user folder with the tarball installed the way n8n's community installer does.
	 * @param {ClusterProcess} p
	 */
	prepareFolder(p) {
		fs.mkdirSync(p.userFolder, { recursive: true });
		return installPackage(p.userFolder, this.opts.tarball);
	}

	async openSession() {
		this.access = await session.openSession(this.mainUrl, OWNER, 'queue');
	}

	/**
	 * n8n public API on the main (X-N8N-API-KEY).
	 * @template [T=unknown]
	 * @param {string} method
	 * @param {string} urlPath
	 * @param {unknown} [body]
	 * @returns {Promise<HttpJson<T>>}
	 */
	api(method, urlPath, body) {
		return session.publicApi(this.mainUrl, /** @type {string} */ (this.access.apiKey))(
			method,
			urlPath,
			body,
		);
	}

	/** Start the webhook processor and the workers (after workflows are active). */
	async startProcessors() {
		await Promise.all([this.webhook.start(), ...this.workers.map((w) => w.start())]);
		this.lap('processorsReady');
	}

	/** Workers and the webhook processor first (they drain), then main, then the services. */
	async stop() {
		await Promise.all(this.processes.filter((p) => p.role !== 'main').map((p) => p.stop()));
		await Promise.all(this.processes.filter((p) => p.role === 'main').map((p) => p.stop()));
		if (this.redis) await this.redis.stop().catch(() => {});
		if (this.pg) await this.pg.stop().catch(() => {});
		this.tracker?.close();
	}
}

/** @param {ClusterOptions} opts */
async function startCluster(opts) {
	const cluster = new QueueCluster(opts);
	try {
		await cluster.boot();
		return cluster;
	} catch (err) {
		await cluster.stop().catch(() => {});
		throw err;
	}
}

// Names only (no `name: expression`), so that tsc exports the classes as types too.
module.exports = { startCluster, QueueCluster, ClusterProcess, DEAD_WORKER_TIMING };

if (require.main === module) {
	const { buildAndPack } = require('../pack');
	const args = process.argv.slice(2);
	const flag = (/** @type {string} */ n, /** @type {number} */ d) => {
		const i = args.indexOf(`--${n}`);
		return i >= 0 ? args[i + 1] : d;
	};
	(async () => {
		const tarball =
			process.env.TEST_TARBALL || buildAndPack({ skipBuild: args.includes('--no-build') });
		const c = await startCluster({
			tarball,
			workers: Number(flag('workers', 2)),
			concurrency: Number(flag('concurrency', 5)),
			deadlineMs: 24 * 60 * 60 * 1000,
		});
		await c.startProcessors();
		process.stdout.write(
			`\nqueue mode is up (logs in ${c.runDir}):\n  editor + API  ${c.mainUrl}  (${OWNER.email} / ${OWNER.password})\n` +
				`  webhooks      ${c.webhookBase}/webhook/...\n  redis ${c.redis.port}, postgres ${c.pg.port}\n` +
				c.processes.map((p) => `  ${p.name.padEnd(8)} pid ${p.pid}\n`).join('') +
				'Ctrl-C stops everything.\n',
		);
		const bye = async () => {
			await c.stop();
			process.exit(0);
		};
		process.removeAllListeners('SIGINT');
		process.once('SIGINT', bye);
	})().catch((err) => {
		process.stderr.write(`${err.stack || err}\n`);
		process.exit(1);
	});
}
