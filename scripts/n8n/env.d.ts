/** Type declarations for env.js (kept by hand; the JS file is the source of truth). */
/** The environment that keeps n8n `version` on loopback (differs between 1.x and 2.x). */
export declare function offlineEnv(version: string): Record<string, string>;
/** N8N_WEBHOOK_URL (2.x) or WEBHOOK_URL (1.x). */
export declare function webhookUrlEnv(version: string, url: string): Record<string, string>;
/** The full environment of one n8n process; `settings` last (ports, database, URLs…). */
export declare function n8nEnv(
	version: string,
	options: { userFolder: string; listenAddress?: string; logLevel?: string; settings?: Record<string, string> },
): NodeJS.ProcessEnv;
export declare function majorOf(version: string): number;
