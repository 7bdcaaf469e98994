'use strict';
/**
 * The webhook trigger's costs, through `receiveDelivery` of the built package (dist/, loaded by its package main):
 * 1. Requests nobody signed (bench/unsignedRequests.js), at 128 KiB in every body shape and at n8n's default payload
 *    limit (16 MiB) in two, against JSON.parse (or URLSearchParams) of the same bytes.
 * 2. Signed deliveries of 10 KB (bench/signedDeliveries.js), side by side with the build of `--baseline <ref>`, and
 *    at the payload limit in three bodies of one long string of escapes.
 * Run through `npm run bench -- --only webhook [--baseline <ref>]` (builds first), or alone after `npm run build`:
 *   node --expose-gc bench/webhook.js [--baseline <ref>] [--rounds 5] [--filter <part of a shape's name>]
 * `--rounds` is the rounds of the 128 KiB part (the 16 MiB parts run 3, the signed 10 KB part 11); `--filter` keeps
 * the shapes whose name contains it and leaves out the 16 MiB parts.
 */
const { baselineBuild, currentBuild } = require('./builds');
const { printSigned, signedBench } = require('./signedDeliveries');
const { VARIANTS, printUnsigned, unsignedBench } = require('./unsignedRequests');

/** The most the platform reads before the trigger runs: n8n's default N8N_PAYLOAD_SIZE_MAX (16 MiB), less room for the headers. */
const LARGE_BYTES = 16 * 1024 * 1024 - 1024;

/** @param {{ baseline?: string, rounds?: number, filter?: string }} [options] */
function webhookBench({ baseline, rounds = 5, filter = '' } = {}) {
	const builds = [currentBuild(), ...(baseline ? [baselineBuild(baseline)] : [])];
	const unsigned = unsignedBench(builds[0], { bytes: 128 * 1024, rounds, loopUs: 5000, filter });
	const large =
		filter === ''
			? unsignedBench(builds[0], {
					bytes: LARGE_BYTES,
					rounds: 3,
					loopUs: 0,
					variants: VARIANTS.filter((variant) => variant.signature === 'other key'),
					shapes: { json: ['one long string', 'many small objects'], form: [] },
					warm: { calls: 1, us: 0 },
				})
			: undefined;
	const signed = signedBench(builds, { rounds: 11 });
	const signedLarge =
		filter === '' ? signedBench(builds, { rounds: 3, large: LARGE_BYTES }) : undefined;
	return { unsigned, large, signed, signedLarge };
}

/** @param {ReturnType<typeof webhookBench>} report */
function printWebhook(report) {
	printUnsigned(report.unsigned);
	if (report.large) printUnsigned(report.large);
	printSigned(report.signed);
	if (report.signedLarge) printSigned(report.signedLarge);
}

module.exports = { printWebhook, webhookBench };

if (require.main === module) {
	const args = process.argv.slice(2);
	/** @param {string} name */
	const option = (name) =>
		args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined;
	printWebhook(
		webhookBench({
			baseline: option('baseline'),
			rounds: Number(option('rounds') ?? 5),
			filter: option('filter') ?? '',
		}),
	);
}
