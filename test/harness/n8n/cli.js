'use strict';
/*
 * n8n CLI commands (import, publish, execute) against a user folder, in a process group of their own.
 */
const fs = require('node:fs');
const { once } = require('node:events');
const { spawnGroup, signalGroup, stopGroup } = require('./process-group');

/** @typedef {{ code: number|null, signal: NodeJS.Signals|null, stdout: string, stderr: string }} CliResult */

/** How long a CLI command may run before it is killed. */
const CLI_TIMEOUT_MS = 180000;

/**
 * Run `n8n <args>` (async: the sandbox may live in this process and must keep answering). Appends the
 * command and its output to `logFile`. Resolves { code, signal, stdout, stderr }; rejects on a non-zero
 * exit unless `allowFailure`, and kills the command after CLI_TIMEOUT_MS. With `stdoutFile`, stdout goes to
 * that file (read back at exit) instead of a pipe: n8n 2.41.1 exits before a pipe drains, so a large
 * output (`execute --rawOutput` of a few MB) loses its tail in a pipe; a file is written synchronously.
 * @param {import('./install').N8nInstallInfo} installed
 * @param {string[]} args
 * @param {{ env: NodeJS.ProcessEnv, cwd: string, logFile: string, allowFailure?: boolean, stdoutFile?: string }} options
 * @returns {Promise<CliResult>}
 */
async function runCli(installed, args, { env, cwd, logFile, allowFailure = false, stdoutFile }) {
	fs.mkdirSync(cwd, { recursive: true });
	const stdoutFd = stdoutFile === undefined ? undefined : fs.openSync(stdoutFile, 'w');
	const label = `n8n ${args[0]}`;
	const p = spawnGroup(installed.nodeBin, [installed.n8nBin, ...args], {
		pipe: true,
		stdoutFd,
		env,
		cwd,
		label,
	});
	if (stdoutFd !== undefined) fs.closeSync(stdoutFd);
	let [stdout, stderr] = ['', ''];
	p.stdout?.on('data', (d) => (stdout += d));
	p.stderr?.on('data', (d) => (stderr += d));
	const timer = setTimeout(
		() => signalGroup(/** @type {number} */ (p.pid), 'SIGKILL'),
		CLI_TIMEOUT_MS,
	);
	const [code, signal] = await once(p, 'close').finally(() => clearTimeout(timer));
	void stopGroup(p); // leftovers of the group, if any
	if (stdoutFile !== undefined) stdout = fs.readFileSync(stdoutFile, 'utf8');
	const exit = `n8n ${args.join(' ')}  -> ${code ?? signal}`;
	const shown = stdoutFile === undefined ? `\n${stdout}` : `: ${stdoutFile}`;
	fs.appendFileSync(logFile, `\n$ ${exit}\n--- stdout${shown}\n--- stderr\n${stderr}\n`);
	if (code === 0 || allowFailure) return { code, signal, stdout, stderr };
	throw new Error(
		`${exit}\n--- stdout (tail)\n${stdout.slice(-3000)}\n--- stderr (tail)\n${stderr.slice(-3000)}`,
	);
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
