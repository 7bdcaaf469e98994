/** Type declarations for cli.js (kept by hand; the JS file is the source of truth). */
import type { CliResult, N8nInstallInfo } from './instance';

export declare function runCli(
	installed: N8nInstallInfo,
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string; allowFailure?: boolean; timeoutMs?: number },
): Promise<CliResult>;
export declare function publishArgs(major: number, workflowId: string): string[];
export declare function parseRawOutput(stdout: string): unknown;
