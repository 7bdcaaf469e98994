'use strict';
/**
 * The build of the package the webhook benchmark runs: this checkout's `dist/` (after `npm run build`), loaded through
 * its package main and seen through one interface, `Build`.
 */
const path = require('node:path');
const { execFileSync } = require('node:child_process');

/**
 * @typedef {Record<string, unknown>} Parameters  the trigger node's parameters, `verification` among them
 * @typedef {{ rawBody: Buffer, headers: Record<string, string>, query: Record<string, unknown>, url: string,
 *   nowSeconds: number }} Request
 * @typedef {{ action: string, reason?: string, item?: Record<string, unknown>, items?: Record<string, unknown>[] }}
 *   Decision
 * @typedef {{
 *   label: string,
 *   commit: string,
 *   request: (parameters: Parameters, request: Request) => Request,
 *   settings: (parameters: Parameters, secrets: string[]) => unknown,
 *   receive: (settings: unknown, request: Request) => Decision,
 *   item: (decision: Decision) => Record<string, unknown> | undefined,
 * }} Build
 */

const ROOT = path.join(__dirname, '..');

/** Reads node parameters from a plain object; what it lacks takes the node's default. @param {Parameters} parameters */
const reader = (parameters) => (/** @type {string} */ name, /** @type {unknown} */ fallback) =>
	parameters[name] === undefined ? fallback : parameters[name];

/** @param {string} cwd @param {string[]} args */
const git = (cwd, args) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** The build in `dir` (its package main already built), seen through `Build`. @param {string} dir @param {string} label */
function loadBuild(dir, label) {
	const main = require(path.join(dir, 'index.js'));
	const commit = git(dir, ['rev-parse', '--short', 'HEAD']);
	if (typeof main.receiveDelivery === 'function') return currentApi(main, label, commit);
	throw new Error(`${dir}: the package main exports no receiveDelivery`);
}

/** @param {any} main @param {string} label @param {string} commit @returns {Build} */
function currentApi(main, label, commit) {
	return {
		label,
		commit,
		request: (_, request) => request,
		settings: ({ verification, ...rest }, secrets) =>
			main.settingsFromParameters(verification, reader(rest), { accepted: secrets, all: secrets }),
		receive: (settings, request) => main.receiveDelivery(settings, request),
		item: (decision) => (decision.action === 'start' ? decision.item : undefined),
	};
}

/** This checkout's build (`npm run build` first). */
function currentBuild() {
	return loadBuild(ROOT, 'this checkout');
}

module.exports = { currentBuild };
