'use strict';
/**
 * Webhook verification per signing scheme: a 10,240-byte delivery signed by the sandbox in each scheme, verified
 * by the trigger's verifier (dist/nodes/TenantApiTrigger/verification) with the settings the node builds for it
 * (scheme.ts). µs per call = median of `rounds` timed loops of `iterations` calls each, after a warm-up, as wall
 * time and as CPU time of this process (the steadier figure when other jobs share the cores).
 * Also: two secrets (signed with the previous one), a forged signature (refused), and parsing the verified body.
 * Run through `npm run bench` (all of it) or `npm run bench -- --only webhook`.
 */
const { verifyDelivery } = require('../dist/nodes/TenantApiTrigger/verification');
const { verificationConfig } = require('../dist/nodes/TenantApiTrigger/scheme');
const { parseJsonBody, parseFormBody } = require('../dist/nodes/TenantApiTrigger/body');
const { adyenNotification, demoSecret, signAdyenPayments, signedDelivery, triggerParameters, SCHEMES } = require('../sandbox/signing');

const BYTES = 10240;
const URL_ = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
const TARGET_US = 50;

/** The sandbox's event with a filler that brings the delivery of `scheme` to exactly BYTES bytes. */
function deliveryOfSize(scheme, secret) {
	const make = (filler) => {
		const event = { id: 'evt_bench', event: 'transfers.created', created_at: Math.floor(Date.now() / 1000), data: { object: { id: 'tr_1', amount: 1250, currency: 'EUR', filler } } };
		if (scheme !== 'adyen-payments') return signedDelivery({ secret, scheme, event, url: URL_ });
		const notification = adyenNotification(event);
		notification.notificationItems[0].NotificationRequestItem.additionalData = { filler };
		const body = Buffer.from(JSON.stringify(signAdyenPayments(notification, secret)));
		return { body, headers: { 'content-type': 'application/json' }, url: URL_ };
	};
	const base = make('').body.length;
	const sent = make('x'.repeat(BYTES - base));
	if (sent.body.length !== BYTES) throw new Error(`${scheme}: delivery is ${sent.body.length} bytes, not ${BYTES}`);
	return sent;
}

function configFor(scheme, secrets) {
	const { verification, ...parameters } = triggerParameters(scheme);
	return verificationConfig(verification, (name, fallback) => (parameters[name] === undefined ? fallback : parameters[name]), secrets);
}

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

/** One case: verify `sent` with `config`, check the outcome once, then time it. */
function measure(name, config, sent, { iterations, rounds, refused = false }) {
	const input = { rawBody: sent.body, headers: sent.headers, nowSeconds: Math.floor(Date.now() / 1000), url: sent.url, mediaType: sent.headers['content-type'] };
	const result = verifyDelivery(config, input);
	if (result.ok === refused) throw new Error(`${name}: expected ${refused ? 'a refusal' : 'acceptance'}, got ${result.reason}`);
	return { name, bytes: sent.body.length, ...timePerCall(() => verifyDelivery(config, input), iterations, rounds) };
}

function webhookBench({ iterations = 20000, rounds = 5 } = {}) {
	const opts = { iterations, rounds };
	const results = [];
	for (const scheme of SCHEMES.filter((s) => s !== 'none')) {
		const secret = demoSecret(scheme);
		results.push({ scheme, ...measure(`${scheme} (${triggerParameters(scheme).verification})`, configFor(scheme, [secret]), deliveryOfSize(scheme, secret), opts) });
	}
	const secret = demoSecret('hmac-sha256-hex');
	results.push(measure('hmac-sha256-hex, two secrets, signed with the previous one', configFor('hmac-sha256-hex', ['whsec_new_1', secret]), deliveryOfSize('hmac-sha256-hex', secret), opts));
	const std = demoSecret('standard-webhooks');
	results.push(
		measure('standard-webhooks, two secrets, signed with the previous one', configFor('standard-webhooks', [`whsec_${Buffer.from('new key').toString('base64')}`, std]), deliveryOfSize('standard-webhooks', std), opts),
	);
	const forged = deliveryOfSize('hmac-sha256-hex', secret);
	results.push(measure('hmac-sha256-hex, forged signature (refused)', configFor('hmac-sha256-hex', [secret]), { ...forged, headers: { ...forged.headers, 'x-signature': 'f'.repeat(64) } }, { ...opts, refused: true }));
	const json = deliveryOfSize('hmac-sha256-hex', secret).body;
	const form = deliveryOfSize('slack', demoSecret('slack')).body;
	results.push({ name: 'then: parse the verified 10 KB JSON body (parseJsonBody)', bytes: json.length, ...timePerCall(() => parseJsonBody(json), iterations, rounds), parse: true });
	results.push({ name: 'then: parse the verified 10 KB form body (parseFormBody)', bytes: form.length, ...timePerCall(() => parseFormBody(form), iterations, rounds), parse: true });
	return { bytes: BYTES, iterations, rounds, targetUs: TARGET_US, results };
}

function printWebhook(report) {
	console.log(`\n| Webhook verification, ${report.bytes}-byte delivery (median of ${report.rounds} × ${report.iterations} calls) | µs per call (wall) | CPU µs per call | target < ${report.targetUs} µs (CPU) |`);
	console.log('|---|---:|---:|---|');
	for (const r of report.results) {
		const verdict = r.parse ? '–' : r.cpuUsPerCall < report.targetUs ? 'met' : '**missed**';
		console.log(`| ${r.name} | ${r.usPerCall.toFixed(1)} | ${r.cpuUsPerCall.toFixed(1)} | ${verdict} |`);
	}
}

module.exports = { webhookBench, printWebhook };

if (require.main === module) printWebhook(webhookBench());
