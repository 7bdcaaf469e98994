'use strict';
/**
 * npm run bench:n8n [-- --items 2000 --concurrency 1,4,16 --tarball path.tgz --skip-post --skip-payload
 *                      --executions 300 --at-once 25 --exec-rounds 1 --skip-executions --queue --n8n 2.40.7
 *                      --skip-list --accounts 20000 --page-size 100 --list-rounds 3 --cpu-prof <dir>]
 *
 * The same bulk POST in a real n8n (test/harness/n8n/install.js's DEFAULT_VERSION, or --n8n <version> of its
 * VERSIONS, from its cache; SQLite, the packed
 * package installed as a community package): Manual Trigger → Code (N items) → Tenant API node at
 * concurrency 1/4/16, and → n8n's HTTP Request node configured as a user would. Each workflow runs once
 * with `n8n execute`; the figure is the node's own executionTime from the run data, so n8n's start-up
 * and the Code node are not counted. Real n8n reads credentials from its database and decrypts them,
 * which the in-process benchmark (npm run bench) does not.
 *
 * Then (unless --skip-list) Return All over --accounts accounts in pages of --page-size against HTTP
 * Request + Pagination + Split Out and a plain client, --list-rounds times each (bench/listingN8n.js;
 * --cpu-prof <dir>: a V8 CPU profile of each listing's `n8n execute` in <dir>).
 *
 * Then `n8n start`, and (unless --skip-executions) many short executions against a rate-limited API
 * (bench/executions.js: 300 webhook calls, 25 at once, each an execution that POSTs one item; the API at
 * 10 requests/s), through the Tenant API node and through n8n's HTTP Request node with Retry On Fail,
 * --exec-rounds times each. Then (unless --skip-payload) signed deliveries of 15 MiB and 17 MiB to the
 * trigger example: the second is above N8N_PAYLOAD_SIZE_MAX (16 MiB by default), so n8n turns it away
 * before the trigger runs. Writes bench/results/real-n8n.json.
 *
 * --queue: instead of all that, the same executions on a queue-mode cluster (test/harness/queue/cluster.js:
 * Redis and PostgreSQL from Debian packages, a main, two workers, a webhook processor), each worker with
 * a rate governor of its own. Writes bench/results/queue-n8n.json.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const installer = require('../test/harness/n8n/install');
const { createInstance } = require('../test/harness/n8n/instance');
const { parseArgs } = require('./args');
const { freePort } = require('../test/harness/n8n/ports');
const { createActiveWorkflow, waitForWebhook } = require('../test/harness/n8n/session');
const { buildAndPack } = require('../test/harness/pack');
const {
	createCredential,
	importExamples,
	sandboxCredentials,
} = require('../test/harness/n8n/examples');
const { startSandbox } = require('../sandbox/server');
const { sign } = require('../sandbox/signing');
const { RATE, executionWorkflows, printExecutions, runExecutions } = require('./executions');
const { listingBenchmarks } = require('./listingN8n');
const { MANUAL_TRIGGER, chain, imported, node } = require('../test/harness/n8n/workflows');
const { httpRequestNode, importWorkflows, postNode } = require('./workflow');

const args = parseArgs(process.argv.slice(2), {
	items: 2000,
	tarball: /** @type {string | undefined} */ (undefined),
	skipPayload: false,
	skipPost: false,
	skipExecutions: false,
	queue: false,
	executions: 300,
	atOnce: 25,
	execRounds: 1,
	concurrency: [1, 4, 16],
	n8n: installer.DEFAULT_VERSION,
	skipList: false,
	accounts: 20000,
	pageSize: 100,
	listRounds: 3,
	cpuProf: /** @type {string | undefined} */ (undefined),
});
/** The example credential (examples/credentials.json, imported with the examples) and the HTTP Request node's. */
const TENANT_API = { id: 'tenantApiDemo', name: 'Tenant API (sandbox)' };
const HEADER_AUTH = { id: 'benchHeaderAuth', name: 'Header Auth (bench)' };

/** Manual Trigger → Code (--items items) → `nodeUnderTest`, for `n8n import:workflow` and `n8n execute --id`. */
function workflow(id, nodeUnderTest) {
	const jsCode = `return Array.from({ length: ${args.items} }, (_, i) => ({ json: { ref: 'bench-' + i, amount: i + 1 } }));`;
	return chain(
		`bench ${id}`,
		[
			node('Start', MANUAL_TRIGGER),
			node('Items', 'n8n-nodes-base.code', { jsCode }, { typeVersion: 2 }),
			nodeUnderTest,
		],
		imported(id),
	);
}

/** The HTTP Request node's credential (Header Auth with the Api-Key); the Tenant API one comes with the examples. */
async function importHeaderCredential(n8n, sandbox) {
	const tmp = path.join(n8n.userFolder, 'bench-import');
	fs.mkdirSync(tmp, { recursive: true });
	fs.writeFileSync(
		path.join(tmp, 'credentials.json'),
		JSON.stringify([
			{
				...HEADER_AUTH,
				type: 'httpHeaderAuth',
				data: { name: 'Api-Key', value: sandbox.apiKey },
			},
		]),
	);
	await n8n.cli(['import:credentials', `--input=${path.join(tmp, 'credentials.json')}`]);
}

/** The executions' two webhook workflows, imported and published (active once n8n starts). */
async function importExecutionWorkflows(n8n, sandbox) {
	const flows = executionWorkflows(sandbox, { tenantApi: TENANT_API, headerAuth: HEADER_AUTH });
	await importWorkflows(
		n8n,
		'executions',
		flows.map((flow) => flow.workflow),
	);
	for (const flow of flows) await n8n.publish(flow.workflow.id);
	return flows;
}

/** Each flow --exec-rounds times, one after the other; every run's figures are reported. */
async function executionBenchmarks(base, sandbox, flows, waitForWebhook) {
	const results = [];
	for (const flow of flows) await waitForWebhook(flow.path);
	for (let round = 0; round < args.execRounds; round++) {
		for (const flow of flows) {
			const result = await runExecutions(sandbox, base + flow.path, {
				count: args.executions,
				atOnce: args.atOnce,
				tag: `${flow.name}-${round}`,
			});
			results.push({ name: flow.name, label: flow.label, round, ...result });
			console.log(
				`  round ${round + 1} ${flow.label.padEnd(58)} ${(result.ms / 1000).toFixed(1)} s  ${result.vsFloor.toFixed(3)}× floor  failed ${result.failed}  duplicates ${result.duplicates}  ${result.requestsPerItem.toFixed(3)} requests/item  ${result.rateLimited} 429s`,
			);
		}
	}
	return results;
}

async function postBenchmarks(n8n, sandbox) {
	const scenarios = [
		...args.concurrency.map((c) => ({
			id: `benchNodeC${c}`,
			label: `Tenant API node, concurrency ${c}`,
			node: postNode(TENANT_API, { concurrency: c }),
		})),
		{
			id: 'benchHttpRequest',
			label: 'HTTP Request node (v4.5, defaults: all items at once)',
			node: httpRequestNode(sandbox.baseUrl, sandbox.tenantId, HEADER_AUTH),
		},
	];
	await importWorkflows(
		n8n,
		'post',
		scenarios.map((s) => workflow(s.id, s.node)),
	);

	const results = [];
	for (const s of scenarios) {
		sandbox.reset();
		const started = Date.now();
		const { code, data } = await n8n.execute(s.id);
		const wallMs = Date.now() - started;
		const task = data.data.resultData.runData[s.node.name]?.[0];
		const error = data.data.resultData.error?.message ?? task?.error?.message;
		const records = sandbox.stats().records;
		const distinct = new Set(sandbox.records().map((r) => r.ref)).size;
		if (code !== 0 || error || records !== args.items || distinct !== args.items) {
			throw new Error(
				`${s.label}: exit ${code}, error ${error}, ${records} records for ${distinct} refs`,
			);
		}
		const nodeMs = task.executionTime;
		results.push({
			name: s.id,
			label: s.label,
			nodeMs,
			perSecond: (args.items / nodeMs) * 1000,
			cliWallMs: wallMs,
		});
		console.log(
			`  ${s.label.padEnd(55)} ${String(nodeMs).padStart(6)} ms  ${((args.items / nodeMs) * 1000).toFixed(0).padStart(5)} items/s  (n8n execute: ${wallMs} ms)`,
		);
	}
	return results;
}

async function payloadLimit(n8n, webhookPath, workflowId, secret) {
	await n8n.waitForWebhook(webhookPath);
	const triggerExecutions = async () =>
		(await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=50`)).json?.data?.length ??
		NaN;
	const results = [];
	for (const mib of [15, 17]) {
		const before = await triggerExecutions();
		const head = JSON.stringify({ id: `evt_${mib}mib`, event: 'transfers.created', filler: '' });
		const body = head.replace(
			'"filler":""',
			`"filler":"${'x'.repeat(mib * 1048576 - Buffer.byteLength(head))}"`,
		);
		const started = Date.now();
		const res = await fetch(n8n.url + webhookPath, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...sign({ secret, body }) },
			body,
		});
		const text = await res.text();
		const ms = Date.now() - started;
		await new Promise((r) => setTimeout(r, 3000));
		const executionsStarted = (await triggerExecutions()) - before;
		const logged = n8n
			.logTail(40)
			.split('\n')
			.filter((line) => /too large|limit|webhook request/i.test(line))
			.slice(-2);
		results.push({
			bytes: Buffer.byteLength(body),
			mib,
			status: res.status,
			answer: text.slice(0, 200),
			ms,
			executionsStarted,
			logged,
		});
		console.log(
			`  signed ${mib} MiB delivery → ${res.status} ${text.slice(0, 120)} (${ms} ms), executions started: ${executionsStarted}`,
		);
		for (const line of logged) console.log(`    n8n log: ${line.slice(0, 200)}`);
	}
	return results;
}

const loadAverage = () =>
	os
		.loadavg()
		.map((l) => l.toFixed(2))
		.join(' ');

/** The report's head: when, where, what. */
const reportHead = (extra) => ({
	date: new Date().toISOString(),
	n8n: args.n8n,
	...extra,
	cpu: `${os.cpus().length} × ${os.cpus()[0]?.model}`,
	loadAverage: loadAverage(),
});

/** --tarball, or the package built and packed into a folder of our own (the shared one may be rewritten by a concurrent e2e run). */
function packed() {
	if (args.tarball) return { tarball: path.resolve(args.tarball), packDir: undefined };
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-bench-pack-'));
	return { tarball: buildAndPack({ dest: packDir }), packDir };
}

/** Writes bench/results/<file> and removes the folders the run made (BENCH_KEEP=1 keeps them). */
function finish(report, file, folders) {
	report.loadAverageEnd = loadAverage();
	const out = path.join(__dirname, 'results');
	fs.mkdirSync(out, { recursive: true });
	fs.writeFileSync(path.join(out, file), JSON.stringify(report, null, 2));
	const made = folders.filter(Boolean);
	if (process.env.BENCH_KEEP === '1') console.log(`kept ${made.join(' and ')}`);
	else for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
}

async function main() {
	const version = args.n8n;
	const { tarball, packDir } = packed();
	installer.ensureN8n(version);
	// n8n start takes port + 1 for its task-runner broker, `n8n execute` port + 2.
	const port = await freePort({ run: 3 });
	const secret = 'whsec_bench_payload';
	const sandbox = await startSandbox({
		port: 0,
		accounts: args.skipList ? undefined : args.accounts,
		maxPageSize: Math.max(100, args.pageSize),
	});
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-bench-n8n-'));
	const n8n = createInstance({ version, userFolder, port, tarball });
	const report = reportHead({ items: args.items });
	try {
		await n8n.installPackage();
		const { webhookPath, workflows } = await importExamples(n8n, sandbox, { secret });
		await importHeaderCredential(n8n, sandbox);
		const flows = args.skipExecutions ? [] : await importExecutionWorkflows(n8n, sandbox);
		if (!args.skipPost) {
			console.log(`real n8n ${version}: bulk POST of ${args.items} items (node executionTime)`);
			report.post = await postBenchmarks(n8n, sandbox);
		}
		if (!args.skipList) {
			console.log(
				`real n8n ${version}: Return All over ${args.accounts} accounts, page size ${args.pageSize} (nodes' executionTime)`,
			);
			report.listing = await listingBenchmarks(
				n8n,
				sandbox,
				{
					tenantApi: TENANT_API,
					headerAuth: HEADER_AUTH,
				},
				{
					accounts: args.accounts,
					pageSize: args.pageSize,
					rounds: args.listRounds,
					cpuProfDir: args.cpuProf && path.resolve(args.cpuProf),
				},
			);
		}
		if (!args.skipExecutions || !args.skipPayload) await n8n.start();
		if (!args.skipExecutions) {
			console.log(
				`real n8n ${version}: ${args.executions} webhook-started executions of one item, ${args.atOnce} at once, API at ${RATE.perSecond} requests/s`,
			);
			report.executions = await executionBenchmarks(
				n8n.url,
				sandbox,
				flows,
				async (p) => await n8n.waitForWebhook(p),
			);
			printExecutions(
				`real n8n ${version}, ${args.executions} executions, ${args.atOnce} at once (floor ${args.executions / RATE.perSecond} s)`,
				report.executions,
			);
		}
		if (!args.skipPayload) {
			console.log(`real n8n ${version}: payload limit (N8N_PAYLOAD_SIZE_MAX default 16 MiB)`);
			report.payload = await payloadLimit(
				n8n,
				webhookPath,
				workflows['webhook-trigger'].id,
				secret,
			);
		}
	} finally {
		if (n8n.running) await n8n.stop().catch(() => undefined);
		await sandbox.close();
		finish(report, 'real-n8n.json', [userFolder, packDir]);
	}
	const http = report.post?.find((r) => r.name === 'benchHttpRequest');
	for (const r of report.post ?? [])
		if (r !== http)
			console.log(
				`  ${r.label}: ${(r.perSecond / http.perSecond).toFixed(2)}× the speed of HTTP Request`,
			);
}

/**
 * --queue: the executions on n8n's queue mode, two workers (each its own process, so its own rate
 * governor) and a webhook processor; credentials and workflows through the public API, as test/queue does.
 */
async function queueMain() {
	const clusterLib = require('../test/harness/queue/cluster');
	require('../test/harness/queue/services').ensurePackages();
	const { tarball, packDir } = packed();
	const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-bench-queue-'));
	const sandbox = await startSandbox({ port: 0 });
	const report = reportHead({ mode: 'queue', workers: 2 });
	let cluster;
	try {
		// Enough slots on the two workers for every execution of the burst to run at once.
		cluster = await clusterLib.startCluster({
			tarball,
			runDir,
			version: args.n8n,
			workers: 2,
			concurrency: Math.ceil(args.atOnce / 2),
		});
		const { tenantApi } = await sandboxCredentials(cluster, sandbox, '', 'bench');
		const headerAuth = await createCredential(cluster, {
			name: HEADER_AUTH.name,
			type: 'httpHeaderAuth',
			data: { name: 'Api-Key', value: sandbox.apiKey },
		});
		const flows = executionWorkflows(sandbox, { tenantApi, headerAuth }).filter(
			(flow) => flow.name === 'exec-tenant-api',
		);
		for (const flow of flows) {
			const { nodes, connections, settings, name } = flow.workflow;
			await createActiveWorkflow(cluster, { name, nodes, connections, settings });
		}
		await cluster.startProcessors();
		console.log(
			`n8n ${args.n8n} in queue mode (2 workers): ${args.executions} webhook-started executions of one item, ${args.atOnce} at once, API at ${RATE.perSecond} requests/s`,
		);
		report.executions = await executionBenchmarks(
			cluster.webhookBase,
			sandbox,
			flows,
			async (p) => await waitForWebhook(cluster.webhookBase, p),
		);
		printExecutions(
			`queue mode, 2 workers, ${args.executions} executions, ${args.atOnce} at once (floor ${args.executions / RATE.perSecond} s)`,
			report.executions,
		);
	} finally {
		if (cluster)
			await cluster.stop().catch((error) => console.error(`cluster stop: ${error.message}`));
		await sandbox.close();
		finish(report, 'queue-n8n.json', [runDir, packDir]);
	}
}

(args.queue ? queueMain() : main()).catch((error) => {
	console.error(error);
	process.exit(1);
});
