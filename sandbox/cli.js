#!/usr/bin/env node
'use strict';

/**
 * npm run sandbox -- [--port 4010] [--accounts 120] [--pagination cursor] [--transfers N] [--payouts N]
 *   [--api-key sk_test_sandbox] [--tenant tenant_demo]
 *   [--webhook-url URL] [--webhook-secret S] [--webhook-scheme hmac-sha256-hex] [--webhook-timestamp]
 */

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

/**
 * `--name value` and `--name=value`; `--webhook-timestamp` and `--help` take none.
 * @param {string[]} argv
 * @returns {Record<string, string|true>}
 */
function parseArgs(argv) {
	/** @type {Record<string, string|true>} */
	const flags = {};
	for (let i = 0; i < argv.length; i++) {
		const [, name, inline] = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]) ?? [];
		if (name === undefined) throw new Error(`not a flag: ${argv[i]}`);
		if (inline !== undefined) flags[name] = inline;
		else if (name === 'webhook-timestamp' || name === 'help') flags[name] = true;
		else if (i + 1 < argv.length) flags[name] = argv[++i];
		else throw new Error(`--${name} needs a value`);
	}
	return flags;
}

/** @param {string|true|undefined} value */
const numberOf = (value) => (typeof value === 'string' ? Number(value) : undefined);
/** @param {string|true|undefined} value */
const textOf = (value) => (typeof value === 'string' ? value : undefined);

/** @param {Record<string, string|true>} flags */
async function serve(flags) {
	const webhookUrl = textOf(flags['webhook-url']);
	const secret = textOf(flags['webhook-secret']);
	const sandbox = await startSandbox({
		port: numberOf(flags.port) ?? 4010,
		accounts: numberOf(flags.accounts),
		transfers: numberOf(flags.transfers),
		payouts: numberOf(flags.payouts),
		pagination: /** @type {import('./accounts').PaginationMode|undefined} */ (
			textOf(flags.pagination)
		),
		apiKey: textOf(flags['api-key']),
		tenantId: textOf(flags.tenant),
		webhook: webhookUrl
			? {
					url: webhookUrl,
					secrets: secret === undefined ? undefined : [secret],
					scheme: /** @type {import('./signing').SigningScheme|undefined} */ (
						textOf(flags['webhook-scheme'])
					),
					timestamp: flags['webhook-timestamp'] === true,
				}
			: undefined,
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
	const stop = () => {
		sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

if (require.main === module) {
	Promise.resolve()
		.then(() => {
			const flags = parseArgs(process.argv.slice(2));
			return flags.help ? void process.stdout.write(USAGE + '\n') : serve(flags);
		})
		.catch((err) => {
			process.stderr.write(
				`sandbox: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`,
			);
			process.exit(2);
		});
}
