import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { TENANT_API_CREDENTIAL } from '../../../credentials/credentialTypes';
import type { ApiBase } from './apiUrl';
import { checkWithinBase, parseBaseUrl } from './apiUrl';
import { DeadlineWatch } from './deadline';
import type { FailedSend } from './errors';
import {
	answerFailure,
	apiErrorText,
	asFailure,
	networkFailure,
	rateLimitFailure,
	TenantApiFailure,
} from './errors';
import type { RawAnswer } from './exchange';
import { exchange } from './exchange';
import type { RateSignal } from './rateLimit/governor';
import { governorFor } from './rateLimit/governors';
import { readRateLimitHeaders } from './rateLimit/headers';
import type { RateLimitWaitExceeded, RunLimitSettings } from './rateLimit/runLimiter';
import { RunLimiter } from './rateLimit/runLimiter';
import type { DecodedBody } from './responseBody';
import { decodeJsonBody } from './responseBody';
import type { RetryPolicy } from './retryPolicy';
import {
	isAbortError,
	isInProgressAnswer,
	isRetryableStatus,
	MAX_RETRY_DELAY_MS,
	networkErrorCode,
	nextRetryDelayMs,
	parseRetryAfterMs,
} from './retryPolicy';
import { keySpellings, redactText } from './secretRedaction';
import { checkTenantId } from './tenantId';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Absolute URL, already confined below the base URL. */
	url: string;
	qs?: IDataObject;
	/** Serialized once, so every retry sends the same bytes. */
	jsonBody?: string;
	idempotencyKey?: string;
}

export interface ApiResult {
	statusCode: number;
	/** Parsed JSON without the Secret Key; undefined for an empty body. */
	body: unknown;
	attempts: number;
	replayed: boolean;
}

export interface ApiClientOptions {
	policy: RetryPolicy;
	/** For one attempt as a whole: connecting, sending, and reading the answer to its last byte. */
	timeoutMs: number;
	/** Max Requests per Second and Max Rate-Limit Wait. */
	rateLimit: Pick<RunLimitSettings, 'maxRequestsPerSecond' | 'maxWaitMs'>;
}

/** Date.now and n8n's sleep: nodes may not set timers themselves. */
const n8nClock = { now: () => Date.now(), sleep: async (ms: number) => await sleep(ms) };

/** One attempt: an answer read in full (and decoded), or a failure before that. */
type Attempt =
	| { answer: RawAnswer; decoded: DecodedBody }
	| { failure: unknown; code: string | undefined };

function checkCredentialField<T>(field: string, check: () => T): T {
	return asFailure(
		undefined,
		check,
		`Fix the ${field} in the Tenant API credential. Nothing was sent.`,
	);
}

/**
 * One per execute() call: credentials are read and the base URL checked once. The rate limit is the
 * API key's, shared with every other run in the process (transport/rateLimit, docs/rate-limits.md).
 */
export class ApiClient {
	private readonly spellings: RegExp | undefined;
	private readonly limiter: RunLimiter;
	private readonly deadlines: DeadlineWatch;
	/**
	 * The credential read in create(), handed to n8n's helper so that it does not read it again for
	 * every request: in n8n that is a database query, a decryption and an expression pass per request
	 * and retry. A copy of its own: the helper may add refreshed values to it (expiring credentials;
	 * this one has none).
	 */
	private readonly decryptedCredentials: ICredentialsDecrypted;

	private constructor(
		private readonly fn: IExecuteFunctions,
		readonly base: ApiBase,
		private readonly options: ApiClientOptions,
		private readonly credentials: ICredentialDataDecryptedObject,
	) {
		this.spellings = keySpellings(this.credentials.secretKey as string);
		const { policy, rateLimit } = options;
		const governor = governorFor(base.origin, this.credentials.secretKey as string);
		this.limiter = new RunLimiter(
			governor,
			{ ...rateLimit, basePauseMs: policy.baseDelayMs, maxPauseMs: MAX_RETRY_DELAY_MS },
			n8nClock,
		);
		this.deadlines = new DeadlineWatch(options.timeoutMs);
		// Read once: n8n's getNode() deep-copies the node on every call.
		const reference = fn.getNode().credentials?.[TENANT_API_CREDENTIAL];
		this.decryptedCredentials = {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: TENANT_API_CREDENTIAL,
			data: { ...credentials },
		};
	}

	/** Call when the run is over: stops the timer that watches the exchanges' deadlines. */
	dispose(): void {
		this.deadlines.dispose();
	}

	static async create(fn: IExecuteFunctions, options: ApiClientOptions): Promise<ApiClient> {
		const credentials = await fn.getCredentials(TENANT_API_CREDENTIAL);
		if (typeof credentials.secretKey !== 'string' || credentials.secretKey.trim() === '') {
			throw new TenantApiFailure('The Tenant API credential has no Secret Key', {
				description:
					'Open the credential and paste the Secret Key from the dashboard (Manage → Configure → API keys).',
			});
		}
		const base = checkCredentialField('Base URL', () => parseBaseUrl(credentials.baseUrl));
		checkCredentialField('Tenant ID', () => checkTenantId(credentials.tenantId));
		return new ApiClient(fn, base, options, credentials);
	}

	/**
	 * Sends with retries on network errors, timeouts, 5xx and "still in progress" answers (up to Max
	 * Attempts), and on 429 (until the run's rate-limit wait is used up), always with the same bytes
	 * and Idempotency-Key; throws a TenantApiFailure otherwise.
	 */
	async send(request: ApiRequest, itemIndex: number): Promise<ApiResult> {
		checkWithinBase(this.base, request.url);
		let sent = 0;
		let failures = 0;
		let refusedInARow = 0;
		let mayHaveApplied = false;
		// Waits under the rate limit, which fails only once Max Rate-Limit Wait is used up.
		const rateLimited = async <T>(wait: () => Promise<T>): Promise<T> => {
			try {
				return await wait();
			} catch (error) {
				const exceeded = error as RateLimitWaitExceeded;
				throw rateLimitFailure(this.failedSend(request, sent, itemIndex), exceeded, mayHaveApplied);
			}
		};
		for (;;) {
			const ticket = await rateLimited(async () => await this.limiter.acquire(sent > 0));
			const outcome = await this.attempt(request);
			sent++;
			const signal = this.rateSignal(outcome);
			this.limiter.release(ticket, signal);
			// The API asked to slow down: this request waits, the others go on; it is not a failed
			// attempt.
			if (signal.kind === 'limited') {
				const [retryAfterMs, refused] = [signal.retryAfterMs, ++refusedInARow];
				await rateLimited(async () => await this.limiter.waitOut(retryAfterMs, refused));
				continue;
			}
			refusedInARow = 0;
			const delay = this.retryDelay(outcome, ++failures);
			if (delay === undefined) return this.settle(outcome, request, sent, itemIndex);
			mayHaveApplied = true;
			await sleep(delay);
		}
	}

	private rateSignal(outcome: Attempt): RateSignal {
		if ('failure' in outcome) return { kind: 'unanswered' };
		const { statusCode, headers } = outcome.answer;
		const info = readRateLimitHeaders(headers, Date.now());
		if (statusCode !== 429) return { kind: 'accepted', info };
		return { kind: 'limited', retryAfterMs: parseRetryAfterMs(headers['retry-after']), info };
	}

	private async attempt(request: ApiRequest): Promise<Attempt> {
		try {
			const answer = await exchange(
				async () =>
					(await this.fn.helpers.httpRequestWithAuthentication.call(
						this.fn,
						TENANT_API_CREDENTIAL,
						this.httpOptions(request),
						{ credentialsDecrypted: this.decryptedCredentials },
					)) as IN8nHttpFullResponse,
				this.deadlines,
			);
			const decoded: DecodedBody = answer.body.ok
				? decodeJsonBody(answer.body.bytes, answer.headers['content-type'], this.spellings)
				: answer.body;
			return { answer, decoded };
		} catch (error) {
			return { failure: error, code: networkErrorCode(error) };
		}
	}

	/** Milliseconds to wait before the next attempt, or undefined when this outcome is final. */
	private retryDelay(outcome: Attempt, failedAttempts: number): number | undefined {
		const { policy } = this.options;
		if ('failure' in outcome) {
			return outcome.code && !isAbortError(outcome.failure)
				? nextRetryDelayMs(policy, failedAttempts)
				: undefined;
		}
		const { statusCode, headers } = outcome.answer;
		if (statusCode < 400 || (!isRetryableStatus(statusCode) && !this.isInProgress(outcome)))
			return undefined;
		return nextRetryDelayMs(policy, failedAttempts, parseRetryAfterMs(headers['retry-after']));
	}

	private isInProgress(outcome: { answer: RawAnswer; decoded: DecodedBody }): boolean {
		const apiText = outcome.decoded.ok ? apiErrorText(outcome.decoded.value) : {};
		return isInProgressAnswer(this.options.policy.inProgress, outcome.answer.statusCode, apiText);
	}

	private httpOptions(request: ApiRequest): IHttpRequestOptions {
		const headers: IDataObject = { Accept: 'application/json' };
		if (request.idempotencyKey !== undefined) headers['Idempotency-Key'] = request.idempotencyKey;
		if (request.jsonBody !== undefined) headers['Content-Type'] = 'application/json';
		return {
			method: request.method,
			url: request.url,
			qs: request.qs,
			headers,
			body: request.jsonBody,
			// A stream, so that the node bounds the reading of the body in time and size (see
			// exchange.ts).
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// A redirect could carry the Api-Key header to another host.
			disableFollowRedirect: true,
			timeout: this.options.timeoutMs,
		};
	}

	private settle(
		outcome: Attempt,
		request: ApiRequest,
		attempts: number,
		itemIndex: number,
	): ApiResult {
		const failed = () => this.failedSend(request, attempts, itemIndex);
		if ('failure' in outcome)
			throw networkFailure(failed(), outcome.failure, outcome.code, this.options.timeoutMs);
		const { answer, decoded } = outcome;
		const { statusCode: status, headers } = answer;
		if (status >= 200 && status < 300) {
			if (!decoded.ok) throw answerFailure(failed(), status, { message: decoded.reason });
			return {
				statusCode: status,
				body: decoded.value,
				attempts,
				replayed: String(headers['idempotent-replayed'] ?? '').toLowerCase() === 'true',
			};
		}
		if (status >= 300 && status < 400) {
			const location = typeof headers.location === 'string' ? headers.location : 'another address';
			throw answerFailure(failed(), status, {
				message: `The API answered with a redirect to ${location}, which is not followed so that the API key never goes elsewhere`,
			});
		}
		const apiText = decoded.ok ? apiErrorText(decoded.value) : {};
		const message = apiText.message ?? (decoded.ok ? undefined : decoded.reason);
		throw answerFailure(
			failed(),
			status,
			{ code: apiText.code, message },
			this.isInProgress(outcome),
		);
	}

	/** What the failure of `request` names: its method and path, the item, attempts, the Base URL. */
	private failedSend(request: ApiRequest, attempts: number, itemIndex: number): FailedSend {
		return {
			request: {
				method: request.method,
				path: new URL(request.url).pathname,
				idempotencyKey: request.idempotencyKey,
			},
			itemIndex,
			attempts,
			baseUrl: `${this.base.origin}${this.base.path}`,
			environment: String(this.credentials.environment ?? 'sandbox'),
			redact: (text) => redactText(text, this.spellings),
		};
	}
}
