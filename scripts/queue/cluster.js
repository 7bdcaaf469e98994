#!/usr/bin/env node
'use strict';
/*
 * n8n in queue mode on loopback: Redis + PostgreSQL (services.js), one main (`n8n start`), N workers
 * (`n8n worker --concurrency=C`) and one webhook processor (`n8n webhook`), each in its own user
 * folder with the packed package installed as a community package, all with the same encryption key.
 *
 *   const { startCluster } = require('./scripts/queue/cluster');
 *   const c = await startCluster({ tarball, runDir });        // everything up, owner + API key ready
 *   await c.api('POST', '/credentials', {...});                // n8n public API on the main
 *   c.webhookUrl  c.workers[0].pid  c.workers[0].kill()  c.restartMain()  await c.stop()
 *
 *   node scripts/queue/cluster.js [--workers 2] [--concurrency 5]   # by hand: up until Ctrl-C
 *
 * Uses scripts/n8n/install.js (the cached n8n 2.40.7 on Node 24) and scripts/n8n/instance.js (its
 * offline environment and its community-package installer); the processes themselves are started
 * here so that every pid is known (the worker kill) and registered with the reaper.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const installer = require('../n8n/install');
const instanceLib = require('../n8n/instance');
const svc = require('./services');

const OWNER = instanceLib.DEFAULT_OWNER;
const { httpJson } = instanceLib;

function cookieFrom(res) {
	const raw = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [res.headers.get('set-cookie') || ''];
	return raw.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
}

/**
 * @param {object} opts
 * @param {string} opts.tarball   packed package (scripts/pack.js)
 * @param {string} [opts.runDir]  folder for logs and user folders (default: a new temp folder)
 * @param {string} [opts.version] n8n version (default 2.40.7)
 * @param {number} [opts.workers] number of workers (default 2)
 * @param {number} [opts.concurrency] per worker (default 5)
 * @param {object} [opts.env]     extra environment for every n8n process
 * @param {number} [opts.deadlineMs] the reaper kills everything after this long (default 15 min)
 */
async function startCluster(opts) {
	const version = opts.version || installer.DEFAULT_VERSION;
	const runDir = path.resolve(opts.runDir || fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-queue-')));
	const workerCount = opts.workers ?? 2;
	const concurrency = opts.concurrency ?? 5;
	const log = opts.log || svc.log;
	const t0 = Date.now();
	const timings = {};
	const lap = (name) => (timings[name] = Math.round((Date.now() - t0) / 100) / 10);

	const info = installer.ensureN8n(version);
	const tracker = svc.createTracker(runDir, { deadlineMs: opts.deadlineMs ?? 15 * 60 * 1000 });
	const procs = [];
	let redis;
	let pg;

	async function stop() {
		// Workers and the webhook processor first (they drain), then main, then the services.
		await Promise.all(procs.filter((p) => p.role !== 'main').map((p) => p.stop()));
		await Promise.all(procs.filter((p) => p.role === 'main').map((p) => p.stop()));
		if (redis) await redis.stop().catch(() => {});
		if (pg) await pg.stop().catch(() => {});
		tracker.close();
	}

	try {
		[redis, pg] = await Promise.all([svc.startRedis({ dir: runDir, tracker }), svc.startPostgres({ dir: runDir, tracker })]);
		lap('services');

		const encryptionKey = opts.encryptionKey || crypto.randomBytes(24).toString('hex');
		// Ports are picked again when a process finds one taken (other programs on the machine).
		const ports = { main: await svc.freePort(), webhook: await svc.freePort() };
		const mainUrl = () => `http://${svc.HOST}:${ports.main}`;
		const webhookBase = () => `http://${svc.HOST}:${ports.webhook}`;

		/** What every process of the cluster shares (docs/queue-mode.md lists these). */
		const sharedEnv = {
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

			// n8n's default pool is 2 connections per process: a burst of 40 deliveries then waits longer
			// than DB_POSTGRESDB_CONNECTION_TIMEOUT (20 s) on the webhook processor and gets 500s
			// (docs/queue-mode.md). Size it to the expected concurrency.
			DB_POSTGRESDB_POOL_SIZE: '10',
			...(opts.env || {}),
		};

		function envFor(userFolder, own) {
			const e = installer.envFor(version, {
				...instanceLib.offlineEnv(version),
				N8N_USER_FOLDER: userFolder,
				N8N_LISTEN_ADDRESS: svc.HOST,
				N8N_HOST: 'localhost',
				N8N_PROTOCOL: 'http',
				N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
				GENERIC_TIMEZONE: 'UTC',
				TZ: 'UTC',
				// At least info: the suite reads the workers' "Worker started/finished execution" lines.
				N8N_LOG_LEVEL: process.env.QUEUE_N8N_LOG_LEVEL || 'info',
				N8N_LOG_OUTPUT: 'console',
				NODE_ENV: 'production',
				...sharedEnv,
				N8N_WEBHOOK_URL: `${webhookBase()}/`,
				N8N_EDITOR_BASE_URL: `${mainUrl()}/`,
				...own,
			});
			// Settings from the developer's shell must not leak into the cluster (opts.env may set them).
			for (const name of ['N8N_CONFIG_FILES', 'NODE_OPTIONS']) if (!(name in (opts.env || {}))) delete e[name];
			return e;
		}

		/** A user folder with the tarball installed the way n8n's community installer does. */
		async function prepareFolder(name) {
			const userFolder = path.join(runDir, name);
			fs.mkdirSync(userFolder, { recursive: true });
			await instanceLib.createInstance({ version, userFolder, port: 1 }).installPackage(opts.tarball);
			return userFolder;
		}

		/**
		 * @param {object} d
		 * @param {(fresh: boolean) => Promise<Record<string,string>>} d.pickPorts  picks the process's ports (all new ones
		 *   when `fresh`, after a port was taken); returns its port environment
		 */
		function defineProcess({ name, role, args, pickPorts, extraEnv = {}, ready }) {
			let own = null;
			const p = {
				name,
				role,
				args,
				userFolder: path.join(runDir, name),
				logFile: path.join(runDir, name, 'n8n.log'),
				child: null,
				get pid() {
					return p.child ? p.child.pid : null;
				},
				get running() {
					return !!p.child && p.child.exitInfo === null;
				},
				async start({ timeoutMs = 240000 } = {}) {
					// QUEUE_NODE_ARGS: extra Node flags for every n8n process (e.g. --cpu-prof when profiling).
					const nodeArgs = (process.env.QUEUE_NODE_ARGS || '').split(' ').filter(Boolean);
					for (let attempt = 1; ; attempt++) {
						if (!own) own = await pickPorts(attempt > 1);
						const logStart = p.log().length;
						p.child = svc.spawnGroup(info.nodeBin, [...nodeArgs, info.n8nBin, ...args], {
							logFile: p.logFile,
							env: envFor(p.userFolder, { ...own, ...extraEnv }),
							cwd: p.userFolder,
							tracker,
							label: name,
						});
						const deadline = Date.now() + timeoutMs;
						let exited = false;
						for (;;) {
							if (p.child.exitInfo) {
								exited = true;
								break;
							}
							if (await ready(p).catch(() => false)) break;
							if (Date.now() > deadline) throw new Error(`${name} not ready after ${timeoutMs / 1000} s\n${svc.tail(p.logFile)}`);
							await svc.sleep(500);
						}
						if (!exited) break;
						await svc.stopGroup(p.child, { tracker });
						const why = p.log().slice(logStart);
						if (attempt < 4 && /already in use|EADDRINUSE/i.test(why)) {
							log(`${name}: a port was taken (${(why.match(/.*(already in use|EADDRINUSE).*/i) || [''])[0].trim()}); new ports`);
							own = null;
							continue;
						}
						throw new Error(`${name} exited (${JSON.stringify(p.child.exitInfo)}) before it was ready\n${svc.tail(p.logFile)}`);
					}
					log(`${name} ready (pid ${p.pid})`);
					return p;
				},
				stop: () => svc.stopGroup(p.child, { tracker }),
				/** SIGKILL the n8n process itself (its pid), as a crash would; then its leftovers. */
				async kill() {
					process.kill(p.child.pid, 'SIGKILL');
					await p.child.exited;
					await svc.stopGroup(p.child, { signal: 'SIGKILL', tracker });
				},
				log: () => {
					try {
						return fs.readFileSync(p.logFile, 'utf8');
					} catch {
						return '';
					}
				},
			};
			procs.push(p);
			return p;
		}

		const httpReady = (baseOf, { settings = false } = {}) => async () => {
			const r = await fetch(`${baseOf()}/healthz/readiness`);
			if (r.status !== 200) return false;
			if (!settings) return true;
			// Before migrations finish every other route says "n8n is starting up".
			const s = await fetch(`${baseOf()}/rest/settings`);
			return s.status === 200 && (await s.text()).startsWith('{');
		};
		const logReady = (marker) => async (p) => p.log().includes(marker);

		const names = ['main', 'webhook', ...Array.from({ length: workerCount }, (_, i) => `worker${i + 1}`)];
		await Promise.all(names.map(prepareFolder));
		lap('packageInstalled');

		const main = defineProcess({
			name: 'main',
			role: 'main',
			args: ['start'],
			pickPorts: async (fresh) => {
				if (fresh) ports.main = await svc.freePort();
				const broker = await svc.freePort();
				return { N8N_PORT: String(ports.main), N8N_RUNNERS_BROKER_PORT: String(broker) };
			},
			// The main answers the editor and the API only: production webhooks go to the webhook processor.
			extraEnv: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
			ready: httpReady(mainUrl, { settings: true }),
		});
		const webhook = defineProcess({
			name: 'webhook',
			role: 'webhook',
			args: ['webhook'],
			pickPorts: async (fresh) => {
				if (fresh) ports.webhook = await svc.freePort();
				return { N8N_PORT: String(ports.webhook), N8N_RUNNERS_BROKER_PORT: String(await svc.freePort()) };
			},
			ready: httpReady(webhookBase),
		});
		const workers = [];
		for (let i = 1; i <= workerCount; i++) {
			workers.push(
				defineProcess({
					name: `worker${i}`,
					role: 'worker',
					args: ['worker', `--concurrency=${concurrency}`],
					pickPorts: async () => {
						const port = await svc.freePort();
						return { N8N_PORT: String(port), QUEUE_HEALTH_CHECK_PORT: String(port), N8N_RUNNERS_BROKER_PORT: String(await svc.freePort()) };
					},
					ready: logReady('n8n worker is now ready'),
				}),
			);
		}

		// The main first: it runs the database migrations (every n8n command would, concurrently).
		await main.start();
		lap('mainReady');

		const session = { cookie: null, apiKey: null };
		async function setupAccess() {
			const setup = await httpJson(`${mainUrl()}/rest/owner/setup`, { method: 'POST', body: OWNER });
			if (setup.status !== 200 && !(setup.status === 400 && /already/i.test(setup.text))) {
				throw new Error(`POST /rest/owner/setup -> ${setup.status}: ${setup.text.slice(0, 300)}`);
			}
			const login = await httpJson(`${mainUrl()}/rest/login`, {
				method: 'POST',
				body: { emailOrLdapLoginId: OWNER.email, email: OWNER.email, password: OWNER.password },
			});
			session.cookie = cookieFrom(login);
			if (login.status !== 200 || !session.cookie) throw new Error(`POST /rest/login -> ${login.status}: ${login.text.slice(0, 300)}`);
			const scopesRes = await httpJson(`${mainUrl()}/rest/api-keys/scopes`, { headers: { cookie: session.cookie } });
			const scopes = scopesRes.status === 200 ? (scopesRes.json?.data ?? scopesRes.json) : undefined;
			const body = { label: `queue-${Date.now()}`, expiresAt: null, ...(Array.isArray(scopes) ? { scopes } : {}) };
			const key = await httpJson(`${mainUrl()}/rest/api-keys`, { method: 'POST', body, headers: { cookie: session.cookie } });
			const data = key.json?.data ?? key.json;
			if (key.status !== 200 || !data?.rawApiKey) throw new Error(`POST /rest/api-keys -> ${key.status}: ${key.text.slice(0, 300)}`);
			session.apiKey = data.rawApiKey;
		}
		await setupAccess();

		const cluster = {
			version,
			runDir,
			tracker,
			redis,
			pg,
			main,
			webhook,
			workers,
			processes: procs,
			sharedEnv: { ...sharedEnv, N8N_ENCRYPTION_KEY: '<same on every process>', DB_POSTGRESDB_PASSWORD: '<secret>' },
			get mainUrl() {
				return mainUrl();
			},
			get webhookBase() {
				return webhookBase();
			},
			timings,
			get cookie() {
				return session.cookie;
			},
			/** n8n public API on the main (X-N8N-API-KEY). */
			api: (method, urlPath, body) =>
				httpJson(`${mainUrl()}/api/v1${urlPath}`, { method, body, headers: { 'X-N8N-API-KEY': session.apiKey } }),
			/** Internal REST API on the main with the owner's cookie. */
			rest: (method, urlPath, body) => httpJson(`${mainUrl()}/rest${urlPath}`, { method, body, headers: { cookie: session.cookie } }),
			/** Start the webhook processor and the workers (after workflows are active). */
			async startProcessors() {
				await Promise.all([webhook.start(), ...workers.map((w) => w.start())]);
				lap('processorsReady');
			},
			/** Stop and start the main again (queue recovery runs at its start). */
			async restartMain() {
				await main.stop();
				await main.start();
				await setupAccess();
			},
			stop,
		};
		return cluster;
	} catch (err) {
		await stop().catch(() => {});
		throw err;
	}
}

module.exports = { startCluster, httpJson };

if (require.main === module) {
	const { buildAndPack } = require('../pack');
	const args = process.argv.slice(2);
	const flag = (n, d) => {
		const i = args.indexOf(`--${n}`);
		return i >= 0 ? args[i + 1] : d;
	};
	(async () => {
		const tarball = process.env.E2E_TARBALL || buildAndPack({ skipBuild: args.includes('--no-build') });
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
