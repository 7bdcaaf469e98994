#!/usr/bin/env node
'use strict';
/*
 * `npm start`: the package running inside a real n8n, against the local sandbox (what it does: README.md; its options:
 * CONTRIBUTING.md). The trigger workflow is imported with the Verification that checks the sandbox's --scheme
 * (sandbox/signing.js triggerParameters), and the sandbox's first delivery shows how n8n answered it.
 */
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const installer = require('../test/harness/n8n/install');
const { createInstance } = require('../test/harness/n8n/instance');
const { SIGNING_SCHEME, firstDelivery, importExamples } = require('../test/harness/n8n/examples');
const { buildAndPack, ROOT } = require('../test/harness/pack');
const signing = require('../sandbox/signing');

/**
 * @import { Sandbox } from '../sandbox/server'
 * @import { SigningScheme } from '../sandbox/signing'
 */

const { values: options } = parseArgs({
	options: {
		port: { type: 'string', default: '5678' },
		'sandbox-port': { type: 'string', default: '4010' },
		n8n: { type: 'string', default: installer.DEFAULT_VERSION },
		scheme: { type: 'string', default: SIGNING_SCHEME },
		'no-build': { type: 'boolean', default: false },
		fresh: { type: 'boolean', default: false },
	},
});

const say = (/** @type {string} */ msg) => process.stdout.write(`[start] ${msg}\n`);

/** The Verification's name as the editor shows it (the built package's VERIFICATIONS). @param {SigningScheme} scheme */
function verificationName(scheme) {
	const verification = String(signing.triggerParameters(scheme).verification);
	/** @type {{ VERIFICATIONS: Record<string, { name: string }> }} */
	const { VERIFICATIONS } = require(ROOT);
	return VERIFICATIONS[verification]?.name ?? verification;
}

/**
 * One n8n user folder per version and signing scheme: n8n's import into an existing folder does not reliably
 * replace a credential's secret or the published version of the trigger, so switching --scheme in the same
 * folder would leave deliveries checked by the previous scheme.
 * @param {string} version @param {string} scheme
 */
const demoFolderName = (version, scheme) =>
	[
		'demo-user',
		version !== installer.DEFAULT_VERSION && version,
		scheme !== SIGNING_SCHEME && scheme,
	]
		.filter(Boolean)
		.join('-');

async function main() {
	const { n8n: version, scheme } = options;
	const port = Number(options.port);
	if (!signing.isScheme(scheme))
		throw new Error(`unknown --scheme ${scheme}: one of ${signing.SCHEMES.join(', ')}`);
	const userFolder = path.join(installer.cacheDir(), demoFolderName(version, scheme));

	say('building and packing the package');
	const tarball = buildAndPack({ skipBuild: options['no-build'] });

	say(`ensuring n8n ${version} (first run installs it: several minutes)`);
	installer.ensureN8n(version);

	if (options.fresh) fs.rmSync(userFolder, { recursive: true, force: true });
	const n8n = createInstance({
		version,
		userFolder,
		port,
		tarball,
		encryptionKey: 'tenant-api-demo-encryption-key',
		log: say,
	});

	/** @type {Sandbox|undefined} */
	let sandbox;
	let stopping = false;
	/** @param {number} code */
	async function shutdown(code) {
		if (stopping) return;
		stopping = true;
		say('stopping n8n and the sandbox');
		await n8n.stop().catch((e) => say(`n8n stop: ${e.message}`));
		if (sandbox) await sandbox.close().catch((e) => say(`sandbox close: ${e.message}`));
		process.exit(code);
	}
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void shutdown(0));

	try {
		const { startSandbox } = require('../sandbox/server');
		sandbox = await startSandbox({ port: Number(options['sandbox-port']) });
		say(`sandbox on ${sandbox.url} (API ${sandbox.baseUrl})`);

		await n8n.installPackage(tarball);
		const { webhookPath, secret } = await importExamples(n8n, sandbox, { scheme });
		const webhookUrl = `http://localhost:${port}${webhookPath}`;
		sandbox.configureWebhook({ url: webhookUrl, secrets: [secret], scheme });
		say(`sandbox delivers ${scheme}-signed webhooks to ${webhookUrl}`);

		await n8n.start();
		await n8n.waitForWebhook(webhookPath);
	} catch (err) {
		say(`FAILED: ${err.message}`);
		await shutdown(1);
		return;
	}
	const delivered = await firstDelivery(sandbox);

	const url = `http://localhost:${port}`;
	process.stdout.write(
		[
			'',
			`  n8n ${version} is running: ${url}`,
			`  login:    ${n8n.owner.email}`,
			`  password: ${n8n.owner.password}`,
			'',
			`  sandbox:  ${sandbox.url}  (API key ${sandbox.apiKey}, tenant ${sandbox.tenantId})`,
			`  workflows: "Tenant API: list accounts", "Tenant API: POST with idempotency keys",`,
			`             "Tenant API: signed webhook trigger" (published, Verification: ${verificationName(scheme)})`,
			`  deliveries signed in: ${scheme} (another: npm start -- --scheme <scheme>; the schemes: node sandbox/cli.js --help)`,
			`  ${delivered}`,
			`  send a signed delivery: curl -X POST ${sandbox.url}/_sandbox/deliver`,
			`  n8n log:  ${n8n.logFile}`,
			'',
			'  Ctrl-C stops everything.',
			'',
		].join('\n'),
	);
}

main().catch((err) => {
	say(`FAILED: ${err.stack || err.message}`);
	process.exit(1);
});
