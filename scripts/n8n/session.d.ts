/** Type declarations for session.js (kept by hand; the JS file is the source of truth). */

export interface HttpJson<T = unknown> {
	status: number;
	headers: Headers;
	text: string;
	/** The body parsed as JSON; undefined when it is not JSON. */
	json: T | undefined;
}

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** A call of n8n's public API (`/api/v1` + path) or internal REST API (`/rest` + path). */
export type ApiCall = <T = unknown>(method: string, urlPath: string, body?: unknown) => Promise<HttpJson<T>>;

export declare const DEFAULT_OWNER: Owner;
export declare function httpJson<T = unknown>(
	url: string,
	options?: { method?: string; body?: unknown; headers?: Record<string, string> },
): Promise<HttpJson<T>>;
export declare function authCookie(res: { headers: Headers }): string | undefined;
export declare function isReady(baseUrl: string, options?: { settings?: boolean }): Promise<boolean>;
/** true once `ready()` is, false once `exited()` reports an exit; throws after timeoutMs. */
export declare function waitUntil(
	ready: () => Promise<boolean>,
	options: { exited: () => unknown; timeoutMs: number; what: string },
): Promise<boolean>;
export declare function setupOwner(baseUrl: string, owner: Owner): Promise<'created' | 'existing'>;
export declare function login(baseUrl: string, owner: Owner): Promise<string>;
export declare function createApiKey(baseUrl: string, cookie: string, label: string): Promise<string>;
export declare function openSession(baseUrl: string, owner: Owner, label: string): Promise<{ cookie: string; apiKey: string }>;
export declare function publicApi(baseUrl: string, apiKey: string): ApiCall;
export declare function restApi(baseUrl: string, cookie: string): ApiCall;
export declare function waitForWebhook(
	baseUrl: string,
	webhookPath: string,
	options?: { timeoutMs?: number; context?: () => string },
): Promise<void>;
/** Creates a workflow through n8n's public API and activates it; resolves with its id. */
export declare function createActiveWorkflow(n8n: { api: ApiCall }, workflow: { name: string } & Record<string, unknown>): Promise<string>;
