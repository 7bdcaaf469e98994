'use strict';
/**
 * Signed deliveries of 10,240 bytes, accepted and read to the workflow's item, in this checkout's build and, with
 * `--baseline <ref>`, in the build of that ref, side by side in one loop (bench/cpuTiming.js: both warmed first, then
 * rounds in which each runs one loop of about LOOP_US of CPU, the order rotating), so that the machine's noise weighs
 * on both alike. The figure per build is `receiveDelivery(settings, request)`, the whole pure flow of one delivery
 * (authenticated, read, named, filtered, the item made), with settings built once per row; the ratio new ÷ old is the
 * median of the rounds' ratios. For a baseline with the earlier API, its `readDelivery` (the verifier and the reading
 * alone, without the delivery's identity and output item) runs in the same rounds too, and so does
 * `JSON.parse(rawBody.toString('utf8'))` of the same bytes, for scale.
 * One more row times building the settings from the node's parameters, which n8n does per request in both builds.
 * `LARGE_BODIES` are the same measure at n8n's payload limit (bench/webhook.js asks for them): one long string of
 * escapes, with digits in it that look like a value and without; a build that refuses one is timed refusing it.
 */
const { isDeepStrictEqual } = require('node:util');

const { median, pairedRatio, sideBySide } = require('./cpuTiming');
const { fill, series } = require('./webhookShapes');
const { NOW, requestOf, secretsOf, setupNamed } = require('./webhookSetups');

/** @typedef {import('./builds').Build} Build */
/** @typedef {import('./builds').Decision} Decision */

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

/** @param {string} payload the object's fields beside its id, as JSON text */
const event = (payload) =>
	`{"id":"evt_bench","event":"transfers.created","created_at":${NOW},"data":{"object":{"id":"tr_1",${payload}}}}`;
const line = (/** @type {number} */ i) =>
	`{"id":"li_${i}","description":"Line ${i}","amount":${1000 + i},"currency":"EUR","quantity":${1 + (i % 3)}}`;
/** Amounts with at most 8 digits and 2 decimals: numbers every double holds exactly, none for the exact reader. */
const amounts = series(13, (_, next) => (Math.floor(next() * 1e8) / 100).toString());

/** Bodies of a delivery: name → text of `n` units. */
const BODIES = {
	'plain event': (/** @type {number} */ n) =>
		event(`"lines":[${Array.from({ length: n }, (_, i) => line(i)).join(',')}]`),
	'many numbers': (/** @type {number} */ n) => event(`"readings":[${amounts(n).join(',')}]`),
	'a few big numbers': (/** @type {number} */ n) =>
		event(
			`"big":[12345678901234567891,0.12345678901234567,1e400],"lines":[${Array.from({ length: n }, (_, i) => line(i)).join(',')}]`,
		),
};

/** The tags of an export, as JSON text in a string (a sender's `data`, stringified). @param {number} n */
const tags = (n) =>
	Array.from({ length: n }, (_, i) => `\\"${String.fromCharCode(97 + (i % 26))}\\"`).join(',');
/** An export event whose `data` is JSON text: a list of tags, after `head`. @param {string} head */
const exportEvent = (head) => (/** @type {number} */ n) =>
	`{"id":"evt_bench","event":"export.ready","created_at":${NOW},"data":"{${head}\\"tags\\":[${tags(n)}]}"}`;

/** Bodies at the payload limit: name → text of `n` units. Each is one long string of escapes. */
const LARGE_BODIES = {
	'export event, JSON text in a string with a 19-digit id': exportEvent(
		'\\"id\\":1234567890123456789,',
	),
	'export event, JSON text in a string without numbers': exportEvent(''),
	'escaped quotes, then a 20-digit number in a string': (/** @type {number} */ n) =>
		`{"text":"${'\\"'.repeat(n)}","ref":"invoice:12345678901234567891"}`,
};

/** The item's body fields, without what the trigger adds. @param {Record<string, unknown> | undefined} item */
function bodyOf(item) {
	if (item === undefined) return undefined;
	const { webhookDelivery: _, ...body } = item;
	return body;
}

/**
 * The functions to time for one scheme and body in every build, and what each build does with the delivery: it must
 * start the workflow, or with `refusals` may refuse it.
 * @param {Build[]} builds
 * @param {string} scheme
 * @param {Buffer} body
 * @param {boolean} refusals
 */
function deliveryCalls(builds, scheme, body, refusals) {
	const setup = setupNamed(scheme);
	const parameters = setup.parameters('json');
	const request = requestOf(body, setup.sign(body, setup.keys.current), 'json');
	/** @type {Record<string, () => unknown>} */
	const fns = { parse: () => JSON.parse(body.toString('utf8')) };
	/** @type {string[]} */
	const refused = [];
	const bodies = builds.flatMap((build, index) => {
		const settings = build.settings(parameters, secretsOf(setup, 1));
		const own = build.request(parameters, request);
		const decision = build.receive(settings, own);
		const item = build.item(decision);
		fns[`receive ${index}`] = () => build.receive(settings, own);
		const { verifyAndRead } = build;
		if (verifyAndRead !== undefined) fns[`read ${index}`] = () => verifyAndRead(settings, own);
		if (item !== undefined) return [bodyOf(item)];
		const what = `${index === 0 ? 'new' : 'old'} refused it: ${decision.reason ?? decision.action}`;
		if (!refusals) throw new Error(`${build.label}, ${scheme}: ${what}`);
		refused.push(what);
		return [];
	});
	return { fns, sameBody: bodies.every((b) => isDeepStrictEqual(b, bodies[0])), refused };
}

/** Building the settings of `scheme` from the node's parameters, in every build. @param {Build[]} builds @param {string} scheme */
function settingsCalls(builds, scheme) {
	const setup = setupNamed(scheme);
	const parameters = setup.parameters('json');
	/** @type {Record<string, () => unknown>} */
	const fns = {};
	builds.forEach((build, index) => {
		fns[`receive ${index}`] = () => build.settings(parameters, secretsOf(setup, 1));
	});
	return { fns, sameBody: undefined, refused: [] };
}

/**
 * @param {Build[]} builds  this checkout's build first, then the baseline (if any)
 * @param {{ rounds: number, large?: number }} options  `large`: the bytes of LARGE_BODIES, timed instead of the 10 KB
 *   bodies (hmacSha256 only, 3 calls a round, each build warmed by one call)
 */
function signedBench(builds, { rounds, large }) {
	const [bytes, schemes, bodies] =
		large === undefined ? [BYTES, SCHEMES, BODIES] : [large, ['hmacSha256'], LARGE_BODIES];
	const cases = [];
	for (const scheme of schemes)
		for (const [shape, make] of Object.entries(bodies)) {
			const body = fill(bytes, make, ' ');
			cases.push({ scheme, shape, ...deliveryCalls(builds, scheme, body, large !== undefined) });
		}
	if (large === undefined)
		cases.push({
			scheme: 'hmacSha256',
			shape: 'settings from the node parameters (no request)',
			...settingsCalls(builds, 'hmacSha256'),
		});
	const timing =
		large === undefined
			? { rounds, loopUs: LOOP_US, warm: { calls: 20, us: 100000 } }
			: { rounds, loopUs: 0, warm: { calls: 1, us: 0 } };
	const rows = cases.map(({ scheme, shape, fns, sameBody, refused }) => {
		process.stderr.write(`  signed, ${bytes} bytes: ${scheme}, ${shape}\n`);
		global.gc?.();
		const times = sideBySide(fns, timing);
		const us = (/** @type {string} */ key) => (times[key] ? median(times[key]) : undefined);
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
	return {
		bytes,
		rounds,
		loopUs: timing.loopUs,
		builds: builds.map((build) => ({ label: build.label, commit: build.commit })),
		rows,
	};
}

/** A figure, or nothing (undefined; null once a report went through JSON). @param {number | null | undefined} value @param {number} [digits] */
const fixed = (value, digits = 1) => (value == null ? '' : value.toFixed(digits));

/**
 * The table's columns (title, Markdown alignment, cell): the first four always, the others with a baseline.
 * @type {Array<[string, string, (row: ReturnType<typeof signedBench>['rows'][number]) => string]>}
 */
const COLUMNS = [
	['Scheme', '---', (row) => row.scheme],
	['Body', '---', (row) => row.shape],
	['JSON.parse µs (same bytes)', '---:', (row) => fixed(row.parseUs)],
	['new µs', '---:', (row) => fixed(row.us[0])],
	['old µs', '---:', (row) => fixed(row.us[1])],
	['new ÷ old', '---:', (row) => fixed(row.ratio, 2)],
	['old readDelivery µs (verify and read only)', '---:', (row) => fixed(row.readUs[1])],
	[
		'same output body',
		'---',
		(row) => {
			if (row.refused.length > 0) return row.refused.join('; ');
			return row.sameBody === undefined ? '' : row.sameBody ? 'yes' : '**no**';
		},
	],
];

/** @param {ReturnType<typeof signedBench>} report */
function printSigned(report) {
	const [current, baseline] = report.builds;
	const name = (/** @type {{ label: string, commit: string }} */ b) => `${b.label} (${b.commit})`;
	console.log(
		`\nSigned deliveries of ${report.bytes} bytes: CPU µs per delivery through receiveDelivery, median of ${report.rounds} rounds${baseline ? `, both builds side by side; new: ${name(current)}, old: ${name(baseline)}` : ` (${name(current)}; --baseline <ref> adds another build)`}`,
	);
	const columns = baseline ? COLUMNS : COLUMNS.slice(0, 4);
	console.log(`| ${columns.map(([title]) => title).join(' | ')} |`);
	console.log(`|${columns.map(([, align]) => align).join('|')}|`);
	for (const row of report.rows)
		console.log(`| ${columns.map(([, , cell]) => cell(row)).join(' | ')} |`);
	if (!baseline) return;
	const deliveries = report.rows.filter((row) => !row.shape.startsWith('settings'));
	const ratios = deliveries.map((row) => /** @type {number} */ (row.ratio));
	console.log(
		`\nnew ÷ old over the ${deliveries.length} deliveries: median ${median(ratios).toFixed(2)}, ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
	);
}

module.exports = { printSigned, signedBench };
