'use strict';
/**
 * What a request nobody signed costs the trigger, against what the platform pays to read the same bytes. Every body
 * shape of bench/webhookShapes.js, at one size, goes to every set-up of bench/webhookSetups.js in each variant: a
 * well-formed signature made with another key (the trigger computes an HMAC of the body per secret before it can
 * refuse) or no signature, with one secret in the credential or two (current and previous: a rotation).
 * - The trigger: `receiveDelivery(settings, request)` of this checkout's build, up to its refusal. The settings are
 *   built once per set-up, outside the timed calls (n8n builds them per request from the node's parameters: a cost
 *   that does not depend on the body, measured by bench/signedDeliveries.js).
 * - The baseline: JSON, `JSON.parse(rawBody.toString('utf8'))`; forms, `new URLSearchParams(rawBody.toString('utf8'))`
 *   with every pair iterated. Decoding the bytes to text is on the baseline's side.
 * Per shape, the baseline and every cell run side by side (bench/cpuTiming.js); a cell's ratio is the median over the
 * rounds of (trigger ÷ baseline) in the same round.
 */
const { median, pairedRatio, sideBySide } = require('./cpuTiming');
const { FORM_SHAPES, JSON_SHAPES, fill } = require('./webhookShapes');
const { SETUPS, requestOf, secretsOf } = require('./webhookSetups');

/** @typedef {import('./builds').Build} Build */
/** @typedef {import('./webhookSetups').Setup} Setup */
/** @typedef {import('./webhookSetups').BodyFormat} BodyFormat */
/** @typedef {{ name: string, secrets: number, signature: 'other key' | 'none' }} Variant */
/**
 * @typedef {{ setup: string, variant: string, secrets: number, signature: Variant['signature'],
 *   hash: string | undefined, reason: string }} CellInfo  `hash`: the HMAC's, undefined for Secret in Header
 * @typedef {{ shape: string, format: BodyFormat, baseline: string, baselineUs: number,
 *   cells: Array<CellInfo & { us: number, ratio: number }> }} ShapeRow
 */

/** @type {Variant[]} */
const VARIANTS = [
	{ name: 'signed with another key, one secret', secrets: 1, signature: 'other key' },
	{ name: 'signed with another key, two secrets', secrets: 2, signature: 'other key' },
	{ name: 'no signature, one secret', secrets: 1, signature: 'none' },
	{ name: 'no signature, two secrets', secrets: 2, signature: 'none' },
];

/** The refusal each variant must end in: the request was checked as far as it can be. */
const EXPECTED = {
	hmac: { 'other key': 'signature_mismatch', none: 'missing_signature' },
	secretHeader: { 'other key': 'secret_mismatch', none: 'missing_secret_header' },
};

/** @param {Buffer} body */
const jsonBaseline = (body) => () => {
	try {
		return JSON.parse(body.toString('utf8'));
	} catch {
		return undefined; // refused, as the trigger would
	}
};

/** @param {Buffer} body */
const formBaseline = (body) => () => {
	let length = 0;
	for (const pair of new URLSearchParams(body.toString('utf8'))) length += pair.length;
	return length;
};

/**
 * The header that carries the signature (or the secret) under `settings`, from the product's own settings.
 * @param {any} settings
 */
const signatureHeaderOf = (settings) =>
	settings.check.kind === 'hmac' ? settings.check.signing.signatureHeader : settings.check.header;

/**
 * One cell: the settings and the request of `setup` in `variant`, checked once to end in the refusal it must (every
 * secret tried when the signature is checked), as a function to time.
 * @param {Build} build
 * @param {Setup} setup
 * @param {Variant} variant
 * @param {Buffer} body
 * @param {BodyFormat} format
 */
function cell(build, setup, variant, body, format) {
	const settings = /** @type {any} */ (
		build.settings(setup.parameters(format), secretsOf(setup, variant.secrets))
	);
	const headers = setup.sign(body, setup.keys.other);
	if (variant.signature === 'none') delete headers[signatureHeaderOf(settings)];
	const request = requestOf(body, headers, format);
	const decision = /** @type {any} */ (build.receive(settings, request));
	const kind = /** @type {keyof typeof EXPECTED} */ (settings.check.kind);
	const expected = EXPECTED[kind][variant.signature];
	const tried = decision.seen?.secretsTried?.length;
	if (decision.reason !== expected || tried !== variant.secrets)
		throw new Error(
			`${setup.name}, ${variant.name}: ${decision.action} ${decision.reason} (${tried} secrets tried), not ${expected}`,
		);
	const algorithm = kind === 'hmac' ? settings.check.signing.algorithm : undefined;
	/** @type {CellInfo} */
	const info = {
		setup: setup.name,
		variant: variant.name,
		secrets: variant.secrets,
		signature: variant.signature,
		hash:
			algorithm === undefined ? undefined : algorithm === 'sha512' ? 'SHA-512' : 'SHA-1/SHA-256',
		reason: expected,
	};
	return { info, run: () => build.receive(settings, request) };
}

/**
 * Every shape (whose name contains `filter`) at `bytes`, against every set-up in `variants`. `warm`: the warm-up of
 * each function before the first shape (after it, 5 calls).
 * @param {Build} build
 * @param {{ bytes: number, rounds: number, loopUs: number, variants?: Variant[], filter?: string,
 *   shapes?: { json: string[], form: string[] }, warm?: { calls: number, us: number } }} options
 * @returns {{ bytes: number, rounds: number, variants: string[], setups: string[], rows: ShapeRow[] }}
 */
function unsignedBench(
	build,
	{ bytes, rounds, loopUs, variants = VARIANTS, filter = '', shapes, warm: firstWarm },
) {
	const kinds = [
		{
			format: /** @type {BodyFormat} */ ('json'),
			all: JSON_SHAPES,
			pad: ' ',
			baseline: jsonBaseline,
		},
		{
			format: /** @type {BodyFormat} */ ('form'),
			all: FORM_SHAPES,
			pad: '&',
			baseline: formBaseline,
		},
	];
	const rows = [];
	let warm = firstWarm ?? { calls: 20, us: 50000 };
	for (const { format, all, pad, baseline } of kinds) {
		const names = (shapes?.[format] ?? Object.keys(all)).filter((name) => name.includes(filter));
		for (const shape of names) {
			process.stderr.write(`  unsigned, ${bytes} bytes: ${shape}\n`);
			const body = fill(bytes, all[shape], pad);
			/** @type {Record<string, () => unknown>} */
			const fns = { baseline: baseline(body) };
			/** @type {Record<string, CellInfo>} */
			const meta = {};
			for (const setup of SETUPS)
				for (const variant of variants) {
					const key = `${setup.name} | ${variant.name}`;
					const { info, run } = cell(build, setup, variant, body, format);
					fns[key] = run;
					meta[key] = info;
				}
			global.gc?.();
			const times = sideBySide(fns, { rounds, loopUs, warm });
			// The code under test is the same for every shape: warmed once, it needs only a few calls after.
			warm = { calls: 5, us: 0 };
			rows.push({
				shape,
				format,
				baseline: format === 'json' ? 'JSON.parse' : 'URLSearchParams',
				baselineUs: median(times.baseline),
				cells: Object.entries(meta).map(([key, m]) => ({
					...m,
					us: median(times[key]),
					ratio: pairedRatio(times[key], times.baseline),
				})),
			});
		}
	}
	return {
		bytes,
		rounds,
		variants: variants.map((variant) => variant.name),
		setups: SETUPS.map((setup) => setup.name),
		rows,
	};
}

/** @param {number} us */
const micros = (us) => (us < 10 ? us.toFixed(1) : us.toFixed(0));

/** One table per variant: a row per shape, a column per set-up, each cell `µs (ratio)`. @param {ReturnType<typeof unsignedBench>} report */
function printUnsigned(report) {
	for (const variant of report.variants) {
		console.log(
			`\nA request nobody signed, ${report.bytes} bytes, ${variant}: CPU µs per request through receiveDelivery (÷ the baseline's µs in the same rounds), median of ${report.rounds} rounds`,
		);
		console.log(`| Shape | baseline µs | ${report.setups.join(' | ')} |`);
		console.log(`|---|---:|${report.setups.map(() => '---:').join('|')}|`);
		for (const row of report.rows) {
			const cells = report.setups.map((setup) => {
				const c = row.cells.find((x) => x.setup === setup && x.variant === variant);
				return c === undefined ? '' : `${micros(c.us)} (${c.ratio.toFixed(2)})`;
			});
			console.log(
				`| ${row.format} ${row.shape} | ${row.baseline} ${micros(row.baselineUs)} | ${cells.join(' | ')} |`,
			);
		}
	}
	printByShape(report);
	printSummary(report);
}

/**
 * The columns of the table by shape: each the highest ratio among the cells it takes.
 * @type {Array<[string, (c: CellInfo) => boolean]>}
 */
const GROUPS = [
	...[1, 2].flatMap((secrets) =>
		['SHA-1/SHA-256', 'SHA-512'].map(
			(hash) =>
				/** @type {[string, (c: CellInfo) => boolean]} */ ([
					`another key, ${secrets === 1 ? 'one secret' : 'two secrets'}, ${hash}`,
					(c) => c.signature === 'other key' && c.secrets === secrets && c.hash === hash,
				]),
		),
	),
	['no signature, or Secret in Header', (c) => c.signature === 'none' || c.hash === undefined],
];

/** A row per shape: the baseline, and the highest ratio of each group of cells. @param {ReturnType<typeof unsignedBench>} report */
function printByShape(report) {
	const groups = GROUPS.filter(([, takes]) => report.rows[0]?.cells.some(takes));
	console.log(
		`\nA request nobody signed, ${report.bytes} bytes, by shape: the highest trigger ÷ baseline among the set-ups of each column (median of ${report.rounds} rounds)`,
	);
	console.log(`| Shape | baseline µs | ${groups.map(([title]) => title).join(' | ')} |`);
	console.log(`|---|---:|${groups.map(() => '---:').join('|')}|`);
	for (const row of report.rows) {
		const highest = groups.map(([, takes]) =>
			Math.max(...row.cells.filter(takes).map((c) => c.ratio)).toFixed(2),
		);
		console.log(
			`| ${row.format} ${row.shape} | ${row.baseline} ${micros(row.baselineUs)} | ${highest.join(' | ')} |`,
		);
	}
}

/** Where the trigger cost at most the baseline, and every cell where it cost more. @param {ReturnType<typeof unsignedBench>} report */
function printSummary(report) {
	const all = report.rows.flatMap((row) => row.cells.map((c) => ({ ...c, row })));
	console.log(
		`\nUnsigned, ${report.bytes} bytes: ${all.filter((c) => c.ratio <= 1).length} of ${all.length} cells at most 1× the baseline; trigger µs per setting (min–max over the shapes):`,
	);
	for (const variant of report.variants)
		for (const setup of report.setups) {
			const us = all.filter((c) => c.setup === setup && c.variant === variant).map((c) => c.us);
			if (us.length > 0)
				console.log(
					`  ${setup}, ${variant}: ${micros(Math.min(...us))}–${micros(Math.max(...us))} µs`,
				);
		}
	const over = all.filter((c) => c.ratio > 1).sort((a, b) => b.ratio - a.ratio);
	if (over.length === 0) return;
	console.log(`\nCells above 1× the baseline (${over.length}), highest first:`);
	console.log('| Shape | Set-up | Variant | baseline µs | trigger µs | ratio |');
	console.log('|---|---|---|---:|---:|---:|');
	for (const c of over)
		console.log(
			`| ${c.row.format} ${c.row.shape} | ${c.setup} | ${c.variant} | ${c.row.baseline} ${micros(c.row.baselineUs)} | ${micros(c.us)} | ${c.ratio.toFixed(2)} |`,
		);
}

module.exports = { VARIANTS, printUnsigned, unsignedBench };
