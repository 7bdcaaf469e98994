'use strict';
/**
 * Webhook deliveries per signing scheme, read the way the trigger reads them (readDelivery in
 * dist/nodes/TenantApiTrigger/verifier: the signature checked, the Content-Type checked, the body read once),
 * with the settings the node builds for each scheme (scheme.ts). µs per call = median of `rounds` timed loops of
 * `iterations` calls each, after a warm-up, as wall time and as CPU time of this process (the steadier figure when
 * other jobs share the cores).
 * 1. A 10,240-byte delivery in each scheme; two secrets (signed with the previous one); a forged signature.
 * 2. What a request nobody signed costs, at n8n's default payload limit (16 MiB): without a signature, and with a
 *    well-formed signature made with another key (the HMAC over the whole body is then computed).
 * 3. The schemes that read the body before checking a signature, in the shapes that cost most to read, against the
 *    platform's own reading of the same bytes (bench/readBeforeVerifying.js).
 * Run through `npm run bench` (all of it) or `npm run bench -- --only webhook`.
 */
const {
	MAX_BODY_READ_BEFORE_VERIFYING,
	readDelivery,
} = require('../dist/nodes/TenantApiTrigger/verifier');
const {
	adyenNotification,
	demoSecret,
	signAdyenPayments,
	signedDelivery,
	triggerParameters,
	SCHEMES,
} = require('../sandbox/signing');
const { configOf, printReadBefore, readBeforeBench, readSent } = require('./readBeforeVerifying');

const BYTES = 10240;
/** n8n's default N8N_PAYLOAD_SIZE_MAX (16 MiB), less room for the headers. */
const LARGE_BYTES = 16 * 1024 * 1024 - 1024;
const URL_ = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
const TARGET_US = 50;
const OTHER_KEY = 'ab'.repeat(32);

/** The sandbox's event in `scheme` with a filler that brings the delivery to exactly `bytes` bytes, signed with `secret`. */
function deliveryOfSize(scheme, secret, bytes = BYTES) {
	const make = (filler) => {
		const event = {
			id: 'evt_bench',
			event: 'transfers.created',
			created_at: Math.floor(Date.now() / 1000),
			data: { object: { id: 'tr_1', amount: 1250, currency: 'EUR', filler } },
		};
		if (scheme !== 'adyen-payments') return signedDelivery({ secret, scheme, event, url: URL_ });
		const notification = adyenNotification(event);
		notification.notificationItems[0].NotificationRequestItem.additionalData = { filler };
		const body = Buffer.from(JSON.stringify(signAdyenPayments(notification, secret)));
		return { body, headers: { 'content-type': 'application/json' }, url: URL_ };
	};
	const base = make('').body.length;
	const sent = make('x'.repeat(bytes - base));
	if (sent.body.length !== bytes)
		throw new Error(`${scheme}: delivery is ${sent.body.length} bytes, not ${bytes}`);
	return sent;
}

const configFor = (scheme, secrets) => configOf(triggerParameters(scheme), secrets);

/** Median wall and CPU µs per call of `fn` over `rounds` loops of `iterations` calls, after a warm-up. */
function timePerCall(fn, iterations, rounds) {
	for (let i = 0; i < Math.min(2000, iterations); i++) fn();
	const wall = [];
	const cpu = [];
	for (let r = 0; r < rounds; r++) {
		const started = process.hrtime.bigint();
		const cpuStart = process.cpuUsage();
		for (let i = 0; i < iterations; i++) fn();
		const used = process.cpuUsage(cpuStart);
		wall.push(Number(process.hrtime.bigint() - started) / 1e3 / iterations);
		cpu.push((used.user + used.system) / iterations);
	}
	const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
	return { usPerCall: median(wall), cpuUsPerCall: median(cpu) };
}

/** One case: read `sent` with `config`, check the outcome once (`refused`: the expected status, or true for any refusal), then time it. */
function measure(name, config, sent, { iterations, rounds, refused }) {
	const { input, reading, status, outcome } = readSent(config, sent);
	if (refused === undefined ? !reading.ok : reading.ok || (refused !== true && status !== refused))
		throw new Error(`${name}: unexpected ${outcome}`);
	return {
		name,
		bytes: sent.body.length,
		outcome,
		...timePerCall(() => readDelivery(config, input), iterations, rounds),
	};
}

/** The signed delivery with its signature taken away: only the Content-Type stays (Adyen payments: items unsigned). */
function withoutSignature(scheme, sent) {
	if (scheme !== 'adyen-payments')
		return { ...sent, headers: { 'content-type': sent.headers['content-type'] } };
	return {
		...sent,
		body: Buffer.from(sent.body.toString().replace(/"hmacSignature":"[^"]*"/, '"x":""')),
	};
}

/** What requests nobody signed cost at LARGE_BYTES, per scheme: no signature, and a well-formed one made with another key. */
function unsignedCost({ iterations = 3, rounds = 3 } = {}) {
	const rows = [];
	for (const scheme of SCHEMES.filter((s) => s !== 'none')) {
		const config = configFor(scheme, [demoSecret(scheme)]);
		const forged = deliveryOfSize(
			scheme,
			scheme === 'standard-webhooks' || scheme === 'svix'
				? demoSecret('hmac-sha256-hex')
				: OTHER_KEY,
			LARGE_BYTES,
		);
		const none = withoutSignature(scheme, forged);
		const opts = { iterations, rounds, refused: true };
		rows.push({
			scheme,
			without: measure(`${scheme}: no signature`, config, none, opts),
			forged: measure(`${scheme}: another key`, config, forged, opts),
		});
	}
	return {
		bytes: LARGE_BYTES,
		readBeforeVerifying: MAX_BODY_READ_BEFORE_VERIFYING,
		iterations,
		rounds,
		rows,
		readBefore: readBeforeBench({ rounds: 7 }),
	};
}

function webhookBench({ iterations = 20000, rounds = 5 } = {}) {
	const opts = { iterations, rounds };
	const results = [];
	for (const scheme of SCHEMES.filter((s) => s !== 'none')) {
		const secret = demoSecret(scheme);
		results.push({
			scheme,
			...measure(
				`${scheme} (${triggerParameters(scheme).verification})`,
				configFor(scheme, [secret]),
				deliveryOfSize(scheme, secret),
				opts,
			),
		});
	}
	const secret = demoSecret('hmac-sha256-hex');
	results.push(
		measure(
			'hmac-sha256-hex, two secrets, signed with the previous one',
			configFor('hmac-sha256-hex', ['whsec_new_1', secret]),
			deliveryOfSize('hmac-sha256-hex', secret),
			opts,
		),
	);
	const std = demoSecret('standard-webhooks');
	results.push(
		measure(
			'standard-webhooks, two secrets, signed with the previous one',
			configFor('standard-webhooks', [`whsec_${Buffer.from('new key').toString('base64')}`, std]),
			deliveryOfSize('standard-webhooks', std),
			opts,
		),
	);
	const forged = deliveryOfSize('hmac-sha256-hex', secret);
	results.push(
		measure(
			'hmac-sha256-hex, forged signature (refused)',
			configFor('hmac-sha256-hex', [secret]),
			{ ...forged, headers: { ...forged.headers, 'x-signature': 'f'.repeat(64) } },
			{ ...opts, refused: 401 },
		),
	);
	return {
		bytes: BYTES,
		iterations,
		rounds,
		targetUs: TARGET_US,
		results,
		unsigned: unsignedCost(),
	};
}

function printWebhook(report) {
	console.log(
		`\n| Webhook delivery read by the trigger, ${report.bytes} bytes (median of ${report.rounds} × ${report.iterations} calls) | outcome | µs per call (wall) | CPU µs per call | target < ${report.targetUs} µs (CPU) |`,
	);
	console.log('|---|---|---:|---:|---|');
	for (const r of report.results) {
		console.log(
			`| ${r.name} | ${r.outcome} | ${r.usPerCall.toFixed(1)} | ${r.cpuUsPerCall.toFixed(1)} | ${r.cpuUsPerCall < report.targetUs ? 'met' : '**missed**'} |`,
		);
	}
	const { unsigned } = report;
	const ms = (r) => `${(r.cpuUsPerCall / 1000).toFixed(2)} ms (${r.outcome})`;
	console.log(
		`\n| A request nobody signed, ${unsigned.bytes} bytes (median of ${unsigned.rounds} × ${unsigned.iterations} calls; bodies read before verifying: at most ${unsigned.readBeforeVerifying} bytes) | CPU, no signature | CPU, signed with another key |`,
	);
	console.log('|---|---:|---:|');
	for (const row of unsigned.rows)
		console.log(`| ${row.scheme} | ${ms(row.without)} | ${ms(row.forged)} |`);
	printReadBefore(unsigned.readBefore);
}

module.exports = { webhookBench, printWebhook };

if (require.main === module) printWebhook(webhookBench());
