'use strict';
/**
 * Return All in a real n8n, for bench/real-n8n.js: the Tenant API node, n8n's HTTP Request node + Pagination + Split
 * Out as a user builds it, and a plain client (bench/plainListing.js); each run checked, and with a `cpuProfDir` its
 * paging loop shown by where its time went (bench/cpuProfile.js). docs/benchmarks.md "Return All in a real n8n".
 */
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { GROUPS, breakdown, describe } = require('./cpuProfile');
const { median } = require('./cpuTiming');
const { table } = require('./report');
const { MANUAL_TRIGGER, chain, imported, node } = require('../test/harness/n8n/workflows');
const { execute, importWorkflows, returnAllNode } = require('./workflow');

/** Start → `nodes`, for `n8n import:workflow` and `n8n execute --id`. */
const listing = (id, nodes) =>
	chain(`bench ${id}`, [node('Start', MANUAL_TRIGGER), ...nodes], imported(id));

/** The two listing workflows; `timedNodes`: those whose executionTime adds up to the scenario's time. */
function listingScenarios(sandbox, credentials, pageSize) {
	const tenantApi = returnAllNode(pageSize, credentials.tenantApi);
	const httpRequest = {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.5,
		parameters: {
			url: `${sandbox.baseUrl}/accounts`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'limit', value: String(pageSize) }] },
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'x-tenant-id', value: sandbox.tenantId }] },
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [
								{ type: 'qs', name: 'cursor', value: '={{ $response.body.next_cursor }}' },
							],
						},
						paginationCompleteWhen: 'other',
						completeExpression: '={{ !$response.body.has_more }}',
					},
				},
			},
		},
		credentials: { httpHeaderAuth: credentials.headerAuth },
	};
	const splitOut = {
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'data' },
	};
	return [
		{
			name: 'list-tenant-api',
			label: 'Tenant API node, Return All',
			workflow: listing('benchListTenantApi', [tenantApi]),
			timedNodes: [tenantApi.name],
			outputNode: tenantApi.name,
			profile: { windowFunction: 'fetchListing', ownPackage: 'n8n-nodes-tenant-api' },
		},
		{
			name: 'list-http-request',
			label: 'HTTP Request + Pagination + Split Out',
			workflow: listing('benchListHttpRequest', [httpRequest, splitOut]),
			timedNodes: [httpRequest.name, splitOut.name],
			outputNode: splitOut.name,
			profile: {
				windowFunction: 'requestWithAuthenticationPaginated',
				ownPackage: 'n8n-nodes-base',
			},
		},
	];
}

/** Runs bench/plainListing.js on `nodeBin`; resolves its { pages, coldMs, warmMs }. */
async function plainListing(nodeBin, options) {
	const script = path.join(__dirname, 'plainListing.js');
	const { stdout } = await promisify(execFile)(nodeBin, [script, JSON.stringify(options)]);
	return JSON.parse(stdout);
}

/** The 1-minute load average: on a shared machine, the wait for a CPU shows in every page's time. */
const load = () => os.loadavg()[0].toFixed(1);

/** The n8n side of one run: the timed nodes' executionTime, checked output. */
async function runWorkflow(n8n, scenario, { accounts, profileDir }) {
	const extraEnv = profileDir
		? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` }
		: undefined;
	const loadBefore = load();
	const runData = await execute(n8n, scenario.workflow.id, scenario.timedNodes, { extraEnv });
	const items = runData[scenario.outputNode]?.[0]?.data?.main?.[0] ?? [];
	const ids = [items[0]?.json?.id, items[items.length - 1]?.json?.id];
	const lastId = `acc_${String(accounts).padStart(4, '0')}`;
	if (items.length !== accounts || ids[0] !== 'acc_0001' || ids[1] !== lastId)
		throw new Error(`${scenario.label}: ${items.length} items (${ids.join(' … ')})`);
	return {
		load: `${loadBefore} → ${load()}`,
		ms: scenario.timedNodes.reduce((sum, name) => sum + runData[name][0].executionTime, 0),
		byNode: Object.fromEntries(
			scenario.timedNodes.map((name) => [name, runData[name][0].executionTime]),
		),
	};
}

/** `rounds` rounds of each workflow, then each plain client, once; prints every run and a summary per page. */
async function listingBenchmarks(n8n, sandbox, credentials, options) {
	const { accounts, pageSize, rounds, cpuProfDir } = options;
	const pages = Math.ceil(accounts / pageSize);
	const scenarios = listingScenarios(sandbox, credentials, pageSize);
	const workflows = scenarios.map((s) => s.workflow);
	await importWorkflows(n8n, 'listing', workflows);
	/** bench/plainListing.js's clients and how the summary names them. */
	const clientLabels = {
		fetch: 'fetch, keep-alive',
		'http-new-agent': 'node:http, new agent per request',
	};
	const clients = Object.keys(clientLabels);
	const runs = Object.fromEntries(
		[...scenarios.map((s) => s.name), ...clients].map((n) => [n, []]),
	);
	for (let round = 0; round < rounds; round++) {
		for (const s of scenarios) {
			const profileDir = cpuProfDir && path.join(cpuProfDir, `${s.name}-${round + 1}`);
			if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
			const run = await runWorkflow(n8n, s, { accounts, profileDir });
			runs[s.name].push(run);
			const parts = Object.entries(run.byNode).map(([name, ms]) => `${name} ${ms}`);
			console.log(
				`  round ${round + 1} ${s.label.padEnd(40)} ${String(run.ms).padStart(6)} ms  ${(run.ms / pages).toFixed(2)} ms/page  (${parts.join(' + ')}; load ${run.load})`,
			);
			if (profileDir) {
				run.profile = breakdown(profileDir, s.profile.windowFunction, s.profile.ownPackage);
				const lines = run.profile
					? describe(run.profile, pages)
					: [`no profile in ${profileDir} has ${s.profile.windowFunction}`];
				for (const line of lines) console.log(`      ${line}`);
			}
		}
		for (const client of clients) {
			const loadBefore = load();
			const { baseUrl, apiKey, tenantId } = sandbox;
			const listing = { baseUrl, apiKey, tenantId, pageSize, accounts, client };
			const run = await plainListing(n8n.ensureInstalled().nodeBin, listing);
			if (run.pages !== pages) throw new Error(`${client}: ${run.pages} pages, expected ${pages}`);
			run.load = `${loadBefore} → ${load()}`;
			runs[client].push(run);
			console.log(
				`  round ${round + 1} plain client, ${client.padEnd(26)} ${run.coldMs.toFixed(0).padStart(6)} ms  ${(run.coldMs / pages).toFixed(2)} ms/page  (warm: ${(run.warmMs / pages).toFixed(2)} ms/page; load ${run.load})`,
			);
		}
	}
	const summary = [
		...scenarios.map((s) => ({
			name: s.name,
			label: s.label,
			medianMs: median(runs[s.name].map((r) => r.ms)),
		})),
		...clients.map((client) => ({
			name: client,
			label: `plain client: ${clientLabels[client]} (new process)`,
			medianMs: median(runs[client].map((r) => r.coldMs)),
			warmMedianMs: median(runs[client].map((r) => r.warmMs)),
		})),
	].map((row) => ({ ...row, msPerPage: row.medianMs / pages }));
	const peer = summary.find((r) => r.name === 'list-http-request');
	const profiler = cpuProfDir
		? ' (under the CPU profiler, which costs the n8n runs some time)'
		: '';
	console.log(
		`\nReturn All over ${accounts} accounts, ${pages} pages of ${pageSize}, median of ${rounds}${profiler}:`,
	);
	table(
		'Listing | ms | ms a page | speed vs HTTP Request + Pagination + Split Out | ms a page, second listing in the same process',
		summary.map((row) => [
			row.label,
			row.medianMs.toFixed(0),
			row.msPerPage.toFixed(2),
			row.name === 'list-tenant-api' ? `${(peer.medianMs / row.medianMs).toFixed(2)}×` : '',
			row.warmMedianMs === undefined ? '' : (row.warmMedianMs / pages).toFixed(2),
		]),
	);
	for (const s of scenarios) {
		const profiles = runs[s.name].map((run) => run.profile).filter(Boolean);
		if (profiles.length === 0) continue;
		const medianOf = (pick) => median(profiles.map(pick));
		const typical = {
			windowMs: medianOf((p) => p.windowMs),
			groups: Object.fromEntries(GROUPS.map(([g]) => [g, medianOf((p) => p.groups[g])])),
		};
		console.log(`  ${s.label}, median of each group over the rounds:`);
		for (const line of describe(typical, pages)) console.log(`      ${line}`);
	}
	return { accounts, pageSize, pages, rounds, runs, summary };
}

module.exports = { listingBenchmarks };
