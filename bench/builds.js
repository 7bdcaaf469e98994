'use strict';
/**
 * Builds of the package the webhook benchmark runs side by side in one process: this checkout's `dist/` (after
 * `npm run build`), and with `--baseline <ref>` the package as it was at a git ref, built from a scratch git worktree
 * (in the temporary folder, this checkout's node_modules linked in, built with the ref's own `npm run build`, removed
 * when the process exits). Each build is loaded through its package main and seen through one interface, `Build`,
 * whichever trigger API it has:
 * - the current one: `receiveDelivery(settings, request)` and `settingsFromParameters` in the package main;
 * - the one before the signing schemes (main exports `readDelivery(config, input)` and `PRESETS`): its
 *   `receiveDelivery` and `settingsFromParameters` are in dist/nodes/TenantApiTrigger, and the scheme now called
 *   `timestampedSignatures` was a preset with a fixed header of its own.
 */
const fs = require('node:fs');
const os = require('node:os');
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
 *   verifyAndRead?: (settings: unknown, request: Request) => unknown,
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
	// What the build is made of: the commit, and whether the product's files differ from it.
	const changed = git(dir, ['status', '--porcelain', '--', 'nodes', 'credentials', 'index.js']);
	const commit = `${git(dir, ['rev-parse', '--short', 'HEAD'])}${changed ? ' with uncommitted changes' : ''}`;
	if (typeof main.receiveDelivery === 'function') return currentApi(main, label, commit);
	if (typeof main.readDelivery === 'function' && main.PRESETS) return presetApi(dir, label, commit);
	throw new Error(`${dir}: the package main exports neither receiveDelivery nor readDelivery`);
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

/** The scheme of one `t=…,v1=…` header had its own fixed header name before it became a scheme with a setting. */
const PRESET_OF = { timestampedSignatures: { verification: 'stripe', header: 'stripe-signature' } };

/** @param {string} dir @param {string} label @param {string} commit @returns {Build} */
function presetApi(dir, label, commit) {
	const trigger = path.join(dir, 'dist', 'nodes', 'TenantApiTrigger');
	const { readDelivery } = require(path.join(dir, 'index.js'));
	const { settingsFromParameters } = require(path.join(trigger, 'settings.js'));
	const { receiveDelivery } = require(path.join(trigger, 'receive.js'));
	/** @param {Parameters} parameters */
	const preset = (parameters) =>
		PRESET_OF[/** @type {keyof typeof PRESET_OF} */ (String(parameters.verification))];
	return {
		label,
		commit,
		request: (parameters, request) => {
			const renamed = preset(parameters);
			if (renamed === undefined) return request;
			const { [String(parameters.signatureHeader ?? 'x-signature')]: signature, ...headers } =
				request.headers;
			return { ...request, headers: { ...headers, [renamed.header]: signature } };
		},
		settings: (parameters, secrets) => {
			const { verification, ...rest } = parameters;
			const name = preset(parameters)?.verification ?? verification;
			return settingsFromParameters(name, reader(rest), secrets, secrets);
		},
		receive: (settings, request) => receiveDelivery(settings, request),
		item: (decision) => (decision.action === 'start' ? decision.items?.[0] : undefined),
		verifyAndRead: (settings, request) =>
			readDelivery(/** @type {{ config: unknown }} */ (settings).config, request),
	};
}

/** This checkout's build (`npm run build` first). */
function currentBuild() {
	return loadBuild(ROOT, 'this checkout');
}

/**
 * The package at git ref `ref`, built in a scratch worktree and loaded. The worktree is removed at exit (the loaded
 * modules stay in memory).
 * @param {string} ref
 */
function baselineBuild(ref) {
	const commit = git(ROOT, ['rev-parse', '--verify', `${ref}^{commit}`]);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tenant-api-baseline-${commit.slice(0, 7)}-`));
	git(ROOT, ['worktree', 'add', '--detach', dir, commit]);
	process.on('exit', () => {
		try {
			git(ROOT, ['worktree', 'remove', '--force', dir]);
		} catch {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
	process.stderr.write(`building ${ref} (${commit.slice(0, 7)}) in ${dir}\n`);
	execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 2, 2] });
	return loadBuild(dir, `${ref}`);
}

module.exports = { baselineBuild, currentBuild };
