#!/usr/bin/env node
'use strict';

/**
 * npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--accounts 120] [--pagination cursor] [--transfers N] [--payouts N]
 *   [--api-key sk_test_sandbox] [--tenant tenant_demo] [--webhook-url URL] [--webhook-secret S]...
 *   [--webhook-scheme hmac-sha256-hex] [--webhook-timestamp] [--webhook-body json|form]
 *   [--latency MS] [--latency-jitter MS] [--rate-limit PER_SECOND] [--burst N] [--rate-limit-headers[=ietf|x]] [--verbose]
 * node sandbox/cli.js deliver --to URL [--secret S] [--scheme ...] [--event TYPE|JSON | --payload JSON] [--timestamp]
 *   [--attempts N] [--body json|form]
 */

/** @import { SigningScheme } from './signing' */

const { startSandbox } = require('./server');
const { WebhookDispatcher, describeDelivery } = require('./webhooks');
const { ENDPOINTS } = require('./control');
const { SCHEMES, demoSecret } = require('./signing');
const { PAGINATION_MODES } = require('./accounts');

const BOOLEAN_FLAGS = new Set([
	'webhook-timestamp',
	'timestamp',
	'verbose',
	'help',
	'rate-limit-headers',
]);

/**
 * Parse `--name value`, `--name=value` and boolean flags. Repeated flags collect into arrays.
 * @param {string[]} argv
 */
function parseArgs(argv) {
	/** @type {string[]} */
	const positional = [];
	/** @type {Record<string, string|boolean|string[]>} */
	const flags = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) {
			positional.push(arg);
			continue;
		}
		let name = arg.slice(2);
		/** @type {string|boolean} */
		let value;
		const eq = name.indexOf('=');
		if (eq !== -1) {
			value = name.slice(eq + 1);
			name = name.slice(0, eq);
		} else if (BOOLEAN_FLAGS.has(name)) {
			value = true;
		} else {
			if (i + 1 >= argv.length) throw new Error(`--${name} needs a value`);
			value = argv[++i];
		}
		const prev = flags[name];
		if (prev === undefined) flags[name] = value;
		else flags[name] = [...(Array.isArray(prev) ? prev : [String(prev)]), String(value)];
	}
	return { positional, flags };
}

/**
 * @param {string|boolean|string[]|undefined} v
 */
function str(v) {
	if (v === undefined || typeof v === 'boolean') return undefined;
	return Array.isArray(v) ? v[v.length - 1] : v;
}

/**
 * @param {string|boolean|string[]|undefined} v
 */
function bool(v) {
	return v === true || v === 'true' || v === '1';
}

/**
 * @param {string|boolean|string[]|undefined} v
 */
function num(v) {
	const s = str(v);
	if (s === undefined) return undefined;
	const n = Number(s);
	if (!Number.isFinite(n)) throw new Error(`not a number: ${s}`);
	return n;
}

/**
 * @param {string|boolean|string[]|undefined} v
 */
function list(v) {
	if (v === undefined || typeof v === 'boolean') return undefined;
	return (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).filter(Boolean);
}

const USAGE = `Usage:
  node sandbox/cli.js [--port 4010] [--host 127.0.0.1] [--accounts 120] [--pagination ${PAGINATION_MODES.join('|')}]
                      [--transfers N] [--payouts N] (seeded records: /v1/transfers in cursor pages, /v1/payouts in next links)
                      [--api-key KEY] [--tenant ID] [--webhook-url URL] [--webhook-secret S (repeatable; first signs)]
                      [--webhook-scheme SCHEME] [--webhook-timestamp] [--webhook-body json|form]
                      [--latency MS] [--latency-jitter MS] [--rate-limit PER_SECOND] [--burst N (default 1)] [--rate-limit-headers[=ietf|x]] [--verbose]
  node sandbox/cli.js deliver --to URL [--secret S] [--scheme SCHEME] [--event TYPE|JSON | --payload JSON] [--timestamp]
                      [--attempts N] [--body json|form]
                      (one delivery; exit 0 when an answer was a 2xx)
Schemes: ${SCHEMES.join(', ')} (default hmac-sha256-hex).
  Without a secret, each scheme signs with a demo secret valid in its key format (printed at start).
  --timestamp: the hmac-* schemes also sign a timestamp (x-timestamp); the others sign one or none as they do.
  --event: an event type, or a partial event whose other fields are filled in; --payload: a JSON object sent as it is.
  --body: JSON (default) or form fields.
  A delivery is made when an answer is a 2xx; any other answer, or none, is delivered again up to --attempts.`;

/**
 * `--rate-limit 50 --burst 10 --rate-limit-headers[=x]`
 * @param {Record<string, string|boolean|string[]>} flags
 */
function rateLimitOf(flags) {
	const perSecond = num(flags['rate-limit']);
	if (perSecond === undefined) return undefined;
	const style = flags['rate-limit-headers'];
	return {
		perSecond,
		burst: num(flags.burst),
		headers:
			style === undefined
				? false
				: style === true
					? 'ietf'
					: /** @type {import('./rateLimit').HeaderStyle} */ (str(style)),
	};
}

/** @param {Record<string, string|boolean|string[]>} flags */
async function serve(flags) {
	const webhookUrl = str(flags['webhook-url']);
	const sandbox = await startSandbox({
		port: num(flags.port) ?? 4010,
		host: str(flags.host),
		accounts: num(flags.accounts),
		transfers: num(flags.transfers),
		payouts: num(flags.payouts),
		pagination: /** @type {import('./accounts').PaginationMode|undefined} */ (
			str(flags.pagination)
		),
		apiKey: str(flags['api-key']),
		tenantId: str(flags.tenant),
		rateLimit: rateLimitOf(flags),
		latency: { fixedMs: num(flags.latency) ?? 0, jitterMs: num(flags['latency-jitter']) ?? 0 },
		webhook: webhookUrl
			? {
					url: webhookUrl,
					secrets: list(flags['webhook-secret']),
					scheme: /** @type {SigningScheme|undefined} */ (str(flags['webhook-scheme'])),
					timestamp: bool(flags['webhook-timestamp']),
					bodyFormat: /** @type {'json'|'form'|undefined} */ (str(flags['webhook-body'])),
				}
			: undefined,
		log: bool(flags.verbose) ? (line) => process.stdout.write(line + '\n') : undefined,
	});
	const lines = [
		`Tenant API sandbox listening`,
		`  base URL   ${sandbox.baseUrl}`,
		`  Api-Key    ${sandbox.apiKey}`,
		`  tenant id  ${sandbox.tenantId}  (x-tenant-id; other values get 403)`,
		`  rate limit ${describeRateLimit(sandbox)}`,
		webhookUrl
			? `  webhook    ${webhookUrl}  ${describeWebhook(sandbox)}`
			: `  webhook    not configured (POST ${sandbox.url}/_sandbox/webhook)`,
		`  try        curl -H 'Api-Key: ${sandbox.apiKey}' -H 'x-tenant-id: ${sandbox.tenantId}' ${sandbox.baseUrl}/accounts`,
		`Control endpoints (no auth):`,
		...Object.entries(ENDPOINTS).map(([route, what]) => `  ${route.padEnd(30)} ${what}`),
		`  (prefix: ${sandbox.url})`,
	];
	process.stdout.write(lines.join('\n') + '\n');
	const stop = () => {
		sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

/**
 * @param {import('./server').Sandbox} sandbox
 */
function describeRateLimit(sandbox) {
	const limit = sandbox.rateLimit();
	const latency = sandbox.latency();
	const timing = `answers after ${latency.fixedMs} ms${latency.jitterMs ? ` + up to ${latency.jitterMs} ms` : ''}`;
	if (!limit) return `none; ${timing}`;
	return `${limit.perSecond}/s per key, burst ${limit.burst}, 429 + Retry-After beyond${limit.headers ? `, ${limit.headers} rate-limit headers` : ''}; ${timing}`;
}

/**
 * @param {import('./server').Sandbox} sandbox
 */
function describeWebhook(sandbox) {
	const cfg = /** @type {{ scheme: string, secrets: string[], timestamp: boolean }} */ (
		sandbox.webhookConfig()
	);
	return `(scheme ${cfg.scheme}, signing secret ${cfg.secrets[0] ?? '-'}${cfg.timestamp ? ', x-timestamp' : ''})`;
}

/**
 * A one-off dispatcher for `deliver`, set up from the command's flags (one attempt unless --attempts).
 * @param {Record<string, string|boolean|string[]>} flags
 */
function dispatcherFor(flags) {
	const url = str(flags.to);
	if (!url) throw new Error('deliver needs --to <url>');
	const scheme = /** @type {SigningScheme} */ (str(flags.scheme) ?? 'hmac-sha256-hex');
	return new WebhookDispatcher(
		{
			url,
			secrets: list(flags.secret) ?? (SCHEMES.includes(scheme) ? [demoSecret(scheme)] : []),
			scheme,
			timestamp: bool(flags.timestamp),
			bodyFormat: /** @type {'json'|'form'|undefined} */ (str(flags.body)),
			maxAttempts: num(flags.attempts) ?? 1,
		},
		{ attempts: 0, succeeded: 0, failed: 0 },
	);
}

/**
 * What `deliver` sends: `--payload` as it is, else `--event` (a type, or a partial event as JSON), else a ping.
 * @param {Record<string, string|boolean|string[]>} flags
 * @returns {import('./webhooks').DeliveryInput}
 */
function deliveryInput(flags) {
	const payload = str(flags.payload);
	if (payload !== undefined) return { payload: JSON.parse(payload) };
	const event = str(flags.event);
	return event && event.trim().startsWith('{') ? JSON.parse(event) : event;
}

/**
 * One delivery with a one-off dispatcher; prints its outcome, exit code 0 when an answer was a 2xx.
 * @param {Record<string, string|boolean|string[]>} flags
 */
async function deliver(flags) {
	const input = deliveryInput(flags);
	const dispatcher = dispatcherFor(flags);
	try {
		const result = await dispatcher.deliver(input);
		process.stdout.write(describeDelivery(result) + '\n');
		process.exitCode = result.ok ? 0 : 1;
	} finally {
		dispatcher.close();
	}
}

/** @type {Record<string, (flags: Record<string, string|boolean|string[]>) => Promise<void>>} */
const COMMANDS = { deliver };

async function main() {
	const { positional, flags } = parseArgs(process.argv.slice(2));
	if (flags.help) {
		process.stdout.write(USAGE + '\n');
		return;
	}
	if (positional.length > 0) {
		const command = COMMANDS[positional[0]];
		if (!command) throw new Error(`unknown command: ${positional[0]}`);
		return command(flags);
	}
	return serve(flags);
}

if (require.main === module) {
	main().catch((err) => {
		process.stderr.write(
			`sandbox: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`,
		);
		process.exit(2);
	});
}

module.exports = { parseArgs };
