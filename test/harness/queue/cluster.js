#!/usr/bin/env node
'use strict';
/*
 * n8n in queue mode on loopback: Redis + PostgreSQL (services.js), one main (`n8n start`), N workers
 * (`n8n worker --concurrency=C`) and one webhook processor (`n8n webhook`), each in its own user
 * folder with the packed package installed, all with the same encryption key. Every process group is
 * registered with the reaper (services.createTracker).
 *
 *   node test/harness/queue/cluster.js [--workers 2] [--concurrency 5]   # by hand: up until Ctrl-C
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
 * @typedef {{ tarball: string, runDir?: string, version?: string, workers?: number, concurrency?: number,
 *   env?: Record<string, string>, deadlineMs?: number }} ClusterOptions `env`: extra settings for every n8n
 *   process; `deadlineMs`: the reaper kills everything after this long
 */

/**
 * How soon n8n gives up the jobs of a worker that died (ms; docs/queue-mode.md "A worker that dies"):
 * with n8n's defaults (60 s lock, renewed every 10 s, stalled check every 30 s) the worker-kill test
 * waited minutes. A live worker renews its locks every 3 s: only a loop blocked for 15 s loses one.
 */
const DEAD_WORKER_TIMING = {
	QUEUE_WORKER_LOCK_DURATION: '15000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};
/** A process that found one of its ports taken gets new ones, up to this many starts. */
const MAX_STARTS = 4;

/** One n8n process of the cluster: `n8n <args>` in <runDir>/<name>, logging to its n8n.log there. */
class ClusterProcess {
	/**
	 * @param {QueueCluster} cluster
	 * @param {string} name
	 * @param {string[]} args
	 */
	constructor(cluster, name, args) {
		this.cluster = cluster;
		this.name = name;
		this.args = args;
		/** `start` (the main), `webhook` or `worker` */
		this.role = args[0];
		this.userFolder = path.join(cluster.runDir, name);
		this.logFile = path.join(this.userFolder, 'n8n.log');
		/** @type {GroupChild|null} */
		this.child = null;
		/** @type {number|null} its HTTP port (workers: their health-check port) */
		this.port = null;
	}

	get pid() {
		return this.child?.pid ?? null;
	}

	log() {
		return fs.existsSync(this.logFile) ? fs.readFileSync(this.logFile, 'utf8') : '';
	}

	ready() {
		if (this.role === 'worker')
			return Promise.resolve(this.log().includes('n8n worker is now ready'));
		return session.isReady(`http://${HOST}:${this.port}`, { settings: this.role === 'start' });
	}

	/** Start and wait until ready; a start that fails because a port was taken gets new ports. */
	async start() {
		const { cluster } = this;
		for (let attempt = 1; ; attempt++) {
			if (attempt > 1 || !this.port) this.port = await freePort();
			const own = {
				N8N_PORT: String(this.port),
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			};
			if (this.role === 'worker') Object.assign(own, { QUEUE_HEALTH_CHECK_PORT: own.N8N_PORT });
			// The main answers the editor and the API only: production webhooks go to the webhook processor.
			if (this.role === 'start')
				Object.assign(own, { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' });
			const logStart = this.log().length;
			const child = (this.child = spawnGroup(
				cluster.installed.nodeBin,
				[cluster.installed.n8nBin, ...this.args],
				{
					logFile: this.logFile,
					env: cluster.envFor(this.userFolder, own),
					cwd: this.userFolder,
					registry: cluster.tracker,
					label: this.name,
				},
			));
			try {
				await session.waitReady(child, () => this.ready(), { timeoutMs: 240000, what: this.name });
				break;
			} catch (err) {
				if (child.exitInfo) await this.stop();
				const portTaken = /already in use|EADDRINUSE/i.test(this.log().slice(logStart));
				if (!child.exitInfo || !portTaken || attempt >= MAX_STARTS)
					throw new Error(`${/** @type {Error} */ (err).message}\n${tail(this.logFile, 40)}`);
			}
		}
		svc.log(`${this.name} ready (pid ${this.pid})`);
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
		this.installed = installer.ensureN8n(this.version);
		this.tracker = svc.createTracker(this.runDir, {
			deadlineMs: opts.deadlineMs ?? 15 * 60 * 1000,
		});
		/** the public API's key on the main, once it is up */
		this.apiKey = '';
		/** @type {Record<string, string>} what every process shares (docs/queue-mode.md "Environment") */
		this.shared = {};
		this.main = new ClusterProcess(this, 'main', ['start']);
		this.webhook = new ClusterProcess(this, 'webhook', ['webhook']);
		const concurrency = `--concurrency=${opts.concurrency ?? 5}`;
		this.workers = Array.from(
			{ length: opts.workers ?? 2 },
			(_, i) => new ClusterProcess(this, `worker${i + 1}`, ['worker', concurrency]),
		);
		this.processes = [this.main, this.webhook, ...this.workers];
		/** @type {Awaited<ReturnType<typeof svc.startRedis>>|undefined} */
		this.redis = undefined;
		/** @type {Awaited<ReturnType<typeof svc.startPostgres>>|undefined} */
		this.pg = undefined;
	}

	get mainUrl() {
		return `http://${HOST}:${this.main.port}`;
	}

	get webhookBase() {
		return `http://${HOST}:${this.webhook.port}`;
	}

	/**
	 * @param {string} userFolder
	 * @param {Record<string, string>} own
	 */
	envFor(userFolder, own) {
		// Log level info: the suite reads the workers' "Worker started/finished execution" lines.
		return n8nEnv(this.version, {
			userFolder,
			listenAddress: HOST,
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
		const [redis, pg] = await Promise.all([
			svc.startRedis({ dir: this.runDir, tracker: this.tracker }),
			svc.startPostgres({ dir: this.runDir, tracker: this.tracker }),
		]);
		Object.assign(this, { redis, pg });
		// n8n's default pool is 2 connections a process: a burst of 40 deliveries then waits longer than
		// DB_POSTGRESDB_CONNECTION_TIMEOUT (20 s) on the webhook processor and gets 500s.
		this.shared = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: pg.host,
			DB_POSTGRESDB_PORT: String(pg.port),
			DB_POSTGRESDB_DATABASE: pg.database,
			DB_POSTGRESDB_USER: pg.user,
			DB_POSTGRESDB_PASSWORD: pg.password,
			DB_POSTGRESDB_POOL_SIZE: '10',
			N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
			...DEAD_WORKER_TIMING,
			...this.opts.env,
		};
		// Both URLs are in every process's environment: pick the main's and the webhook processor's ports now.
		this.main.port = await freePort();
		this.webhook.port = await freePort();
		await Promise.all(
			this.processes.map((p) => {
				fs.mkdirSync(p.userFolder, { recursive: true });
				return installPackage(p.userFolder, this.opts.tarball);
			}),
		);
		// The main first: it runs the database migrations (every n8n command would, concurrently).
		await this.main.start();
		({ apiKey: this.apiKey } = await session.openSession(
			this.mainUrl,
			session.DEFAULT_OWNER,
			'queue',
		));
	}

	/**
	 * @template [T=unknown]
	 * @param {string} method
	 * @param {string} urlPath
	 * @param {unknown} [body]
	 * @returns {Promise<HttpJson<T>>}
	 */
	api(method, urlPath, body) {
		return session.publicApi(this.mainUrl, this.apiKey)(method, urlPath, body);
	}

	/** Start the webhook processor and the workers (after workflows are active). */
	async startProcessors() {
		await Promise.all([this.webhook, ...this.workers].map((p) => p.start()));
	}

	/** Workers and the webhook processor first (they drain), then main, then the services. */
	async stop() {
		await Promise.all([this.webhook, ...this.workers].map((p) => p.stop()));
		await this.main.stop();
		await Promise.all([this.redis?.stop(), this.pg?.stop()]).catch(() => {});
		this.tracker.close();
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
	const flag = (/** @type {string} */ name) =>
		Number(args[args.indexOf(`--${name}`) + 1]) || undefined;
	(async () => {
		const tarball =
			process.env.TEST_TARBALL || buildAndPack({ skipBuild: args.includes('--no-build') });
		const day = 24 * 60 * 60 * 1000;
		const c = await startCluster({
			tarball,
			workers: flag('workers'),
			concurrency: flag('concurrency'),
			deadlineMs: day,
		});
		await c.startProcessors();
		const { email, password } = session.DEFAULT_OWNER;
		process.stdout.write(
			`\nqueue mode is up (logs in ${c.runDir}):\n  editor + API  ${c.mainUrl}  (${email} / ${password})\n` +
				`  webhooks      ${c.webhookBase}/webhook/...\nCtrl-C stops everything.\n`,
		);
		process.removeAllListeners('SIGINT');
		process.once('SIGINT', () => c.stop().then(() => process.exit(0)));
	})().catch((err) => {
		process.stderr.write(`${err.stack || err}\n`);
		process.exit(1);
	});
}
