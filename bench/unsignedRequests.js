'use strict';
/**
 * What a request nobody signed costs the trigger, against what the platform pays to read the same bytes (JSON.parse;
 * URLSearchParams with every pair iterated for forms): docs/benchmarks.md "A request nobody signed". A cell's ratio
 * is the median over the rounds of trigger ÷ baseline in the same round.
 */
const { median, pairedRatio, sideBySide } = require('./cpuTiming');
const { table } = require('./report');
const { FORM_SHAPES, JSON_SHAPES, fill } = require('./webhookShapes');
const { SETUPS, requestOf, secretsOf } = require('./webhookSetups');

const VARIANTS = ['other key', 'none'].flatMap((signature) =>
	[1, 2].map((secrets) => ({
		name: `${signature === 'none' ? 'no signature' : 'another key'}, ${secrets === 1 ? 'one secret' : 'two secrets'}`,
		secrets,
		signature,
	})),
);

/** The refusal each variant must end in: the request was checked as far as it can be. */
const EXPECTED = {
	hmac: { 'other key': 'signature_mismatch', none: 'missing_signature' },
	secretHeader: { 'other key': 'secret_mismatch', none: 'missing_secret_header' },
};

const KINDS = {
	json: {
		shapes: JSON_SHAPES,
		pad: ' ',
		baseline: (body) => () => {
			try {
				return JSON.parse(body.toString('utf8'));
			} catch {
				return undefined;
			}
		},
	},
	form: {
		shapes: FORM_SHAPES,
		pad: '&',
		baseline: (body) => () => {
			let length = 0;
			for (const pair of new URLSearchParams(body.toString('utf8'))) length += pair.length;
			return length;
		},
	},
};

/** One cell as a function to time, checked once to end in the refusal it must with every secret tried. */
function cell(build, setup, variant, body, format) {
	const settings = build.settings(setup.parameters(format), secretsOf(setup, variant.secrets));
	const check = settings.verification;
	const { kind } = check;
	const headers = setup.sign(body, setup.keys.other);
	if (variant.signature === 'none')
		delete headers[(kind === 'hmac' ? check.signatureHeader : check.header)[0]];
	const request = requestOf(body, headers, format);
	const decision = build.receive(settings, request);
	const expected = EXPECTED[kind][variant.signature];
	const tried = decision.seen?.secretsTried?.length;
	if (decision.reason !== expected || tried !== variant.secrets)
		throw new Error(
			`${setup.name}, ${variant.name}: ${decision.reason} (${tried} tried), not ${expected}`,
		);
	const algorithm = kind === 'hmac' ? check.algorithm : undefined;
	const hash = algorithm && (algorithm === 'sha512' ? 'SHA-512' : 'SHA-1/SHA-256');
	return {
		info: { setup: setup.name, ...variant, variant: variant.name, hash },
		run: () => build.receive(settings, request),
	};
}

/** Every shape (whose name contains `filter`, or those of `shapes`) at `bytes`, against every set-up in `variants`. */
function unsignedBench(
	build,
	{ bytes, rounds, loopUs, variants = VARIANTS, filter = '', shapes, warm },
) {
	const rows = [];
	warm ??= { calls: 20, us: 50000 };
	for (const [format, kind] of Object.entries(KINDS)) {
		const names = (shapes?.[format] ?? Object.keys(kind.shapes)).filter((name) =>
			name.includes(filter),
		);
		for (const shape of names) {
			process.stderr.write(`  unsigned, ${bytes} bytes: ${shape}\n`);
			const body = fill(bytes, kind.shapes[shape], kind.pad);
			const fns = { baseline: kind.baseline(body) };
			const meta = {};
			for (const setup of SETUPS)
				for (const variant of variants) {
					const key = `${setup.name} | ${variant.name}`;
					({ info: meta[key], run: fns[key] } = cell(build, setup, variant, body, format));
				}
			const times = sideBySide(fns, { rounds, loopUs, warm });
			warm = { calls: 5, us: 0 }; // the code under test is the same for every shape: warmed once is enough
			rows.push({
				shape: `${format} ${shape}`,
				baselineUs: median(times.baseline),
				cells: Object.entries(meta).map(([key, m]) => ({
					...m,
					us: median(times[key]),
					ratio: pairedRatio(times[key], times.baseline),
				})),
			});
		}
	}
	return { bytes, rounds, variants: variants.map((v) => v.name), rows };
}

const micros = (us) => (us < 10 ? us.toFixed(1) : us.toFixed(0));
/** The columns of the table by shape: each the highest ratio among the cells it takes. */
const GROUPS = [
	...[1, 2].flatMap((secrets) =>
		['SHA-1/SHA-256', 'SHA-512'].map((hash) => [
			`another key, ${secrets === 1 ? 'one secret' : 'two secrets'}, ${hash}`,
			(c) => c.signature === 'other key' && c.secrets === secrets && c.hash === hash,
		]),
	),
	['no signature, or Secret in Header', (c) => c.signature === 'none' || c.hash === undefined],
];

/** The trigger's µs per set-up (lowest–highest over the shapes), then the highest ratio of each group by shape. */
function printUnsigned(report) {
	const cells = report.rows.flatMap((row) => row.cells);
	console.log(
		`\nA request nobody signed, ${report.bytes} bytes, median of ${report.rounds} rounds: ${cells.filter((c) => c.ratio <= 1).length} of ${cells.length} cells at most 1× the baseline. Trigger CPU µs per request, lowest–highest over the shapes:`,
	);
	const setups = [...new Set(cells.map((c) => c.setup))];
	table(
		['Set-up', ...report.variants].join(' | '),
		setups.map((setup) => [
			setup,
			...report.variants.map((variant) => {
				const us = cells.filter((c) => c.setup === setup && c.variant === variant).map((c) => c.us);
				return `${micros(Math.min(...us))}–${micros(Math.max(...us))}`;
			}),
		]),
	);
	const groups = GROUPS.filter(([, takes]) => cells.some(takes));
	console.log('\nBy shape: the highest trigger ÷ baseline among the set-ups of each column');
	table(
		['Shape', 'baseline µs', ...groups.map(([title]) => title)].join(' | '),
		report.rows.map((row) => [
			row.shape,
			micros(row.baselineUs),
			...groups.map(([, takes]) =>
				Math.max(...row.cells.filter(takes).map((c) => c.ratio)).toFixed(2),
			),
		]),
	);
}

module.exports = { VARIANTS, printUnsigned, unsignedBench };
