'use strict';
/*
 * The environment of every n8n process the project starts (e2e, browser, `npm start`, bench, each
 * process of the queue-mode cluster): loopback only, quiet, UTC, logging to the console.
 */
const installer = require('./install');

/**
 * n8n modules that call n8n's servers on their own, per major version: 2.x (2.40.7, 2.41.1) fetches its
 * MCP server registry (api.n8n.io) at start. 1.x has no such module and refuses to start when
 * N8N_DISABLED_MODULES names a module it does not know, hence per version.
 * test/e2e/offline.test.ts proves the list complete: n8n runs under test/harness/n8n/netguard.js.
 */
/** @type {Record<number, string[]>} */
const ONLINE_MODULES = { 1: [], 2: ['mcp-registry'] };

/** Settings from the developer's shell that must not reach n8n unless the caller sets them. */
const SHELL_SETTINGS = ['N8N_CONFIG_FILES', 'NODE_OPTIONS'];

/** @param {string} version */
function majorOf(version) {
	return Number(String(version).split('.')[0]);
}

/**
 * THE environment that keeps n8n on loopback and quiet; every n8n the project starts gets it.
 * See CONTRIBUTING "What `npm start` and the tests set".
 * @param {string} version n8n version, e.g. 2.41.1
 */
function offlineEnv(version) {
	const modules = ONLINE_MODULES[majorOf(version)];
	if (!modules) throw new Error(`offlineEnv: no list of online modules for n8n ${version}`);
	return {
		...(modules.length ? { N8N_DISABLED_MODULES: modules.join(',') } : {}),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
	};
}

/**
 * The variable that sets the public webhook URL: 2.x reads N8N_WEBHOOK_URL (WEBHOOK_URL is deprecated there), 1.x only WEBHOOK_URL.
 * @param {string} version
 * @param {string} url
 */
function webhookUrlEnv(version, url) {
	return { [majorOf(version) >= 2 ? 'N8N_WEBHOOK_URL' : 'WEBHOOK_URL']: url };
}

/**
 * The full environment of one n8n process: this machine's environment (installer.envFor: the Node
 * that runs `version`), the offline settings, the common ones, then `settings` (ports, database, URLs…).
 * @param {string} version
 * @param {{ userFolder: string, listenAddress?: string, logLevel?: string, settings?: Record<string, string> }} options
 */
function n8nEnv(
	version,
	{ userFolder, listenAddress = '127.0.0.1', logLevel = 'info', settings = {} },
) {
	const env = installer.envFor(version, {
		...offlineEnv(version),
		N8N_USER_FOLDER: userFolder,
		N8N_LISTEN_ADDRESS: listenAddress,
		N8N_PROTOCOL: 'http',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		N8N_LOG_LEVEL: logLevel,
		N8N_LOG_OUTPUT: 'console',
		NODE_ENV: 'production',
		...(majorOf(version) === 1 ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {}),
		...settings,
	});
	for (const name of SHELL_SETTINGS) if (!(name in settings)) delete env[name];
	return env;
}

module.exports = { webhookUrlEnv, n8nEnv };
