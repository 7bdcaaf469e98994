/** Type declarations for cluster.js (kept by hand; the JS file is the source of truth). */
import type { ApiCall } from '../n8n/session';

export type ProcessRole = 'main' | 'webhook' | 'worker';

export interface ClusterProcess {
	readonly name: string;
	readonly role: ProcessRole;
	readonly userFolder: string;
	readonly logFile: string;
	/** The port it serves HTTP on (workers: their health-check port). */
	readonly port: number | null;
	readonly pid: number | null;
	readonly running: boolean;
	/** Everything the process printed so far. */
	log(): string;
	start(options?: { timeoutMs?: number }): Promise<ClusterProcess>;
	stop(): Promise<void>;
	/** SIGKILL the n8n process itself (as a crash would), then the rest of its group. */
	kill(): Promise<void>;
}

export interface ServiceHandle {
	host: string;
	port: number;
	pid: number;
	logFile: string;
	stop(): Promise<void>;
}

export interface ClusterOptions {
	tarball: string;
	runDir?: string;
	version?: string;
	workers?: number;
	concurrency?: number;
	encryptionKey?: string;
	/** Extra environment for every n8n process. */
	env?: Record<string, string>;
	/** The reaper kills everything after this long (default 15 min). */
	deadlineMs?: number;
	log?: (message: string) => void;
}

export interface QueueCluster {
	readonly version: string;
	readonly runDir: string;
	readonly redis: ServiceHandle;
	readonly pg: ServiceHandle & { user: string; password: string; database: string };
	readonly main: ClusterProcess;
	readonly webhook: ClusterProcess;
	readonly workers: ClusterProcess[];
	readonly processes: ClusterProcess[];
	readonly mainUrl: string;
	readonly webhookBase: string;
	readonly cookie: string | null;
	/** Seconds since the start at which each step was done (services, packageInstalled, mainReady, processorsReady). */
	readonly timings: Record<string, number>;
	/** The settings every process shares, secrets masked. */
	readonly sharedEnv: Record<string, string>;
	/** n8n's public API on the main (X-N8N-API-KEY). */
	api: ApiCall;
	/** n8n's internal REST API on the main (the owner's cookie). */
	rest: ApiCall;
	startProcessors(): Promise<void>;
	restartMain(): Promise<void>;
	stop(): Promise<void>;
}

export declare function startCluster(options: ClusterOptions): Promise<QueueCluster>;
export { httpJson } from '../n8n/session';
