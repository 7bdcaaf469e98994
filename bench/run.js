'use strict';
/**
 * npm run bench [-- --items 2000 --rl-items 500 --accounts 50000 --rounds 3 --rl-rounds 1 --queue-seconds 300 --only node,floor,raw,http,rl,queue,list,webhook --baseline <git ref>]
 *
 * One process, one n8n engine (n8n-core's WorkflowExecute, as in the engine tests), one sandbox (in a
 * child process, so client and server each have a core), loopback only:
 *   - bulk POST of N items: this node at concurrency 1/4/16, the floor node (bench/floorNode.js: the
 *     same request through httpRequestWithAuthentication and nothing else) at the same concurrencies,
 *     n8n's HTTP Request node (n8n-nodes-base from the local n8n install) configured as a user would,
 *     a plain undici client;
 *   - POSTs against a rate-limited API (bench/rateLimited.js, --rl-items, default 500: 40 ms per answer, 50 requests/s,
 *     bursts of 10), against the floor N / rate;
 *   - queue mode, 1–32 workers on one key, on a simulated clock (bench/queueWorkers.js, --queue-seconds);
 *   - listing 50,000 accounts with Return All (and the undici floor);
 *   - the webhook trigger (bench/webhook.js): requests nobody signed, against JSON.parse of the same bytes, and signed
 *     deliveries of 10 KB and at the payload limit (16 MiB), side by side with the build of git ref `--baseline` when
 *     given.
 * Prints items/s (median of the rounds), ratios and peak RSS; writes bench/results/latest.json.
 * Needs `npm run build` first (the npm script does it). `--profile` writes a CPU profile of the measured
 * rounds only (not start-up, not warm-up) to bench/results/<scenarios>.cpuprofile, e.g.
 *   node bench/run.js --only node-c16 --rounds 1 --profile
 * Figures and analysis: docs/benchmarks.md.
 */
require('../test/harness/register-ts');

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');

// n8n-core writes to the user folder: one of the benchmark's own unless given, removed at exit.
if (!process.env.N8N_USER_FOLDER) {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-bench-'));
	process.env.N8N_USER_FOLDER = userFolder;
	process.on('exit', () => fs.rmSync(userFolder, { recursive: true, force: true }));
}
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

const { Pool } = require('undici');
const {
	TEST_CREDENTIAL_ID,
	createHarness,
	runNodeWorkflow,
	sandboxCredential,
} = require('../test/harness/engine.ts');
const bench = require('./workflow');
const { FLOOR_TYPE, floorNodeDefinition, setUpFloor } = require('./floorNode');
const { LATENCY, RATE_LIMIT, rateLimitedScenarios } = require('./rateLimited');
const { printQueueWorkers, queueWorkersBench } = require('./queueWorkers');
const { printWebhook, webhookBench } = require('./webhook');
const installer = require('../test/harness/n8n/install');
const { parseArgs } = require('./args');
const { median, pairedRatio } = require('./cpuTiming');

// ---------------------------------------------------------------------------------------------- args

const args = parseArgs(process.argv.slice(2), {
	items: 2000,
	rlItems: 500,
	accounts: 50000,
	rounds: 3,
	rlRounds: 1,
	queueSeconds: 300,
	concurrency: [1, 4, 16],
	only: /** @type {string[]} */ ([]),
	profile: false,
	baseline: /** @type {string | undefined} */ (undefined),
});
/** The harness's Tenant API credential, as the nodes reference it. */
const CREDENTIAL = { id: TEST_CREDENTIAL_ID, name: 'Tenant API' };
const wanted = (name) =>
	args.only.length === 0 || args.only.some((prefix) => name.startsWith(prefix));

// ------------------------------------------------------------------------------------------- helpers

// n8n's own nodes from the cached install of the project's n8n (test/harness/n8n/install.js DEFAULT_VERSION).
const HTTP_REQUEST_PACKAGE =
	process.env.N8N_NODES_BASE_DIR ??
	path.join(installer.n8nDir(installer.DEFAULT_VERSION), 'node_modules', 'n8n-nodes-base');

function loadHttpRequestNode() {
	try {
		const { HttpRequest } = require(
			path.join(HTTP_REQUEST_PACKAGE, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js'),
		);
		const version = require(path.join(HTTP_REQUEST_PACKAGE, 'package.json')).version;
		return { node: new HttpRequest(), version };
	} catch (error) {
		console.error(
			`n8n's HTTP Request node not loaded from ${HTTP_REQUEST_PACKAGE} (${error.message}); run npm run n8n:install`,
		);
		return undefined;
	}
}

function startSandboxProcess(options) {
	const child = fork(path.join(__dirname, 'sandbox-process.js'), [JSON.stringify(options)], {
		stdio: 'inherit',
	});
	let nextId = 0;
	const pending = new Map();
	return new Promise((resolve, reject) => {
		child.once('error', reject);
		child.on('message', (message) => {
			if (message.ready) {
				resolve({
					...message,
					call: (cmd, arg) =>
						new Promise((res, rej) => {
							const id = ++nextId;
							pending.set(id, { res, rej });
							child.send({ id, cmd, arg });
						}),
					kill: () => child.kill(),
				});
				return;
			}
			const waiter = pending.get(message.id);
			pending.delete(message.id);
			if (message.ok) waiter.res(message.value);
			else waiter.rej(new Error(message.error));
		});
	});
}

/**
 * Wall time, CPU time of this process (the client side: the sandbox has its own process) and peak RSS
 * (sampled every 5 ms, after a GC when --expose-gc is on) while `work` runs.
 */
async function measured(work) {
	global.gc?.();
	let peak = process.memoryUsage.rss();
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage.rss());
	}, 5);
	const started = process.hrtime.bigint();
	const cpuBefore = process.cpuUsage();
	try {
		const result = await work();
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		const cpu = process.cpuUsage(cpuBefore);
		peak = Math.max(peak, process.memoryUsage.rss());
		return { ms, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: peak / 1048576, result };
	} finally {
		clearInterval(sampler);
	}
}

function check(condition, message) {
	if (!condition) throw new Error(`benchmark check failed: ${message}`);
}

// ----------------------------------------------------------------------------------------- scenarios

function postScenarios(ctx) {
	const { harness, nodeTypes, sandbox, inputs, httpRequest } = ctx;
	const origin = new URL(sandbox.baseUrl).origin;
	const scenarios = [];
	const expectCreated = async (items, error) => {
		check(!error, `run failed: ${error?.message}`);
		check(
			items.length === inputs.length,
			`${items.length} output items for ${inputs.length} inputs`,
		);
		const { records, distinctRefs } = await sandbox.call('recordCount');
		check(
			records === inputs.length && distinctRefs === inputs.length,
			`sandbox holds ${records} records for ${distinctRefs} refs`,
		);
	};
	/** Runs Items → `node` in the engine and checks that every item created its record once. */
	const runChecked = async (node) => {
		const {
			items,
			error,
			executionTime: nodeMs,
		} = await runNodeWorkflow(harness, node, {
			nodeTypes,
			inputItems: inputs,
			workflowId: 'wf-bench',
		});
		await expectCreated(items, error);
		return { nodeMs };
	};

	// Each node next to its floor, so that the two run one after the other in every round.
	for (const concurrency of args.concurrency) {
		scenarios.push({
			name: `node-c${concurrency}`,
			label: `Tenant API node, concurrency ${concurrency}`,
			kind: 'node',
			concurrency,
			run: async () => await runChecked(bench.postNode(CREDENTIAL, { concurrency })),
		});
		scenarios.push({
			name: `floor-c${concurrency}`,
			label: `Floor node (the same request through httpRequestWithAuthentication), concurrency ${concurrency}`,
			kind: 'floor',
			concurrency,
			run: async () => await runChecked(floorNodeDefinition(sandbox.baseUrl, concurrency)),
		});
	}

	if (httpRequest) {
		scenarios.push({
			name: 'http-request',
			label: `HTTP Request node ${httpRequest.version} (v4.5, defaults: all items at once)`,
			kind: 'httpRequest',
			concurrency: 'all',
			run: async () =>
				await runChecked(
					bench.httpRequestNode(sandbox.baseUrl, sandbox.tenantId, {
						id: 'cred-header-auth',
						name: 'Header Auth',
					}),
				),
		});
	}

	const rawConcurrencies = [...args.concurrency, ...(httpRequest ? ['all'] : [])];
	const rawVariants = [
		...rawConcurrencies.map((concurrency) => ({ concurrency, fresh: false })),
		// n8n's HTTP helper builds a new agent for every request, so it never reuses a connection: this
		// floor pays the same TCP connect per request (undici `reset: true` closes after each answer).
		...args.concurrency.map((concurrency) => ({ concurrency, fresh: true })),
	];
	for (const { concurrency, fresh } of rawVariants) {
		scenarios.push({
			name: fresh ? `raw-fresh-c${concurrency}` : `raw-c${concurrency}`,
			label: `undici${fresh ? ', new connection per request' : ' Pool'}, ${concurrency === 'all' ? 'all items at once' : `concurrency ${concurrency}`}`,
			kind: fresh ? 'rawFresh' : 'raw',
			concurrency,
			run: async () => {
				const limit = concurrency === 'all' ? inputs.length : concurrency;
				const client = new Pool(origin, { connections: limit });
				const out = new Array(inputs.length);
				await bench.pool(inputs.length, limit, async (i) => {
					const { statusCode, body } = await client.request({
						...bench.rawPost(sandbox, inputs[i]),
						reset: fresh,
					});
					out[i] = await body.json();
					check(statusCode === 201, `status ${statusCode}`);
				});
				await client.close();
				await expectCreated(out);
				return {};
			},
		});
	}
	return scenarios.filter((s) => wanted(s.name));
}

function listScenarios(ctx) {
	const { listHarness, nodeTypes, listSandbox } = ctx;
	const scenarios = [];
	for (const pageSize of [100, 1000]) {
		scenarios.push({
			name: `list-node-p${pageSize}`,
			label: `Tenant API node, Return All, page size ${pageSize}${pageSize === 100 ? ' (default)' : ''}`,
			kind: 'node',
			pageSize,
			run: async () => {
				const node = bench.returnAllNode(pageSize, CREDENTIAL);
				const {
					items,
					error,
					executionTime: nodeMs,
				} = await runNodeWorkflow(listHarness, node, {
					nodeTypes,
					inputItems: [{}],
					workflowId: 'wf-bench',
				});
				check(!error, `listing failed: ${error?.message}`);
				check(items.length === args.accounts, `${items.length} accounts listed`);
				return { nodeMs };
			},
		});
		scenarios.push({
			name: `list-raw-p${pageSize}`,
			label: `undici, following next_cursor, page size ${pageSize}`,
			kind: 'raw',
			pageSize,
			run: async () => {
				const client = new Pool(new URL(listSandbox.baseUrl).origin, { connections: 1 });
				const all = [];
				let cursor;
				do {
					const query = new URLSearchParams({
						limit: String(pageSize),
						...(cursor ? { cursor } : {}),
					});
					const { statusCode, body } = await client.request({
						method: 'GET',
						path: `/v1/accounts?${query}`,
						headers: {
							'api-key': listSandbox.apiKey,
							'x-tenant-id': listSandbox.tenantId,
							accept: 'application/json',
						},
					});
					const page = await body.json();
					check(statusCode === 200, `status ${statusCode}`);
					all.push(...page.data);
					cursor = page.has_more ? page.next_cursor : undefined;
				} while (cursor);
				await client.close();
				check(all.length === args.accounts, `${all.length} accounts listed`);
				return {};
			},
		});
	}
	return scenarios.filter((s) => wanted(s.name));
}

// ---------------------------------------------------------------------------------------------- main

/** Runs `work` under the V8 CPU profiler when --profile is given; writes bench/results/<name>.cpuprofile. */
async function profiled(name, work) {
	if (!args.profile) return await work();
	const inspector = require('node:inspector');
	const session = new inspector.Session();
	session.connect();
	const post = (method, params) =>
		new Promise((resolve, reject) =>
			session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
		);
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 200 });
	await post('Profiler.start');
	try {
		return await work();
	} finally {
		const { profile } = await post('Profiler.stop');
		const file = path.join(__dirname, 'results', `${name}.cpuprofile`);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(profile));
		console.log(`CPU profile: ${path.relative(process.cwd(), file)}`);
		session.disconnect();
	}
}

async function runRounds(scenarios, units, reset) {
	return await profiled(scenarios.map((s) => s.name).join('+'), () =>
		runRoundsUnprofiled(scenarios, units, reset),
	);
}

async function runRoundsUnprofiled(scenarios, units, reset) {
	const samples = new Map(scenarios.map((s) => [s.name, []]));
	for (let round = 0; round < args.rounds; round++) {
		// Rotate the order so no scenario always runs first (or right after a heavy one).
		const order = scenarios.map((_, i) => scenarios[(i + round) % scenarios.length]);
		for (const scenario of order) {
			await reset();
			const { ms, cpuMs, peakRssMb, result } = await measured(() => scenario.run());
			samples.get(scenario.name).push({ ms, cpuMs, peakRssMb, nodeMs: result.nodeMs });
			process.stderr.write(
				`  round ${round + 1} ${scenario.name.padEnd(16)} ${ms.toFixed(0).padStart(6)} ms  ${((units / ms) * 1000).toFixed(0).padStart(6)} /s\n`,
			);
		}
	}
	return scenarios.map((s) => {
		const runs = samples.get(s.name);
		const ms = median(runs.map((r) => r.ms));
		return {
			name: s.name,
			label: s.label,
			kind: s.kind,
			concurrency: s.concurrency,
			pageSize: s.pageSize,
			ms,
			perSecond: (units / ms) * 1000,
			nodeMs: median(runs.map((r) => r.nodeMs ?? NaN)),
			cpuUsPerUnit: (median(runs.map((r) => r.cpuMs)) / units) * 1000,
			peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
			allMs: runs.map((r) => Math.round(r.ms)),
			allCpuUsPerUnit: runs.map((r) => (r.cpuMs / units) * 1000),
		};
	});
}

/**
 * The rate-limited scenarios (bench/rateLimited.js): each round runs each once, against a sandbox of its
 * own (a new origin: the node's rate governor starts from nothing); a node scenario then runs again in
 * the same process against the same sandbox (reset: full bucket, no records), the governor kept.
 */
async function runRateLimited() {
	const harness = await createHarness(sandboxCredential('http://127.0.0.1:9/v1'));
	const httpRequest = loadHttpRequestNode();
	const nodeTypes = bench.nodeTypesWith(
		harness,
		httpRequest ? { 'n8n-nodes-base.httpRequest': httpRequest.node } : {},
	);
	const inputs = Array.from({ length: args.rlItems }, (_, i) => ({
		ref: `bench-${i}`,
		amount: i + 1,
	}));
	const scenarios = rateLimitedScenarios({ harness, nodeTypes, inputs, httpRequest }).filter((s) =>
		wanted(s.name),
	);
	const floorMs = (args.rlItems / RATE_LIMIT.perSecond) * 1000;
	console.log(
		`bulk POST of ${args.rlItems} items against ${RATE_LIMIT.perSecond} requests/s (burst ${RATE_LIMIT.burst}, ${LATENCY.fixedMs} ms per answer), floor ${floorMs / 1000} s, ${args.rlRounds} round(s):`,
	);
	const runs = [];
	const measure = async (scenario, sandbox, round, again) => {
		const loadBefore = os.loadavg()[0];
		// Wall time only: over a run this long the process's CPU time is mostly the benchmark's own 5 ms RSS sampler.
		const { ms, result } = await measured(() => scenario.run(sandbox));
		const name = again ? `${scenario.name}-again` : scenario.name;
		const label = again ? `${scenario.label}, again in the same process` : scenario.label;
		const run = {
			name,
			label,
			kind: scenario.kind,
			round,
			ms,
			vsFloor: ms / floorMs,
			load: [loadBefore, os.loadavg()[0]],
			...result,
		};
		runs.push(run);
		process.stderr.write(
			`  round ${round + 1} ${name.padEnd(28)} ${(ms / 1000).toFixed(1).padStart(6)} s  ${run.vsFloor.toFixed(3)}× floor  failed ${result.failed}  duplicates ${result.duplicates}  ${(result.requests / args.rlItems).toFixed(3)} requests/item  ${result.rateLimited} 429s\n`,
		);
	};
	for (let round = 0; round < args.rlRounds; round++) {
		for (const scenario of scenarios) {
			const sandbox = await startSandboxProcess({
				rateLimit: { ...RATE_LIMIT, headers: scenario.headers ? 'ietf' : false },
				latency: LATENCY,
			});
			harness.credentials[TEST_CREDENTIAL_ID] = sandboxCredential(sandbox.baseUrl);
			harness.credentials['cred-header-auth'] = { name: 'Api-Key', value: sandbox.apiKey };
			await measure(scenario, sandbox, round, false);
			if (scenario.again) {
				await sandbox.call('reset');
				await measure(scenario, sandbox, round, true);
			}
			await sandbox.call('close');
		}
	}
	return { floorMs, items: args.rlItems, rateLimit: RATE_LIMIT, latency: LATENCY, runs };
}

function machine() {
	const cpus = os.cpus();
	return {
		cpu: `${cpus.length} × ${cpus[0]?.model ?? 'unknown'}`,
		memoryGb: Math.round(os.totalmem() / 1073741824),
		node: process.version,
		platform: `${os.type()} ${os.release()}`,
		loadAverage: os
			.loadavg()
			.map((l) => l.toFixed(2))
			.join(' '),
	};
}

/**
 * Median over the rounds of (this CPU per item / that CPU per item) in the same round: the two ran one
 * shortly after the other, under about the same load from other jobs on the machine.
 */
const cpuRatio = (a, b) => pairedRatio(a.allCpuUsPerUnit, b.allCpuUsPerUnit);

function fmt(n, digits = 0) {
	return Number.isFinite(n) ? n.toFixed(digits) : '–';
}

async function main() {
	const report = {
		date: new Date().toISOString(),
		machine: machine(),
		args,
		post: [],
		rateLimited: undefined,
		queueWorkers: undefined,
		list: [],
		webhook: undefined,
	};
	console.log(
		`machine: ${report.machine.cpu}, ${report.machine.memoryGb} GB, Node ${report.machine.node}, load ${report.machine.loadAverage}`,
	);

	const wantPost =
		args.only.length === 0 || args.only.some((p) => /^(node|floor|raw|http)/.test(p));
	const wantRateLimited = args.only.length === 0 || args.only.some((p) => p.startsWith('rl'));
	const wantQueue = args.only.length === 0 || args.only.some((p) => p.startsWith('queue'));
	const wantList = args.only.length === 0 || args.only.some((p) => p.startsWith('list'));
	const wantWebhook = args.only.length === 0 || args.only.some((p) => p.startsWith('webhook'));

	if (wantPost) {
		const sandbox = await startSandboxProcess({});
		const harness = await createHarness(sandboxCredential(sandbox.baseUrl));
		// The HTTP Request node's Header Auth credential, resolved by the same credentials helper.
		harness.credentials['cred-header-auth'] = { name: 'Api-Key', value: sandbox.apiKey };
		const httpRequest = loadHttpRequestNode();
		const nodeTypes = bench.nodeTypesWith(harness, {
			[FLOOR_TYPE]: setUpFloor(harness, sandbox),
			...(httpRequest ? { 'n8n-nodes-base.httpRequest': httpRequest.node } : {}),
		});
		const inputs = Array.from({ length: args.items }, (_, i) => ({
			ref: `bench-${i}`,
			amount: i + 1,
		}));
		const scenarios = postScenarios({ harness, nodeTypes, sandbox, inputs, httpRequest });
		// Warm-up: every scenario once on a few items (JIT, module loading, connection pools).
		const warm = inputs.slice(0, 100);
		for (const s of postScenarios({ harness, nodeTypes, sandbox, inputs: warm, httpRequest })) {
			await sandbox.call('reset');
			await s.run();
		}
		console.log(`bulk POST of ${args.items} items, ${args.rounds} rounds (median):`);
		report.post = await runRounds(scenarios, args.items, () => sandbox.call('reset'));
		report.httpRequestVersion = httpRequest?.version;
		await sandbox.call('close');
	}

	if (wantRateLimited) report.rateLimited = await runRateLimited();

	if (wantQueue) report.queueWorkers = await queueWorkersBench({ seconds: args.queueSeconds });

	if (wantList) {
		const listSandbox = await startSandboxProcess({ accounts: args.accounts, maxPageSize: 1000 });
		const listHarness = await createHarness(sandboxCredential(listSandbox.baseUrl));
		const nodeTypes = bench.nodeTypesWith(listHarness, {});
		const scenarios = listScenarios({ listHarness, nodeTypes, listSandbox });
		for (const s of scenarios) await s.run(); // warm-up (and the sandbox's listing cache)
		console.log(`listing ${args.accounts} accounts, ${args.rounds} rounds (median):`);
		report.list = await runRounds(scenarios, args.accounts, async () => {});
		await listSandbox.call('close');
	}

	if (wantWebhook) report.webhook = webhookBench({ baseline: args.baseline });

	report.peakRssMbProcess = process.resourceUsage().maxRSS / 1024;
	print(report);
	const out = path.join(__dirname, 'results');
	fs.mkdirSync(out, { recursive: true });
	fs.writeFileSync(path.join(out, 'latest.json'), JSON.stringify(report, null, 2));
	console.log(`\nwritten: ${path.relative(process.cwd(), path.join(out, 'latest.json'))}`);
}

function print(report) {
	const byName = new Map(report.post.map((r) => [r.name, r]));
	const http = byName.get('http-request');
	if (report.post.length) {
		console.log(
			'\n| Scenario | items/s | median ms (runs) | client CPU µs/item | CPU vs floor node, same concurrency | time vs raw Pool, same concurrency | time vs raw, new connection per request | speed vs HTTP Request | peak RSS MB |',
		);
		console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
		for (const r of report.post) {
			const raw = byName.get(`raw-c${r.concurrency}`);
			const fresh = byName.get(`raw-fresh-c${r.concurrency}`);
			const floor = byName.get(`floor-c${r.concurrency}`);
			const vsFloor = r.kind === 'node' && floor ? `${fmt(cpuRatio(r, floor), 2)}×` : '';
			const vsRaw = r.kind !== 'raw' && raw ? `${fmt(r.ms / raw.ms, 2)}×` : '';
			const vsFresh =
				(r.kind === 'node' || r.kind === 'floor' || r.kind === 'httpRequest') && fresh
					? `${fmt(r.ms / fresh.ms, 2)}×`
					: '';
			const vsHttp =
				r.kind !== 'httpRequest' && http ? `${fmt(r.perSecond / http.perSecond, 2)}×` : '';
			console.log(
				`| ${r.label} | ${fmt(r.perSecond)} | ${fmt(r.ms)} (${r.allMs.join(', ')}) | ${fmt(r.cpuUsPerUnit)} | ${vsFloor} | ${vsRaw} | ${vsFresh} | ${vsHttp} | ${fmt(r.peakRssMb)} |`,
			);
		}
	}
	if (report.rateLimited) {
		console.log(
			`\n| Against ${report.rateLimited.rateLimit.perSecond} requests/s (floor ${fmt(report.rateLimited.floorMs / 1000, 1)} s) | time s | × floor | failed items | records | duplicates | requests/item | 429s | load avg (start → end) |`,
		);
		console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
		for (const r of report.rateLimited.runs) {
			const failed = r.error
				? `${r.failed} (node error: ${r.error.slice(0, 80)})`
				: String(r.failed);
			console.log(
				`| ${r.label} | ${fmt(r.ms / 1000, 1)} | ${fmt(r.vsFloor, 3)} | ${failed} | ${r.records} | ${r.duplicates} | ${fmt(r.requests / report.rateLimited.items, 3)} | ${r.rateLimited} | ${fmt(r.load[0], 2)} → ${fmt(r.load[1], 2)} |`,
			);
		}
	}
	if (report.queueWorkers) printQueueWorkers(report.queueWorkers);
	if (report.list.length) {
		const listBy = new Map(report.list.map((r) => [r.name, r]));
		console.log(
			'\n| Listing | accounts/s | median ms (runs) | client CPU µs/account | time vs raw, same page size | peak RSS MB |',
		);
		console.log('|---|---:|---:|---:|---:|---:|');
		for (const r of report.list) {
			const raw = listBy.get(`list-raw-p${r.pageSize}`);
			const vsRaw = r.kind === 'node' && raw ? `${fmt(r.ms / raw.ms, 2)}×` : '';
			console.log(
				`| ${r.label} | ${fmt(r.perSecond)} | ${fmt(r.ms)} (${r.allMs.join(', ')}) | ${fmt(r.cpuUsPerUnit, 1)} | ${vsRaw} | ${fmt(r.peakRssMb)} |`,
			);
		}
	}
	if (report.webhook) printWebhook(report.webhook);
	console.log(
		`\npeak RSS of the benchmark process: ${fmt(report.peakRssMbProcess)} MB; load average at start ${report.machine.loadAverage}, now ${os
			.loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}`,
	);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
