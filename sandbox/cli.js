#!/usr/bin/env node
'use strict';

const { parseArgs } = require('node:util');
const { startSandbox } = require('./server');
const { ENDPOINTS } = require('./control');
const { SCHEMES } = require('./signing');
const { PAGINATION_MODES } = require('./accounts');

const USAGE = `Usage:
  node sandbox/cli.js [--port 4010] [--accounts 120] [--pagination ${PAGINATION_MODES.join('|')}]
                      [--transfers N] [--payouts N] (seeded records: /v1/transfers in cursor pages, /v1/payouts in next links)
                      [--api-key KEY] [--tenant ID]
                      [--webhook-url URL [--webhook-secret S] [--webhook-scheme SCHEME] [--webhook-timestamp]]
Schemes: ${SCHEMES.join(', ')} (default hmac-sha256-hex).
  Without a secret, each scheme signs with a demo secret valid in its key format (printed at start).
  --webhook-timestamp: the hmac-* schemes also sign a timestamp (x-timestamp); the others sign one or none as they do.`;

/** The flags that take a value (numbers are checked by the sandbox's options). */
const TEXT =
	'port accounts pagination transfers payouts api-key tenant webhook-url webhook-secret webhook-scheme';

async function serve() {
	const options = {
		...Object.fromEntries(TEXT.split(' ').map((name) => [name, { type: 'string' }])),
		'webhook-timestamp': { type: 'boolean' },
		help: { type: 'boolean' },
	};
	const flags = /** @type {Record<string, any>} */ (
		parseArgs({ args: process.argv.slice(2), options: /** @type {any} */ (options) }).values
	);
	if (flags.help) return void process.stdout.write(USAGE + '\n');
	const webhookUrl = flags['webhook-url'];
	const secret = flags['webhook-secret'];
	const sandbox = await startSandbox({
		port: Number(flags.port ?? 4010),
		accounts: flags.accounts,
		transfers: flags.transfers,
		payouts: flags.payouts,
		pagination: flags.pagination,
		apiKey: flags['api-key'],
		tenantId: flags.tenant,
		webhook: webhookUrl && {
			url: webhookUrl,
			secrets: secret === undefined ? undefined : [secret],
			scheme: flags['webhook-scheme'],
			timestamp: flags['webhook-timestamp'] === true,
		},
	});
	const webhook = sandbox.webhookConfig();
	const lines = [
		`Tenant API sandbox listening`,
		`  base URL   ${sandbox.baseUrl}`,
		`  Api-Key    ${sandbox.apiKey}`,
		`  tenant id  ${sandbox.tenantId}  (x-tenant-id; other values get 403)`,
		webhook.url
			? `  webhook    ${webhook.url}  (scheme ${webhook.scheme}, signing secret ${webhook.secrets[0] ?? '-'}${webhook.timestamp ? ', x-timestamp' : ''})`
			: `  webhook    not configured (--webhook-url, or {"url": …} in the body of POST /_sandbox/deliver)`,
		`  try        curl -H 'Api-Key: ${sandbox.apiKey}' -H 'x-tenant-id: ${sandbox.tenantId}' ${sandbox.baseUrl}/accounts`,
		`Control endpoints (no auth):`,
		...Object.entries(ENDPOINTS).map(([route, what]) => `  ${route.padEnd(24)} ${what}`),
		`  (prefix: ${sandbox.url})`,
	];
	process.stdout.write(lines.join('\n') + '\n');
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

serve().catch((err) => {
	process.stderr.write(`sandbox: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
	process.exit(2);
});
