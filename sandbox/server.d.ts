/** Type declarations for server.js (kept by hand; the JS file is the source of truth). */
import type { SigningScheme } from './signing';

export type PaginationMode = 'cursor' | 'page' | 'pageNoTotals' | 'nextUrl' | 'array' | 'loop' | 'endless';

export interface Account {
	id: string;
	object: 'account';
	name: string;
	currency: string;
	balance: number;
	status: string;
	created_at: string;
}

export interface CreatedRecord {
	id: string;
	object: string;
	endpoint: string;
	idempotency_key: string;
	created_at: string;
	[field: string]: unknown;
}

export interface WebhookOptions {
	url?: string | null;
	secrets?: string[];
	secret?: string;
	scheme?: SigningScheme;
	timestamp?: boolean;
	/** The URL Square/Twilio signatures cover when it differs from `url` (e.g. n8n's public URL). */
	signedUrl?: string | null;
	/** Body as JSON or form fields (default: form for slack and twilio, JSON otherwise). */
	bodyFormat?: 'json' | 'form' | null;
	maxAttempts?: number;
	retryDelayMs?: number;
	timeoutMs?: number;
}

export interface WebhookEvent {
	id: string;
	event: string;
	created_at: number;
	data: { object: unknown };
}

/** What the sender saw of an answer, and what it made of it (sandbox/senders.js, sandbox/handshakes.js). */
export interface SenderView {
	/** null: no answer (see `error`). */
	status: number | null;
	/** The answer's Content-Type header, as sent (null: none). */
	contentType: string | null;
	/** The first 256 characters of the answer's body ('' for none). */
	body: string;
	/**
	 * The sender's verdict in a few words: `accepted`, `not accepted (HTTP 500)`, `no answer (…)`; Twilio
	 * `accepted: TwiML`, `accepted: 204 No Content`, `Twilio error 12300 Invalid Content-Type`, …; Adyen
	 * `accepted: [accepted]`, `accepted: 2xx without [accepted]`; a handshake's as the sender says it.
	 */
	verdict: string;
}

export interface DeliveryResult extends SenderView {
	eventId: string;
	/** The sender counts the event as delivered (senders.js: any 2xx, or what Twilio accepts). */
	ok: boolean;
	attempts: number;
	error?: string;
}

export interface AttemptLog extends SenderView {
	eventId: string;
	attempt: number;
	error?: string;
	at: string;
}

export type HandshakeName = 'slack-url-verification' | 'github-ping';

/** One registration: the handshake the scheme's sender makes, and whether the URL passed it. */
export interface RegistrationResult extends SenderView {
	scheme: SigningScheme;
	handshake: HandshakeName;
	/** How the sender names it: `Slack URL verification`, `GitHub ping`. */
	label: string;
	/** Slack: a 200 whose body is the challenge; GitHub: any 2xx. */
	ok: boolean;
	error?: string;
	at: string;
}

export type FaultAction =
	| { status: number; body?: unknown; headers?: Record<string, string>; contentType?: string; commit?: boolean }
	| { dropBeforeCommit: true }
	| { dropAfterCommit: true }
	| { delayMs: number }
	/** Accept the POST, hold the key "in progress" for this long (a retry meanwhile gets 409 idempotency_key_in_use), then commit. */
	| { commitDelayMs: number }
	/** Commit, then answer with the request (method, url, headers: the Api-Key too) added to the body. */
	| { echoRequest: true }
	/** Commit, send the headers, then the body `bytesPerTick` bytes every `intervalMs` (default 1 byte/s); `endless` adds spaces forever. */
	| { drip: { intervalMs?: number; bytesPerTick?: number; endless?: boolean } }
	/** Before commit: gzip-encoded JSON (`[`, spaces, `]`) of `inflatedMiB` MiB (default 1024, ~1 KiB per MiB on the wire); `endless` never ends. */
	| { gzipBomb: { inflatedMiB?: number; endless?: boolean }; status?: number }
	/** Park the request until releaseHeld(): before the service processes it, or after with commit: true. */
	| { hold: true; commit?: boolean }
	| { htmlError: number; headers?: Record<string, string>; commit?: boolean }
	| { rawBody: string | Buffer; repeat?: number; contentType?: string; status?: number; headers?: Record<string, string>; commit?: boolean }
	| { rawBodyBase64: string; repeat?: number; contentType?: string; status?: number; headers?: Record<string, string>; commit?: boolean };

export interface RandomFaults {
	seed?: number | string;
	p500?: number;
	pDropAfterCommit?: number;
	p429?: number;
	retryAfterSeconds?: number;
	pSlow?: number;
	slowMs?: number;
}

export interface FaultRule {
	method?: string;
	path?: string;
	times?: number;
	firstAttemptPerKey?: boolean;
	/** At most this many faults from this rule per Idempotency-Key (requests without a key are not limited). */
	maxPerKey?: number;
	probability?: number;
	seed?: number | string;
	action?: FaultAction;
	random?: RandomFaults;
}

export interface StatsSnapshot {
	requests: number;
	byRoute: Record<string, number>;
	records: number;
	distinctIdempotencyKeys: number;
	replays: number;
	conflicts: number;
	/** Drip-fed answers and gzip bombs the client closed before they were complete. */
	answersCutShort: number;
	/** POSTs accepted with a slow commit (`commitDelayMs`) and not committed yet. */
	postsInProgress: number;
	/** API requests being answered now (a closed connection ends one). */
	inFlight: number;
	/** The most API requests being answered at the same time since the last reset. */
	peakInFlight: number;
	faultsInjected: number;
	/** Requests the per-key token bucket refused with 429 (see `rateLimit`). */
	rateLimited: number;
	/** pending = events still being delivered (not reset by reset()) */
	deliveries: { attempts: number; succeeded: number; failed: number; pending: number };
}

/**
 * A token bucket per API key: `burst` requests at once, refilled at `perSecond`; beyond it 429 with
 * `Retry-After` (whole seconds, at least 1). `headers`: also send RateLimit-* (`'ietf'` or `true`) or
 * X-RateLimit-* with a Unix-time Reset (`'x'`) on every answer.
 */
export interface RateLimitOptions {
	perSecond: number;
	burst?: number;
	headers?: boolean | 'ietf' | 'x';
}

/** Delay before every /v1 answer: `fixedMs` plus up to `jitterMs` (seeded). */
export interface LatencyOptions {
	fixedMs?: number;
	jitterMs?: number;
}

export interface HeldRequest {
	id: number;
	method: string;
	path: string;
	idempotencyKey: string | null;
	/** Parsed JSON body (POSTs). */
	body?: unknown;
	heldAt: string;
	/** The service has processed it (record committed, replayed or refused); only the answer waits. */
	processed: boolean;
	recordId: string | null;
	/** The client closed the connection while the request was held. */
	clientGone: boolean;
}

export interface ReleaseOutcome {
	id: number;
	/** answered: sent to the client; discarded: client gone, never processed; clientGone: processed, answer undeliverable. */
	outcome: 'answered' | 'discarded' | 'clientGone';
}

export interface SandboxOptions {
	port?: number;
	host?: string;
	apiKey?: string;
	tenantId?: string;
	accounts?: number;
	/** Seeded, read-only records of GET /v1/transfers (cursor pages) and GET /v1/payouts (next links); default 0. */
	transfers?: number;
	payouts?: number;
	pagination?: PaginationMode;
	defaultPageSize?: number;
	maxPageSize?: number;
	webhook?: WebhookOptions | null;
	faults?: FaultRule[] | { random: RandomFaults } | { rules: FaultRule[] };
	maxBodyBytes?: number;
	rateLimit?: RateLimitOptions | null;
	latency?: LatencyOptions | null;
	log?: (line: string) => void;
}

export interface Sandbox {
	url: string;
	baseUrl: string;
	port: number;
	apiKey: string;
	tenantId: string;
	close(): Promise<void>;
	reset(): void;
	setFaults(rules: FaultRule[] | { random: RandomFaults } | { rules: FaultRule[] } | null): void;
	setPagination(mode: PaginationMode): void;
	/** Replaces the rate limit (buckets start full); null turns it off. */
	setRateLimit(cfg: RateLimitOptions | null): void;
	setLatency(cfg: LatencyOptions | null): void;
	/** The effective rate limit (null: none) and latency. */
	rateLimit(): { perSecond: number; burst: number; headers: 'ietf' | 'x' | null } | null;
	latency(): { fixedMs: number; jitterMs: number };
	configureWebhook(cfg: WebhookOptions | null): void;
	deliver(event?: string | Partial<WebhookEvent>, overrides?: WebhookOptions): Promise<DeliveryResult>;
	/** Register the webhook URL the way the scheme's sender does (slack, github); rejects for a scheme without a handshake. */
	register(overrides?: WebhookOptions): Promise<RegistrationResult>;
	stats(): StatsSnapshot;
	records(): CreatedRecord[];
	/** Recent delivery attempts (last 1000). */
	deliveries(): AttemptLog[];
	/** Resolves once no webhook delivery is in flight. */
	settle(): Promise<void>;
	/** The effective webhook configuration (defaults filled in). */
	webhookConfig(): Required<Omit<WebhookOptions, 'secret'>>;
	/** Requests held by the fault action `hold`, oldest first. */
	held(): HeldRequest[];
	/** Process held requests now (all when no ids) and keep holding their answers; returns the ids processed. */
	commitHeld(ids?: number[]): number[];
	/** Answer held requests whose client is still connected (all when no ids) and forget them. */
	releaseHeld(ids?: number[]): ReleaseOutcome[];
}

export declare function startSandbox(options?: SandboxOptions): Promise<Sandbox>;
