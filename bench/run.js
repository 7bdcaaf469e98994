'use strict';
/**
 * npm run bench [-- --items 2000 --rl-items 500 --accounts 50000 --rounds 3 --rl-rounds 1 --only node,floor,raw,http,rl,queue,list,webhook --baseline <git ref> --profile]
 *
 * In-process, against a sandbox in a child process (so client and server each have a core). `--only` takes scenario
 * name prefixes. What each scenario measures, how the rounds run, and the figures: docs/benchmarks.md.
 */
require('../test/harness/register-ts');

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');
const { once } = require('node:events');

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
const { listAll } = require('./plainListing');
const { LATENCY, RATE_LIMIT, rateLimitedScenarios } = require('./rateLimited');
const { printQueueWorkers, queueWorkersBench } = require('./queueWorkers');
const { printWebhook, webhookBench } = require('./webhook');
const installer = require('../test/harness/n8n/install');
const { parseArgs } = require('./args');
const { median, pairedRatio } = require('./cpuTiming');
const { MACHINE, againstFloor, loadAverage, logRun, printRuns, table } = require('./report');

const args = parseArgs(process.argv.slice(2), {
	items: 2000,
	rlItems: 500,
	accounts: 50000,
	rounds: 3,
	rlRounds: 1,
	only: [],
	profile: false,
	baseline: '',
});
const CONCURRENCY = [1, 4, 16];
const CREDENTIAL = { id: TEST_CREDENTIAL_ID, name: 'Tenant API' };
const HEADER_AUTH = { id: 'cred-header-auth', name: 'Header Auth' };
const picked = (name) => args.only.length === 0 || args.only.some((o) => name.startsWith(o));
const section = (...prefixes) =>
	args.only.length === 0 || args.only.some((o) => prefixes.some((p) => o.startsWith(p)));
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const inputsOf = (count) =>
	Array.from({ length: count }, (_, i) => ({ ref: `bench-${i}`, amount: i + 1 }));
const check = (condition, message) => {
	if (!condition) throw new Error(`benchmark check failed: ${message}`);
};

/** n8n's HTTP Request node from the cached install of the project's n8n (N8N_NODES_BASE_DIR to change). */
function loadHttpRequestNode() {
	const dir =
		process.env.N8N_NODES_BASE_DIR ??
		path.join(installer.n8nDir(installer.DEFAULT_VERSION), 'node_modules', 'n8n-nodes-base');
	try {
		const { HttpRequest } = require(path.join(dir, 'dist/nodes/HttpRequest/HttpRequest.node.js'));
		return { node: new HttpRequest(), version: require(path.join(dir, 'package.json')).version };
	} catch (error) {
		console.error(
			`n8n's HTTP Request node not loaded from ${dir} (${error.message}); run npm run n8n:install`,
		);
		return undefined;
	}
}

/** The harness's node types, plus the floor node and n8n's HTTP Request node (when loaded). */
function nodeTypes(harness, sandbox, httpRequest) {
	return bench.nodeTypesWith(harness, {
		...(sandbox ? { [FLOOR_TYPE]: setUpFloor(harness, sandbox) } : {}),
		...(httpRequest ? { 'n8n-nodes-base.httpRequest': httpRequest.node } : {}),
	});
}

/** bench/sandbox-process.js, driven over IPC, one call at a time: `call(method, arg)` resolves what the sandbox's method returns. */
async function startSandboxProcess(options) {
	const child = fork(path.join(__dirname, 'sandbox-process.js'), [JSON.stringify(options)], {
		stdio: 'inherit',
	});
	const [ready] = await once(child, 'message');
	const call = async (cmd, arg) => {
		child.send({ cmd, arg });
		const [{ ok, value, error }] = await once(child, 'message');
		if (!ok) throw new Error(error);
		return value;
	};
	return { ...ready, call };
}

/** Wall time, CPU time of this process (the sandbox has its own) and peak RSS (sampled every 5 ms) while `work` runs. */
async function measured(work) {
	global.gc?.();
	let peak = process.memoryUsage.rss();
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
	const started = process.hrtime.bigint();
	const cpuBefore = process.cpuUsage();
	try {
		const result = await work();
		const cpu = process.cpuUsage(cpuBefore);
		return {
			ms: Number(process.hrtime.bigint() - started) / 1e6,
			cpuMs: (cpu.user + cpu.system) / 1000,
			peakRssMb: Math.max(peak, process.memoryUsage.rss()) / 1048576,
			result,
		};
	} finally {
		clearInterval(sampler);
	}
}

function postScenarios({ harness, types, sandbox, inputs, httpRequest }) {
	const runChecked = async (node) => {
		const { items, error, executionTime } = await runNodeWorkflow(harness, node, {
			nodeTypes: types,
			inputItems: inputs,
			workflowId: 'wf-bench',
		});
		await expectCreated(items, error);
		return { nodeMs: executionTime };
	};
	const expectCreated = async (items, error) => {
		check(!error, `run failed: ${error?.message}`);
		check(
			items.length === inputs.length,
			`${items.length} output items for ${inputs.length} inputs`,
		);
		const { records, distinctRefs } = await sandbox.call('recordCount');
		check(
			records === inputs.length && distinctRefs === inputs.length,
			`${records} records, ${distinctRefs} refs`,
		);
	};
	/** undici at `concurrency`; `fresh`: a new connection per request, as n8n's HTTP helper makes (`reset: true`). */
	const raw = (concurrency, fresh) => async () => {
		const limit = concurrency === 'all' ? inputs.length : concurrency;
		const client = new Pool(new URL(sandbox.baseUrl).origin, { connections: limit });
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
	};
	const at = (concurrency) =>
		concurrency === 'all' ? 'all items at once' : `concurrency ${concurrency}`;
	// Each node next to its floor, so that the two run one after the other in every round.
	const scenarios = CONCURRENCY.flatMap((concurrency) => [
		{
			name: `node-c${concurrency}`,
			label: `Tenant API node, concurrency ${concurrency}`,
			kind: 'node',
			concurrency,
			run: () => runChecked(bench.postNode(CREDENTIAL, { concurrency })),
		},
		{
			name: `floor-c${concurrency}`,
			label: `Floor node, concurrency ${concurrency}`,
			kind: 'floor',
			concurrency,
			run: () => runChecked(floorNodeDefinition(sandbox.baseUrl, concurrency)),
		},
	]);
	if (httpRequest)
		scenarios.push({
			name: 'http-request',
			label: `HTTP Request node ${httpRequest.version} (v4.5, defaults: all items at once)`,
			kind: 'httpRequest',
			concurrency: 'all',
			run: () => runChecked(bench.httpRequestNode(sandbox.baseUrl, sandbox.tenantId, HEADER_AUTH)),
		});
	for (const fresh of [false, true])
		for (const concurrency of [...CONCURRENCY, ...(httpRequest && !fresh ? ['all'] : [])])
			scenarios.push({
				name: `raw${fresh ? '-fresh' : ''}-c${concurrency}`,
				label: `undici${fresh ? ', new connection per request' : ' Pool'}, ${at(concurrency)}`,
				kind: fresh ? 'rawFresh' : 'raw',
				concurrency,
				run: raw(concurrency, fresh),
			});
	return scenarios.filter((s) => picked(s.name));
}

function listScenarios({ harness, types, sandbox }) {
	return [100, 1000]
		.flatMap((pageSize) => [
			{
				name: `list-node-p${pageSize}`,
				label: `Tenant API node, Return All, page size ${pageSize}${pageSize === 100 ? ' (default)' : ''}`,
				kind: 'node',
				pageSize,
				run: async () => {
					const { items, error, executionTime } = await runNodeWorkflow(
						harness,
						bench.returnAllNode(pageSize, CREDENTIAL),
						{ nodeTypes: types, inputItems: [{}], workflowId: 'wf-bench' },
					);
					check(!error, `listing failed: ${error?.message}`);
					check(items.length === args.accounts, `${items.length} accounts listed`);
					return { nodeMs: executionTime };
				},
			},
			{
				name: `list-raw-p${pageSize}`,
				label: `undici, following next_cursor, page size ${pageSize}`,
				kind: 'raw',
				pageSize,
				run: async () => {
					const client = new Pool(new URL(sandbox.baseUrl).origin, { connections: 1 });
					const get = async (url) => {
						const { pathname, search } = new URL(url);
						const { statusCode, body } = await client.request({
							method: 'GET',
							path: pathname + search,
							headers: { 'api-key': sandbox.apiKey, 'x-tenant-id': sandbox.tenantId },
						});
						check(statusCode === 200, `status ${statusCode}`);
						return await body.json();
					};
					await listAll(get, { ...sandbox, pageSize, accounts: args.accounts });
					await client.close();
					return {};
				},
			},
		])
		.filter((s) => picked(s.name));
}

/** Runs `work` under the V8 CPU profiler when --profile is given; writes bench/results/<name>.cpuprofile. */
async function profiled(name, work) {
	if (!args.profile) return await work();
	const session = new (require('node:inspector/promises').Session)();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 200 });
	await session.post('Profiler.start');
	try {
		return await work();
	} finally {
		const { profile } = await session.post('Profiler.stop');
		const file = path.join(__dirname, 'results', `${name}.cpuprofile`);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(profile));
		console.log(`CPU profile: ${path.relative(process.cwd(), file)}`);
		session.disconnect();
	}
}

/** `--rounds` rounds of every scenario (the order rotated every round); the medians per scenario. */
async function runRounds(scenarios, units, reset) {
	const samples = new Map(scenarios.map((s) => [s.name, []]));
	await profiled(scenarios.map((s) => s.name).join('+'), async () => {
		for (let round = 0; round < args.rounds; round++)
			for (const scenario of scenarios.map((_, i) => scenarios[(i + round) % scenarios.length])) {
				await reset();
				const { ms, cpuMs, peakRssMb, result } = await measured(() => scenario.run());
				samples
					.get(scenario.name)
					.push({ ms, cpuUsPerUnit: (cpuMs / units) * 1000, peakRssMb, nodeMs: result.nodeMs });
				process.stderr.write(
					`  round ${round + 1} ${scenario.name.padEnd(16)} ${ms.toFixed(0).padStart(6)} ms  ${((units / ms) * 1000).toFixed(0).padStart(6)} /s\n`,
				);
			}
	});
	return scenarios.map(({ run: _, ...s }) => {
		const runs = samples.get(s.name);
		const ms = median(runs.map((r) => r.ms));
		return {
			...s,
			ms,
			perSecond: (units / ms) * 1000,
			nodeMs: median(runs.map((r) => r.nodeMs ?? NaN)),
			cpuUsPerUnit: median(runs.map((r) => r.cpuUsPerUnit)),
			peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
			allMs: runs.map((r) => Math.round(r.ms)),
			allCpuUsPerUnit: runs.map((r) => r.cpuUsPerUnit),
		};
	});
}

/**
 * Each rate-limited scenario once a round against a sandbox of its own (a new origin: the node's rate governor starts
 * from nothing); a node scenario then runs again against the same sandbox, reset, the governor kept.
 */
async function runRateLimited() {
	const harness = await createHarness(sandboxCredential('http://127.0.0.1:9/v1'));
	const httpRequest = loadHttpRequestNode();
	const inputs = inputsOf(args.rlItems);
	const scenarios = rateLimitedScenarios({
		harness,
		nodeTypes: nodeTypes(harness, undefined, httpRequest),
		inputs,
		httpRequest,
		headerAuth: HEADER_AUTH,
	}).filter((s) => picked(s.name));
	const floorMs = (args.rlItems / RATE_LIMIT.perSecond) * 1000;
	console.log(
		`bulk POST of ${args.rlItems} items against ${RATE_LIMIT.perSecond} requests/s (burst ${RATE_LIMIT.burst}, ${LATENCY.fixedMs} ms per answer), floor ${floorMs / 1000} s, ${args.rlRounds} round(s):`,
	);
	const runs = [];
	for (let round = 0; round < args.rlRounds; round++)
		for (const scenario of scenarios) {
			const sandbox = await startSandboxProcess({
				rateLimit: { ...RATE_LIMIT, headers: scenario.headers ? 'ietf' : false },
				latency: LATENCY,
			});
			harness.credentials[TEST_CREDENTIAL_ID] = sandboxCredential(sandbox.baseUrl);
			harness.credentials[HEADER_AUTH.id] = { name: 'Api-Key', value: sandbox.apiKey };
			for (const again of scenario.again ? [false, true] : [false]) {
				if (again) await sandbox.call('reset');
				const run = {
					name: `${scenario.name}${again ? '-again' : ''}`,
					label: `${scenario.label}${again ? ', again in the same process' : ''}`,
					round,
					...(await againstFloor(args.rlItems, floorMs, () => scenario.run(sandbox))),
				};
				runs.push(run);
				logRun(round, run.name, run);
			}
			await sandbox.call('close');
		}
	return { floorMs, items: args.rlItems, rateLimit: RATE_LIMIT, latency: LATENCY, runs };
}

async function main() {
	const report = {
		date: new Date().toISOString(),
		machine: MACHINE,
		loadAverage: loadAverage(),
		args,
	};
	console.log(`machine: ${report.machine}, load ${report.loadAverage}`);

	if (section('node', 'floor', 'raw', 'http')) {
		const sandbox = await startSandboxProcess({});
		const harness = await createHarness(sandboxCredential(sandbox.baseUrl));
		harness.credentials[HEADER_AUTH.id] = { name: 'Api-Key', value: sandbox.apiKey };
		const httpRequest = loadHttpRequestNode();
		const ctx = { harness, types: nodeTypes(harness, sandbox, httpRequest), sandbox, httpRequest };
		// Warm-up: every scenario once on 100 items (JIT, module loading, connection pools).
		for (const s of postScenarios({ ...ctx, inputs: inputsOf(Math.min(100, args.items)) })) {
			await sandbox.call('reset');
			await s.run();
		}
		console.log(`bulk POST of ${args.items} items, ${args.rounds} rounds (median):`);
		report.post = await runRounds(
			postScenarios({ ...ctx, inputs: inputsOf(args.items) }),
			args.items,
			() => sandbox.call('reset'),
		);
		report.httpRequestVersion = httpRequest?.version;
		await sandbox.call('close');
	}
	if (section('rl')) report.rateLimited = await runRateLimited();
	if (section('queue')) report.queueWorkers = await queueWorkersBench();
	if (section('list')) {
		const sandbox = await startSandboxProcess({ accounts: args.accounts, maxPageSize: 1000 });
		const harness = await createHarness(sandboxCredential(sandbox.baseUrl));
		const scenarios = listScenarios({ harness, types: nodeTypes(harness), sandbox });
		for (const s of scenarios) await s.run(); // warm-up (and the sandbox's listing cache)
		console.log(`listing ${args.accounts} accounts, ${args.rounds} rounds (median):`);
		report.list = await runRounds(scenarios, args.accounts, async () => {});
		await sandbox.call('close');
	}
	if (section('webhook')) report.webhook = webhookBench({ baseline: args.baseline });

	report.peakRssMbProcess = process.resourceUsage().maxRSS / 1024;
	print(report);
	const out = path.join(__dirname, 'results', 'latest.json');
	fs.mkdirSync(path.dirname(out), { recursive: true });
	fs.writeFileSync(out, JSON.stringify(report, null, 2));
	console.log(`\nwritten: ${path.relative(process.cwd(), out)}`);
}

/** `r` against `other` of the same concurrency (or page size): time ratio, or CPU ratio round by round. */
const vs = (rows, r, name, what = 'ms') => {
	const other = rows.find((o) => o.name === name);
	if (!other || other === r) return '';
	return `${fmt(what === 'cpu' ? pairedRatio(r.allCpuUsPerUnit, other.allCpuUsPerUnit) : r.ms / other.ms, 2)}×`;
};

/** A row of the rounds' tables: per second, median ms (each run's), client CPU µs per unit, `comparisons`, peak RSS. */
const roundsRow = (r, cpuDigits, ...comparisons) => [
	r.label,
	fmt(r.perSecond),
	`${fmt(r.ms)} (${r.allMs.join(', ')})`,
	fmt(r.cpuUsPerUnit, cpuDigits),
	...comparisons,
	fmt(r.peakRssMb),
];

function print(report) {
	const { post = [], rateLimited, queueWorkers, list = [], webhook } = report;
	const http = post.find((r) => r.name === 'http-request');
	if (post.length)
		table(
			'Scenario | items/s | median ms (runs) | client CPU µs/item | CPU vs floor node, same concurrency | time vs raw Pool, same concurrency | time vs raw, new connection per request | speed vs HTTP Request | peak RSS MB',
			post.map((r) =>
				roundsRow(
					r,
					0,
					r.kind === 'node' ? vs(post, r, `floor-c${r.concurrency}`, 'cpu') : '',
					r.kind.startsWith('raw') ? '' : vs(post, r, `raw-c${r.concurrency}`),
					r.kind.startsWith('raw') ? '' : vs(post, r, `raw-fresh-c${r.concurrency}`),
					http && r !== http ? `${fmt(r.perSecond / http.perSecond, 2)}×` : '',
				),
			),
		);
	if (rateLimited)
		printRuns(
			`Against ${rateLimited.rateLimit.perSecond} requests/s (floor ${fmt(rateLimited.floorMs / 1000, 1)} s)`,
			rateLimited.runs,
		);
	if (queueWorkers) printQueueWorkers(queueWorkers);
	if (list.length)
		table(
			'Listing | accounts/s | median ms (runs) | client CPU µs/account | time vs raw, same page size | peak RSS MB',
			list.map((r) => roundsRow(r, 1, vs(list, r, `list-raw-p${r.pageSize}`))),
		);
	if (webhook) printWebhook(webhook);
	console.log(
		`\npeak RSS of the benchmark process: ${fmt(report.peakRssMbProcess)} MB; load average at start ${report.loadAverage}, now ${loadAverage()}`,
	);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
