'use strict';
/*
 * Running a process under test/harness/n8n/netguard.js and reading what it recorded.
 *
 *   const env = guardEnv(logFile);           // NODE_OPTIONS (children inherit it) + the log's path
 *   ... run n8n with env ...
 *   const { loaded, attempts } = readGuardLog(logFile);
 */
const fs = require('node:fs');
const path = require('node:path');

const GUARD = path.join(__dirname, 'netguard.js');

/**
 * @typedef {{ pid: number, argv: string }} GuardLoaded
 * @typedef {GuardLoaded & { kind: string, target: string, stack: string[] }} GuardAttempt
 */

/**
 * Environment that loads the guard into a Node process and every Node process it starts.
 * @param {string} logFile
 */
function guardEnv(logFile) {
	return { NODE_OPTIONS: `--require "${GUARD}"`, TENANT_API_NETGUARD_LOG: logFile };
}

/**
 * `loaded`: the processes that ran under the guard; `attempts`: what they tried to reach outside loopback.
 * @param {string} logFile
 * @returns {{ loaded: GuardLoaded[], attempts: GuardAttempt[] }}
 */
function readGuardLog(logFile) {
	const lines = fs.existsSync(logFile)
		? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean)
		: [];
	/** @type {GuardAttempt[]} */
	const entries = lines.map((l) => JSON.parse(l));
	return {
		loaded: entries.filter((e) => e.kind === 'loaded'),
		attempts: entries.filter((e) => e.kind !== 'loaded'),
	};
}

module.exports = { guardEnv, readGuardLog };
