'use strict';
/**
 * Builds of the package the webhook benchmark runs side by side in one process: this checkout's `dist/`, and with
 * `--baseline <ref>` the package at a git ref, built in a scratch git worktree (this checkout's node_modules linked
 * in, removed at exit). Each is seen through one interface whichever trigger API it has: the current one
 * (`receiveDelivery`, `settingsFromParameters` in the package main), or the one before the signing schemes (main
 * exports `readDelivery` and `PRESETS`; the scheme now called `timestampedSignatures` was a preset with a header of
 * its own).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');

/** Node parameters from a plain object; what it lacks takes the node's default. */
const reader = (parameters) => (name, fallback) => parameters[name] ?? fallback;
const git = (cwd, args) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function loadBuild(dir, label) {
	const main = require(path.join(dir, 'index.js'));
	const changed = git(dir, ['status', '--porcelain', '--', 'nodes', 'credentials', 'index.js']);
	const commit = `${git(dir, ['rev-parse', '--short', 'HEAD'])}${changed ? ' with uncommitted changes' : ''}`;
	if (typeof main.receiveDelivery === 'function')
		return {
			label,
			commit,
			request: (_, request) => request,
			settings: ({ verification, ...rest }, secrets) =>
				main.settingsFromParameters(verification, reader(rest), {
					accepted: secrets,
					all: secrets,
				}),
			receive: main.receiveDelivery,
			item: (decision) => (decision.action === 'start' ? decision.item : undefined),
		};
	if (typeof main.readDelivery === 'function' && main.PRESETS)
		return presetApi(dir, main, label, commit);
	throw new Error(`${dir}: the package main exports neither receiveDelivery nor readDelivery`);
}

/** The `t=…,v1=…` scheme had a fixed header of its own before it became a scheme with a setting. */
const PRESET_OF = { timestampedSignatures: { verification: 'stripe', header: 'stripe-signature' } };

function presetApi(dir, main, label, commit) {
	const trigger = path.join(dir, 'dist', 'nodes', 'TenantApiTrigger');
	const { settingsFromParameters } = require(path.join(trigger, 'settings.js'));
	const { receiveDelivery } = require(path.join(trigger, 'receive.js'));
	const preset = (parameters) => PRESET_OF[String(parameters.verification)];
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
		settings: ({ verification, ...rest }, secrets) =>
			settingsFromParameters(
				preset({ verification })?.verification ?? verification,
				reader(rest),
				secrets,
				secrets,
			),
		receive: receiveDelivery,
		item: (decision) => (decision.action === 'start' ? decision.items?.[0] : undefined),
		verifyAndRead: (settings, request) => main.readDelivery(settings.config, request),
	};
}

const currentBuild = () => loadBuild(ROOT, 'this checkout');

/** The package at git ref `ref`, built in a scratch worktree (removed at exit; the loaded modules stay). */
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
	return loadBuild(dir, ref);
}

module.exports = { baselineBuild, currentBuild };
