'use strict';
/**
 * The webhook trigger's costs through `receiveDelivery` of the built package: requests nobody signed
 * (bench/unsignedRequests.js) and signed deliveries (bench/signedDeliveries.js), each at 128 KiB or 10 KB and at n8n's
 * default payload limit. `npm run bench -- --only webhook [--baseline <ref>]`, or alone after `npm run build`:
 *   node --expose-gc bench/webhook.js [--baseline <ref>] [--rounds 5] [--filter <part of a shape's name>]
 * `--rounds`: those of the 128 KiB part; `--filter` keeps the shapes whose name contains it and skips the 16 MiB parts.
 */
const { parseArgs } = require('./args');
const { baselineBuild, currentBuild } = require('./builds');
const { printSigned, signedBench } = require('./signedDeliveries');
const { VARIANTS, printUnsigned, unsignedBench } = require('./unsignedRequests');

/** n8n's default N8N_PAYLOAD_SIZE_MAX (16 MiB), less room for the headers. */
const LARGE_BYTES = 16 * 1024 * 1024 - 1024;

function webhookBench({ baseline, rounds = 5, filter = '' }) {
	const builds = [currentBuild(), ...(baseline ? [baselineBuild(baseline)] : [])];
	const all = filter === '';
	return {
		unsigned: unsignedBench(builds[0], { bytes: 128 * 1024, rounds, loopUs: 5000, filter }),
		large: all
			? unsignedBench(builds[0], {
					bytes: LARGE_BYTES,
					rounds: 3,
					loopUs: 0,
					variants: VARIANTS.filter((variant) => variant.signature === 'other key'),
					shapes: { json: ['one long string', 'many small objects'], form: [] },
					warm: { calls: 1, us: 0 },
				})
			: undefined,
		signed: signedBench(builds, { rounds: 11 }),
		signedLarge: all ? signedBench(builds, { rounds: 3, large: LARGE_BYTES }) : undefined,
	};
}

function printWebhook({ unsigned, large, signed, signedLarge }) {
	for (const report of [unsigned, large]) if (report) printUnsigned(report);
	for (const report of [signed, signedLarge]) if (report) printSigned(report);
}

module.exports = { printWebhook, webhookBench };

if (require.main === module)
	printWebhook(
		webhookBench(parseArgs(process.argv.slice(2), { baseline: '', rounds: 5, filter: '' })),
	);
