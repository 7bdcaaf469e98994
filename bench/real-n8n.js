'use strict';
/**
 * npm run bench:n8n [-- --n8n <version> --items 2000 --accounts 20000 --list-rounds 3 --exec-rounds 1 --cpu-prof <dir>
 *                      --skip-post --skip-executions --skip-payload --queue]
 *
 * In a real n8n with the packed package installed: bulk POST, Return All (bench/listingN8n.js), many executions
 * against a rate-limited API (bench/executions.js) and the payload limit; --queue: only the executions, on a
 * queue-mode cluster. What each part measures and the figures: docs/benchmarks.md.
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
const { RATE, executionWorkflows, runExecutions } = require('./executions');
const { listingBenchmarks } = require('./listingN8n');
const { MACHINE, loadAverage, logRun, printRuns } = require('./report');
const { MANUAL_TRIGGER, chain, imported, node } = require('../test/harness/n8n/workflows');
const { execute, httpRequestNode, importWorkflows, postNode } = require('./workflow');

const args = parseArgs(process.argv.slice(2), {
	n8n: installer.DEFAULT_VERSION,
	items: 2000,
	accounts: 20000,
	listRounds: 3,
	execRounds: 1,
	cpuProf: '',
	skipPost: false,
	skipExecutions: false,
	skipPayload: false,
	queue: false,
});
const EXECUTIONS = { count: 300, atOnce: 25 };
/** The example credential (examples/credentials.json, imported with the examples) and the HTTP Request node's. */
const TENANT_API = { id: 'tenantApiDemo', name: 'Tenant API (sandbox)' };
const HEADER_AUTH = { id: 'benchHeaderAuth', name: 'Header Auth (bench)' };

/** Each flow --exec-rounds times, one after the other; every run's figures are reported. */
async function executionBenchmarks(title, base, sandbox, flows, waitFor) {
	console.log(
		`${title}: ${EXECUTIONS.count} webhook-started executions of one item, ${EXECUTIONS.atOnce} at once, API at ${RATE.perSecond} requests/s`,
	);
	const results = [];
	for (const flow of flows) await waitFor(flow.path);
	for (let round = 0; round < args.execRounds; round++)
		for (const flow of flows) {
			const tag = `${flow.name}-${round}`;
			const result = await runExecutions(sandbox, base + flow.path, { ...EXECUTIONS, tag });
			results.push({ name: flow.name, label: flow.label, round, ...result });
			logRun(round, flow.name, result);
		}
	console.log(`\n${title} (floor ${EXECUTIONS.count / RATE.perSecond} s)`);
	printRuns('Scenario', results);
	return results;
}

async function postBenchmarks(n8n, sandbox) {
	const scenarios = [
		...[1, 4, 16].map((c) => ({
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
	const jsCode = `return Array.from({ length: ${args.items} }, (_, i) => ({ json: { ref: 'bench-' + i, amount: i + 1 } }));`;
	const items = node('Items', 'n8n-nodes-base.code', { jsCode }, { typeVersion: 2 });
	const flows = scenarios.map((s) =>
		chain(`bench ${s.id}`, [node('Start', MANUAL_TRIGGER), items, s.node], imported(s.id)),
	);
	await importWorkflows(n8n, 'post', flows);
	const results = [];
	for (const s of scenarios) {
		sandbox.reset();
		const runData = await execute(n8n, s.id, [s.node.name]);
		const records = sandbox.records();
		const distinct = new Set(records.map((r) => r.ref)).size;
		if (records.length !== args.items || distinct !== args.items)
			throw new Error(`${s.label}: ${records.length} records for ${distinct} refs`);
		const nodeMs = runData[s.node.name][0].executionTime;
		results.push({ name: s.id, label: s.label, nodeMs, perSecond: (args.items / nodeMs) * 1000 });
		console.log(
			`  ${s.label.padEnd(55)} ${String(nodeMs).padStart(6)} ms  ${((args.items / nodeMs) * 1000).toFixed(0)} items/s`,
		);
	}
	const http = results.find((r) => r.name === 'benchHttpRequest');
	for (const r of results)
		if (r !== http)
			console.log(
				`  ${r.label}: ${(r.perSecond / http.perSecond).toFixed(2)}× the speed of HTTP Request`,
			);
	return results;
}

/** Signed deliveries of 15 and 17 MiB to the trigger example: the second is above n8n's default N8N_PAYLOAD_SIZE_MAX. */
async function payloadLimit(n8n, webhookPath, workflowId, secret) {
	console.log(`real n8n ${args.n8n}: payload limit (N8N_PAYLOAD_SIZE_MAX default 16 MiB)`);
	await n8n.waitForWebhook(webhookPath);
	const executions = async () =>
		(await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=50`)).json?.data?.length ??
		NaN;
	const results = [];
	for (const mib of [15, 17]) {
		const before = await executions();
		const head = JSON.stringify({ id: `evt_${mib}mib`, event: 'transfers.created', filler: '' });
		const filler = 'x'.repeat(mib * 1048576 - Buffer.byteLength(head));
		const body = head.replace('"filler":""', `"filler":"${filler}"`);
		const res = await fetch(n8n.url + webhookPath, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...sign({ secret, body }) },
			body,
		});
		const answer = (await res.text()).slice(0, 200);
		await new Promise((r) => setTimeout(r, 3000));
		const executionsStarted = (await executions()) - before;
		const logged = n8n
			.logTail(40)
			.split('\n')
			.filter((line) => /too large|limit|webhook request/i.test(line))
			.slice(-2);
		results.push({ mib, status: res.status, answer, executionsStarted, logged });
		console.log(
			`  signed ${mib} MiB delivery → ${res.status} ${answer}, executions started: ${executionsStarted}`,
		);
		for (const line of logged) console.log(`    n8n log: ${line.slice(0, 200)}`);
	}
	return results;
}

/** Packs the package into a folder of our own (the shared one may be rewritten by a concurrent e2e run), runs `work`, writes bench/results/<file>. */
async function withReport(file, extra, work) {
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-bench-pack-'));
	const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-bench-run-'));
	const report = {
		date: new Date().toISOString(),
		n8n: args.n8n,
		...extra,
		machine: MACHINE,
		loadAverage: loadAverage(),
	};
	try {
		await work(buildAndPack({ dest: packDir }), runDir, report);
	} finally {
		report.loadAverageEnd = loadAverage();
		const out = path.join(__dirname, 'results');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(path.join(out, file), JSON.stringify(report, null, 2));
		for (const dir of [runDir, packDir]) fs.rmSync(dir, { recursive: true, force: true });
	}
}

const main = () =>
	withReport('real-n8n.json', { items: args.items }, async (tarball, userFolder, report) => {
		installer.ensureN8n(args.n8n);
		const port = await freePort({ run: 3 }); // n8n start takes port + 1 for its task-runner broker, `n8n execute` port + 2
		const secret = 'whsec_bench_payload';
		const sandbox = await startSandbox({ port: 0, accounts: args.accounts });
		const n8n = createInstance({ version: args.n8n, userFolder, port, tarball });
		try {
			await n8n.installPackage();
			const { webhookPath, workflows } = await importExamples(n8n, sandbox, { secret });
			fs.mkdirSync(path.join(userFolder, 'bench-import'), { recursive: true });
			const credentials = path.join(userFolder, 'bench-import', 'credentials.json');
			const data = { name: 'Api-Key', value: sandbox.apiKey };
			fs.writeFileSync(
				credentials,
				JSON.stringify([{ ...HEADER_AUTH, type: 'httpHeaderAuth', data }]),
			);
			await n8n.cli(['import:credentials', `--input=${credentials}`]);
			const credentialIds = { tenantApi: TENANT_API, headerAuth: HEADER_AUTH };
			const flows = executionWorkflows(sandbox, credentialIds);
			if (!args.skipExecutions) {
				await importWorkflows(
					n8n,
					'executions',
					flows.map((flow) => flow.workflow),
				);
				for (const flow of flows) await n8n.publish(flow.workflow.id);
			}
			if (!args.skipPost) {
				console.log(`real n8n ${args.n8n}: bulk POST of ${args.items} items (node executionTime)`);
				report.post = await postBenchmarks(n8n, sandbox);
			}
			const options = {
				accounts: args.accounts,
				pageSize: 100,
				rounds: args.listRounds,
				cpuProfDir: args.cpuProf && path.resolve(args.cpuProf),
			};
			console.log(
				`real n8n ${args.n8n}: Return All over ${args.accounts} accounts, page size 100 (nodes' executionTime)`,
			);
			report.listing = await listingBenchmarks(n8n, sandbox, credentialIds, options);
			if (!args.skipExecutions || !args.skipPayload) await n8n.start();
			const title = `real n8n ${args.n8n}`;
			const wait = (p) => n8n.waitForWebhook(p);
			if (!args.skipExecutions)
				report.executions = await executionBenchmarks(title, n8n.url, sandbox, flows, wait);
			const triggerId = workflows['webhook-trigger'].id;
			if (!args.skipPayload)
				report.payload = await payloadLimit(n8n, webhookPath, triggerId, secret);
		} finally {
			if (n8n.running) await n8n.stop().catch(() => undefined);
			await sandbox.close();
		}
	});

/** --queue: the executions on n8n's queue mode, two workers and a webhook processor; set up through the public API. */
const queueMain = () =>
	withReport('queue-n8n.json', { mode: 'queue', workers: 2 }, async (tarball, runDir, report) => {
		const clusterLib = require('../test/harness/queue/cluster');
		require('../test/harness/queue/services').ensurePackages();
		const sandbox = await startSandbox({ port: 0 });
		let cluster;
		try {
			// Enough slots on the two workers for every execution of the burst to run at once.
			const concurrency = Math.ceil(EXECUTIONS.atOnce / 2);
			const version = args.n8n;
			cluster = await clusterLib.startCluster({
				tarball,
				runDir,
				version,
				workers: 2,
				concurrency,
			});
			const { tenantApi } = await sandboxCredentials(cluster, sandbox, '', 'bench');
			const headerAuth = await createCredential(cluster, {
				name: HEADER_AUTH.name,
				type: 'httpHeaderAuth',
				data: { name: 'Api-Key', value: sandbox.apiKey },
			});
			const flows = executionWorkflows(sandbox, { tenantApi, headerAuth }).slice(0, 1);
			for (const { workflow } of flows) {
				const { nodes, connections, settings, name } = workflow;
				await createActiveWorkflow(cluster, { name, nodes, connections, settings });
			}
			await cluster.startProcessors();
			const title = `n8n ${args.n8n} in queue mode (2 workers)`;
			const base = cluster.webhookBase;
			const wait = (p) => waitForWebhook(base, p);
			report.executions = await executionBenchmarks(title, base, sandbox, flows, wait);
		} finally {
			if (cluster)
				await cluster.stop().catch((error) => console.error(`cluster stop: ${error.message}`));
			await sandbox.close();
		}
	});

(args.queue ? queueMain() : main()).catch((error) => {
	console.error(error);
	process.exit(1);
});
