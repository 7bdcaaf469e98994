/** Type declarations for instance.js (kept by hand; the JS file is the source of truth). */

export interface HttpJson<T = unknown> {
	status: number;
	headers: Headers;
	text: string;
	/** The body parsed as JSON; undefined when it is not JSON. */
	json: T | undefined;
}

export interface RequestOptions {
	body?: unknown;
	headers?: Record<string, string>;
	cookie?: string;
}

export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface CliOptions {
	allowFailure?: boolean;
	timeoutMs?: number;
	extraEnv?: Record<string, string>;
}

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export interface InstanceOptions {
	version?: string;
	userFolder: string;
	port?: number;
	tarball?: string;
	host?: string;
	publicHost?: string;
	webhookUrl?: string;
	encryptionKey?: string;
	owner?: Partial<Owner>;
	env?: Record<string, string>;
	log?: (message: string) => void;
}

export interface N8nInstallInfo {
	version: string;
	dir: string;
	nodeBin: string;
	n8nBin: string;
	installed: boolean;
	major: number;
}

export interface N8nInstance {
	readonly version: string;
	readonly userFolder: string;
	readonly port: number;
	readonly logFile: string;
	readonly owner: Owner;
	readonly url: string;
	readonly apiKey: string | undefined;
	readonly cookie: string | undefined;
	readonly email: string;
	readonly password: string;
	readonly running: boolean;
	ensureInstalled(): N8nInstallInfo;
	installPackage(tarball?: string): Promise<string>;
	cli(args: string[], options?: CliOptions): Promise<CliResult>;
	publish(workflowId: string): Promise<CliResult>;
	/** `n8n execute --rawOutput`: the run data as n8n prints it (an IRun). */
	execute(workflowId: string): Promise<CliResult & { data: import('n8n-workflow').IRun }>;
	start(options?: { timeoutMs?: number }): Promise<N8nInstance>;
	stop(options?: { timeoutMs?: number }): Promise<void>;
	request<T = unknown>(method: string, urlPath: string, options?: RequestOptions): Promise<HttpJson<T>>;
	login(): Promise<string>;
	logTail(lines?: number): string;
	/** Resolves once a production webhook path answers something other than 404 (the workflow is active). */
	waitForWebhook(path: string, options?: { timeoutMs?: number }): Promise<void>;
	/** The public API (`/api/v1` + urlPath) with the instance's API key. */
	api<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<HttpJson<T>>;
}

export declare function createInstance(options: InstanceOptions): N8nInstance;
export declare function startInstance(options: InstanceOptions): Promise<N8nInstance>;
export declare function parseRawOutput(stdout: string): unknown;
/** The environment that keeps n8n `version` on loopback (differs between 1.x and 2.x). */
export declare function offlineEnv(version: string): Record<string, string>;
export declare function randomKey(): string;
export declare function httpJson<T = unknown>(
	url: string,
	options?: { method?: string; body?: unknown; headers?: Record<string, string> },
): Promise<HttpJson<T>>;
export declare const DEFAULT_OWNER: Owner;
