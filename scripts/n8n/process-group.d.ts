/** Type declarations for process-group.js (kept by hand; the JS file is the source of truth). */
export interface ExitInfo {
	code: number | null;
	signal: NodeJS.Signals | null;
}

type ChildProcess = import('node:child_process').ChildProcess;

/** A process group's leader, with its exit as a promise and (once it happened) as a value. */
export interface GroupChild extends ChildProcess {
	exited: Promise<ExitInfo>;
	exitInfo: ExitInfo | null;
}

/** Told about every group started and stopped (e.g. a watchdog's registry). */
export interface GroupRegistry {
	addGroup(pgid: number, label: string): void;
	removeGroup(pgid: number): void;
}

export declare function spawnGroup(
	cmd: string,
	args: string[],
	options?: { logFile?: string; pipe?: boolean; env?: NodeJS.ProcessEnv; cwd?: string; label?: string; registry?: GroupRegistry },
): GroupChild;
export declare function stopGroup(
	child: GroupChild | null | undefined,
	options?: { signal?: NodeJS.Signals; timeoutMs?: number; registry?: GroupRegistry },
): Promise<void>;
export declare function killLeader(child: GroupChild, options?: { registry?: GroupRegistry }): Promise<void>;
export declare function signalGroup(pgid: number, signal: NodeJS.Signals): boolean;
export declare function tail(file: string, lines?: number): string;
export declare function sleep(ms: number): Promise<void>;
