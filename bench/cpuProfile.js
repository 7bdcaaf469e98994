'use strict';
/**
 * Where a listing's time goes, from a V8 CPU profile of the `n8n execute` that ran it (node --cpu-prof;
 * bench/listingN8n.js with --cpu-prof). The window runs from the first to the last sample with `windowFunction` on its
 * stack (the paging loop: the node's setup before the first page is left out); each sample counts for the time up to
 * the next one, in the group of the deepest frame that belongs to a package (a native function such as JSON.parse
 * counts for its caller). Sampling costs the profiled process some time, so the window is a little longer than the
 * node's executionTime of a run without the profiler.
 */
const fs = require('node:fs');
const path = require('node:path');

const GROUPS = [
	['idle', 'idle: waiting (for the API; HTTP Request also for the database)'],
	['gc', 'garbage collection'],
	['v8', 'V8: compiling, other'],
	['own', 'the node under test (its own code, JSON.parse included)'],
	['axios', 'axios (n8n’s HTTP client), proxy-from-env, qs'],
	['expressions', 'n8n expressions (@n8n/expression-runtime: isolated-vm)'],
	['database', 'database (@n8n/typeorm, sqlite3)'],
	['n8n', 'n8n: request helper, engine, other n8n packages'],
	['node', 'Node: http client, sockets, streams, events'],
	['other', 'other packages'],
];

function packageOf(url) {
	const found = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/g);
	if (found) return found[found.length - 1].slice('node_modules/'.length);
	if (url.startsWith('node:')) return 'node:';
	return url ? url : undefined;
}

function groupOf(stack, ownPackage) {
	const name = stack[0].callFrame.functionName;
	if (name === '(idle)') return 'idle';
	if (name === '(garbage collector)') return 'gc';
	if (name === '(program)') return 'v8';
	for (const frame of stack) {
		const pkg = packageOf(frame.callFrame.url);
		if (pkg === undefined) continue;
		if (pkg === ownPackage) return 'own';
		if (['axios', 'follow-redirects', 'proxy-from-env', 'qs'].includes(pkg)) return 'axios';
		if (pkg === '@n8n/expression-runtime' || pkg === 'isolated-vm') return 'expressions';
		if (pkg === '@n8n/typeorm' || pkg === 'sqlite3' || pkg === 'tarn') return 'database';
		if (pkg === 'n8n' || pkg.startsWith('n8n-') || pkg.startsWith('@n8n/')) return 'n8n';
		if (pkg === 'node:') return 'node';
		return 'other';
	}
	return 'v8';
}

/**
 * The profile in `dir` that has `windowFunction` (one per process n8n started) summed up by group:
 * { windowMs, groups: { [group]: ms } }, or undefined when no profile has it.
 */
function breakdown(dir, windowFunction, ownPackage) {
	for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
		const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		const byId = new Map(profile.nodes.map((node) => [node.id, node]));
		const parentOf = new Map();
		for (const node of profile.nodes)
			for (const child of node.children ?? []) parentOf.set(child, node.id);
		const stackOf = (id) => {
			const stack = [];
			for (let at = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at));
			return stack;
		};
		const times = [];
		let t = profile.startTime;
		for (const delta of profile.timeDeltas) times.push((t += delta));
		const stacks = profile.samples.map(stackOf);
		const inWindow = stacks.map((stack) =>
			stack.some((frame) => frame.callFrame.functionName === windowFunction),
		);
		const first = inWindow.indexOf(true);
		const last = inWindow.lastIndexOf(true);
		if (first === -1) continue;
		const groups = Object.fromEntries(GROUPS.map(([group]) => [group, 0]));
		for (let i = first; i < last; i++)
			groups[groupOf(stacks[i], ownPackage)] += (times[i + 1] - times[i]) / 1000;
		return { windowMs: (times[last] - times[first]) / 1000, groups };
	}
	return undefined;
}

/** The breakdown as lines, in ms per page. */
function describe({ windowMs, groups }, pages) {
	const perPage = (ms) => `${(ms / pages).toFixed(2).padStart(6)} ms/page`;
	return [
		`profiled paging loop ${windowMs.toFixed(0)} ms = ${perPage(windowMs).trim()}:`,
		...GROUPS.filter(([group]) => groups[group] >= pages * 0.005).map(
			([group, label]) => `${perPage(groups[group])}  ${label}`,
		),
	];
}

module.exports = { breakdown, describe, GROUPS };
