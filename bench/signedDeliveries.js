'use strict';
/**
 * Signed deliveries of 10,240 bytes (and LARGE_BODIES at n8n's payload limit), accepted and read to the workflow's
 * item by this checkout's build and the `--baseline <ref>`'s side by side (bench/cpuTiming.js); JSON.parse of the same
 * bytes for scale. docs/benchmarks.md "Signed deliveries of 10 KB" and "at the payload limit".
 */
const { isDeepStrictEqual } = require('node:util');

const { median, pairedRatio, sideBySide } = require('./cpuTiming');
const { table } = require('./report');
const { fill, series } = require('./webhookShapes');
const { NOW, requestOf, secretsOf, setupNamed } = require('./webhookSetups');

const BYTES = 10240;
const LOOP_US = 20000;

/** The schemes both builds have, as set up in bench/webhookSetups.js. */
const SCHEMES = [
	'hmacSha256',
	'hmacSha512',
	'hmacSha256, timestamp',
	'timestampedSignatures',
	'standardWebhooks',
	'customHmac sha256',
	'secretHeader',
];

const event = (payload) =>
	`{"id":"evt_bench","event":"transfers.created","created_at":${NOW},"data":{"object":{"id":"tr_1",${payload}}}}`;
const line = (i) =>
	`{"id":"li_${i}","description":"Line ${i}","amount":${1000 + i},"currency":"EUR","quantity":${1 + (i % 3)}}`;
/** Amounts with at most 8 digits and 2 decimals: numbers every double holds exactly, none for the exact reader. */
const amounts = series(13, (_, next) => (Math.floor(next() * 1e8) / 100).toString());

/** Bodies of a delivery: name → text of `n` units. */
const BODIES = {
	'plain event': (n) =>
		event(`"lines":[${Array.from({ length: n }, (_, i) => line(i)).join(',')}]`),
	'many numbers': (n) => event(`"readings":[${amounts(n).join(',')}]`),
	'a few big numbers': (n) =>
		event(
			`"big":[12345678901234567891,0.12345678901234567,1e400],"lines":[${Array.from({ length: n }, (_, i) => line(i)).join(',')}]`,
		),
};

/** The tags of an export, as JSON text in a string (a sender's `data`, stringified). */
const tags = (n) =>
	Array.from({ length: n }, (_, i) => `\\"${String.fromCharCode(97 + (i % 26))}\\"`).join(',');
/** An export event whose `data` is JSON text: a list of tags, after `head`. */
const exportEvent = (head) => (n) =>
	`{"id":"evt_bench","event":"export.ready","created_at":${NOW},"data":"{${head}\\"tags\\":[${tags(n)}]}"}`;

/** Bodies at the payload limit: name → text of `n` units. Each is one long string of escapes. */
const LARGE_BODIES = {
	'export event, JSON text in a string with a 19-digit id': exportEvent(
		'\\"id\\":1234567890123456789,',
	),
	'export event, JSON text in a string without numbers': exportEvent(''),
	'escaped quotes, then a 20-digit number in a string': (n) =>
		`{"text":"${'\\"'.repeat(n)}","ref":"invoice:12345678901234567891"}`,
};

/** The functions to time for one case in every build; each build must start the workflow (or may refuse, with `refusals`). */
function deliveryCalls(builds, scheme, body, refusals) {
	const setup = setupNamed(scheme);
	const parameters = setup.parameters('json');
	const request = requestOf(body, setup.sign(body, setup.keys.current), 'json');
	const fns = { parse: () => JSON.parse(body.toString('utf8')) };
	const refused = [];
	const bodies = builds.flatMap((build, index) => {
		const settings = build.settings(parameters, secretsOf(setup, 1));
		const own = build.request(parameters, request);
		const decision = build.receive(settings, own);
		const item = build.item(decision);
		fns[`receive ${index}`] = () => build.receive(settings, own);
		if (build.verifyAndRead) fns[`read ${index}`] = () => build.verifyAndRead(settings, own);
		if (item !== undefined) {
			const { webhookDelivery: _, ...fields } = item;
			return [fields];
		}
		const what = `${index === 0 ? 'new' : 'old'} refused it: ${decision.reason ?? decision.action}`;
		if (!refusals) throw new Error(`${build.label}, ${scheme}: ${what}`);
		refused.push(what);
		return [];
	});
	return { fns, sameBody: bodies.every((b) => isDeepStrictEqual(b, bodies[0])), refused };
}

/**
 * `builds`: this checkout's first, then the baseline (if any). `large`: the bytes of LARGE_BODIES, timed instead of the
 * 10 KB bodies (hmacSha256 only, 3 calls a round, each build warmed by one call). One more row times building the
 * settings from the node's parameters, which n8n does per request.
 */
function signedBench(builds, { rounds, large }) {
	const [bytes, schemes, bodies] =
		large === undefined ? [BYTES, SCHEMES, BODIES] : [large, ['hmacSha256'], LARGE_BODIES];
	const cases = schemes.flatMap((scheme) =>
		Object.entries(bodies).map(([shape, make]) => ({
			scheme,
			shape,
			...deliveryCalls(builds, scheme, fill(bytes, make, ' '), large !== undefined),
		})),
	);
	if (large === undefined) {
		const setup = setupNamed('hmacSha256');
		const fns = Object.fromEntries(
			builds.map((build, index) => [
				`receive ${index}`,
				() => build.settings(setup.parameters('json'), secretsOf(setup, 1)),
			]),
		);
		cases.push({
			scheme: setup.name,
			shape: 'settings from the node parameters (no request)',
			fns,
			refused: [],
		});
	}
	const timing =
		large === undefined
			? { rounds, loopUs: LOOP_US, warm: { calls: 20, us: 100000 } }
			: { rounds, loopUs: 0, warm: { calls: 1, us: 0 } };
	const rows = cases.map(({ scheme, shape, fns, sameBody, refused }) => {
		process.stderr.write(`  signed, ${bytes} bytes: ${scheme}, ${shape}\n`);
		const times = sideBySide(fns, timing);
		const us = (key) => (times[key] ? median(times[key]) : undefined);
		return {
			scheme,
			shape,
			sameBody,
			refused,
			us: builds.map((_, index) => us(`receive ${index}`)),
			readUs: builds.map((_, index) => us(`read ${index}`)),
			parseUs: us('parse'),
			ratio: builds.length > 1 ? pairedRatio(times['receive 0'], times['receive 1']) : undefined,
		};
	});
	return { bytes, rounds, builds: builds.map(({ label, commit }) => ({ label, commit })), rows };
}

const fixed = (value, digits = 1) => (value == null ? '' : value.toFixed(digits));

/** The table's columns: the first four always, the others with a baseline. */
const COLUMNS = [
	['Scheme', (row) => row.scheme],
	['Body', (row) => row.shape],
	['JSON.parse µs (same bytes)', (row) => fixed(row.parseUs)],
	['new µs', (row) => fixed(row.us[0])],
	['old µs', (row) => fixed(row.us[1])],
	['new ÷ old', (row) => fixed(row.ratio, 2)],
	['old readDelivery µs (verify and read only)', (row) => fixed(row.readUs[1])],
	[
		'same output body',
		(row) => row.refused.join('; ') || { true: 'yes', false: '**no**' }[row.sameBody] || '',
	],
];

function printSigned(report) {
	const [current, baseline] = report.builds;
	const name = (b) => `${b.label} (${b.commit})`;
	console.log(
		`\nSigned deliveries of ${report.bytes} bytes: CPU µs per delivery through receiveDelivery, median of ${report.rounds} rounds${baseline ? `, both builds side by side; new: ${name(current)}, old: ${name(baseline)}` : ` (${name(current)}; --baseline <ref> adds another build)`}`,
	);
	const columns = baseline ? COLUMNS : COLUMNS.slice(0, 4);
	table(
		columns.map(([title]) => title).join(' | '),
		report.rows.map((row) => columns.map(([, cell]) => cell(row))),
	);
	if (!baseline) return;
	const ratios = report.rows
		.filter((row) => !row.shape.startsWith('settings'))
		.map((row) => row.ratio);
	console.log(
		`\nnew ÷ old over the ${ratios.length} deliveries: median ${median(ratios).toFixed(2)}, ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
	);
}

module.exports = { printSigned, signedBench };
