'use strict';
/*
 * n8n CLI commands (import, publish, execute) against a user folder, in a process group of their own.
 */
const fs = require('node:fs');
const { spawnGroup, signalGroup, stopGroup } = require('./process-group');

/** @typedef {{ code: number|null, signal: NodeJS.Signals|null, stdout: string, stderr: string }} CliResult */

/**
 * Run `n8n <args>` (async: the sandbox may live in this process and must keep answering). Appends the
 * command and its output to `logFile`. Resolves { code, signal, stdout, stderr }; rejects on a non-zero
 * exit unless `allowFailure`, and kills the command after `timeoutMs`. With `stdoutFile`, stdout goes to
 * that file (read back at exit) instead of a pipe: n8n 2.41.1 exits before a pipe drains, so a large
 * output (`execute --rawOutput` of a few MB) loses its tail in a pipe; a file is written synchronously.
 * @param {import('./install').N8nInstallInfo} installed
 * @param {string[]} args
 * @param {{ env: NodeJS.ProcessEnv, cwd: string, logFile: string, allowFailure?: boolean, timeoutMs?: number, stdoutFile?: string }} options
 * @returns {Promise<CliResult>}
 */
function runCli(
	installed,
	args,
	{ env, cwd, logFile, allowFailure = false, timeoutMs = 180000, stdoutFile },
) {
	fs.mkdirSync(cwd, { recursive: true });
	return new Promise((resolve, reject) => {
		const stdoutFd = stdoutFile === undefined ? undefined : fs.openSync(stdoutFile, 'w');
		const p = spawnGroup(installed.nodeBin, [installed.n8nBin, ...args], {
			pipe: true,
			stdoutFd,
			env,
			cwd,
			label: `n8n ${args[0]}`,
		});
		if (stdoutFd !== undefined) fs.closeSync(stdoutFd);
		let stdout = '';
		let stderr = '';
		p.stdout?.on('data', (d) => (stdout += d));
		/** @type {import('node:stream').Readable} */ (p.stderr).on('data', (d) => (stderr += d));
		const timer = setTimeout(
			() => signalGroup(/** @type {number} */ (p.pid), 'SIGKILL'),
			timeoutMs,
		);
		p.on('error', (err) => {
			clearTimeout(timer);
			reject(err);
		});
		p.on('close', (code, signal) => {
			clearTimeout(timer);
			void stopGroup(p); // leftovers of the group, if any
			if (stdoutFile !== undefined) stdout = fs.readFileSync(stdoutFile, 'utf8');
			fs.appendFileSync(
				logFile,
				`\n$ n8n ${args.join(' ')}  -> ${code ?? signal}\n--- stdout${stdoutFile === undefined ? `\n${stdout}` : `: ${stdoutFile}`}\n--- stderr\n${stderr}\n`,
			);
			const result = { code, signal, stdout, stderr };
			if (code === 0 || allowFailure) return resolve(result);
			/** @type {Error & { result?: CliResult }} */
			const err = new Error(
				`n8n ${args.join(' ')} exited with ${code ?? signal}\n--- stdout (tail)\n${stdout.slice(-3000)}\n--- stderr (tail)\n${stderr.slice(-3000)}`,
			);
			err.result = result;
			reject(err);
		});
	});
}

/**
 * Arguments that activate ("publish") a workflow before `n8n start`: the command differs between 1.x and 2.x.
 * @param {number} major
 * @param {string} workflowId
 */
function publishArgs(major, workflowId) {
	return major >= 2
		? ['publish:workflow', `--id=${workflowId}`]
		: ['update:workflow', `--id=${workflowId}`, '--active=true'];
}

/**
 * The JSON document that `n8n execute --rawOutput` prints (JSON.stringify(run, null, 2)): from the line that is
 * exactly "{" to the last line that is exactly "}"; log lines may come before or after it.
 * @param {string} stdout
 * @returns {unknown}
 */
function parseRawOutput(stdout) {
	const lines = stdout.split(/\r?\n/);
	try {
		return JSON.parse(lines.slice(lines.indexOf('{'), lines.lastIndexOf('}') + 1).join('\n'));
	} catch {
		throw new Error(`no JSON document in n8n output:\n${stdout.slice(-2000)}`);
	}
}

module.exports = { runCli, publishArgs, parseRawOutput };
