/** Type declarations for netguard-log.js (kept by hand; the JS file is the source of truth). */
export interface GuardLoaded {
	pid: number;
	argv: string;
}
export interface GuardAttempt extends GuardLoaded {
	kind: string;
	target: string;
	stack: string[];
}
export declare const GUARD: string;
/** Environment that loads the guard into a Node process and every Node process it starts. */
export declare function guardEnv(logFile: string): { NODE_OPTIONS: string; TENANT_API_NETGUARD_LOG: string };
export declare function readGuardLog(logFile: string): { loaded: GuardLoaded[]; attempts: GuardAttempt[] };
