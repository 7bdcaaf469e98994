import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiErrorText, describeHttpError } from './apiErrorMessage';
import type { ApiBase } from './apiUrl';
import { assertWithinBase, parseBaseUrl } from './apiUrl';
import type { RawAnswer } from './exchange';
import { exchange } from './exchange';
import { describeNetworkFailure, isAbortError, networkErrorCode } from './networkError';
import type { DecodedBody } from './responseBody';
import { decodeJsonBody } from './responseBody';
import type { RetryPolicy } from './retryPolicy';
import { isInProgressAnswer, isRetryableStatus, nextRetryDelayMs, parseRetryAfterMs } from './retryPolicy';
import { redactText, secretForms } from './secretRedaction';
import { checkTenantId } from './tenantId';

export const CREDENTIAL_TYPE = 'tenantApi';

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
	headers: Record<string, unknown>;
	/** Parsed JSON without the Secret Key; undefined for an empty body. */
	body: unknown;
	attempts: number;
	replayed: boolean;
}

export interface ApiClientOptions {
	policy: RetryPolicy;
	/** For one attempt as a whole: connecting, sending, and reading the answer to its last byte. */
	timeoutMs: number;
}

/** Whether the request took effect at the API, as far as the client can tell; shown with errors. */
export type Applied = 'yes' | 'no' | 'unknown';

/** One attempt: an answer read in full (and decoded), or a failure before that. */
type Attempt = { answer: RawAnswer; decoded: DecodedBody } | { failure: unknown; code: string | undefined };

function checkCredentialField<T>(fn: IExecuteFunctions, field: string, check: () => T): T {
	try {
		return check();
	} catch (error) {
		throw new NodeOperationError(fn.getNode(), (error as Error).message, {
			description: `Fix the ${field} in the Tenant API credential. Nothing was sent.`,
		});
	}
}

/** One per execute() call: credentials are read and the base URL checked once. */
export class ApiClient {
	private readonly secretForms: string[];

	private constructor(
		private readonly fn: IExecuteFunctions,
		readonly base: ApiBase,
		private readonly options: ApiClientOptions,
		private readonly credentials: ICredentialDataDecryptedObject,
	) {
		this.secretForms = secretForms(this.credentials.secretKey as string);
	}

	static async create(fn: IExecuteFunctions, options: ApiClientOptions): Promise<ApiClient> {
		const credentials = await fn.getCredentials(CREDENTIAL_TYPE);
		if (typeof credentials.secretKey !== 'string' || credentials.secretKey.trim() === '') {
			throw new NodeOperationError(fn.getNode(), 'The Tenant API credential has no Secret Key', {
				description: 'Open the credential and paste the Secret Key from the dashboard (Manage → Configure → API keys).',
			});
		}
		const base = checkCredentialField(fn, 'Base URL', () => parseBaseUrl(credentials.baseUrl));
		checkCredentialField(fn, 'Tenant ID', () => checkTenantId(credentials.tenantId));
		return new ApiClient(fn, base, options, credentials);
	}

	private get environment(): string {
		return String(this.credentials.environment ?? 'sandbox');
	}

	get baseUrl(): string {
		return `${this.base.origin}${this.base.path}`;
	}

	/**
	 * Sends with retries on network errors, timeouts, 429, 5xx and "still in progress" answers, always
	 * with the same bytes and Idempotency-Key; throws NodeApiError otherwise.
	 */
	async send(request: ApiRequest, itemIndex: number): Promise<ApiResult> {
		assertWithinBase(this.base, request.url);
		for (let attempt = 1; ; attempt++) {
			const outcome = await this.attempt(request);
			const delay = this.retryDelay(outcome, attempt);
			if (delay === undefined) return this.settle(outcome, request, attempt, itemIndex);
			await sleep(delay);
		}
	}

	private async attempt(request: ApiRequest): Promise<Attempt> {
		try {
			const answer = await exchange(
				async () =>
					(await this.fn.helpers.httpRequestWithAuthentication.call(this.fn, CREDENTIAL_TYPE, this.httpOptions(request), {
						credentialsDecrypted: this.decryptedCredentials(),
					})) as IN8nHttpFullResponse,
				this.options.timeoutMs,
			);
			const decoded: DecodedBody = answer.body.ok
				? decodeJsonBody(answer.body.bytes, answer.headers['content-type'], this.secretForms)
				: answer.body;
			return { answer, decoded };
		} catch (error) {
			return { failure: error, code: networkErrorCode(error) };
		}
	}

	/** Milliseconds to wait before the next attempt, or undefined when this outcome is final. */
	private retryDelay(outcome: Attempt, attempt: number): number | undefined {
		const { policy } = this.options;
		if ('failure' in outcome) {
			return outcome.code && !isAbortError(outcome.failure) ? nextRetryDelayMs(policy, attempt) : undefined;
		}
		const { statusCode, headers } = outcome.answer;
		if (!isRetryableStatus(statusCode) && !this.isInProgress(outcome)) return undefined;
		return nextRetryDelayMs(policy, attempt, parseRetryAfterMs(headers['retry-after']));
	}

	private isInProgress(outcome: { answer: RawAnswer; decoded: DecodedBody }): boolean {
		const apiText = outcome.decoded.ok ? apiErrorText(outcome.decoded.value) : {};
		return isInProgressAnswer(this.options.policy.inProgress, outcome.answer.statusCode, apiText);
	}

	/**
	 * The credential read in create(), handed to n8n's helper so that it does not read it again for every
	 * request: in n8n that is a database query, a decryption and an expression pass per request and retry.
	 * A copy each time, as the helper may add refreshed values to it.
	 */
	private decryptedCredentials(): ICredentialsDecrypted {
		const reference = this.fn.getNode().credentials?.[CREDENTIAL_TYPE];
		return { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data: { ...this.credentials } };
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
			// A stream, so that the node bounds the reading of the body in time and size (see exchange.ts).
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// A redirect could carry the Api-Key header to another host.
			disableFollowRedirect: true,
			timeout: this.options.timeoutMs,
		};
	}

	private settle(outcome: Attempt, request: ApiRequest, attempts: number, itemIndex: number): ApiResult {
		if ('failure' in outcome) throw this.transportError(outcome.failure, outcome.code, request, attempts, itemIndex);
		const { answer, decoded } = outcome;
		const { statusCode: status, headers } = answer;
		if (status >= 200 && status < 300) {
			if (!decoded.ok) throw this.apiError(status, decoded.reason, undefined, request, attempts, itemIndex);
			return {
				statusCode: status,
				headers,
				body: decoded.value,
				attempts,
				replayed: String(headers['idempotent-replayed'] ?? '').toLowerCase() === 'true',
			};
		}
		if (status >= 300 && status < 400) {
			const location = typeof headers.location === 'string' ? headers.location : 'another address';
			throw this.apiError(
				status,
				`The API answered with a redirect to ${location}, which is not followed so that the API key never goes elsewhere`,
				undefined,
				request,
				attempts,
				itemIndex,
			);
		}
		const apiText = decoded.ok ? apiErrorText(decoded.value) : {};
		const fallback = decoded.ok ? undefined : decoded.reason;
		const inProgress = this.isInProgress(outcome);
		throw this.apiError(status, apiText.message ?? fallback, apiText.code, request, attempts, itemIndex, inProgress);
	}

	private redact(text: string): string {
		return redactText(text, this.secretForms);
	}

	private apiError(
		status: number,
		apiMessage: string | undefined,
		apiCode: string | undefined,
		request: ApiRequest,
		attempts: number,
		itemIndex: number,
		inProgress = false,
	): NodeApiError {
		const safeApiMessage = apiMessage === undefined ? undefined : this.redact(apiMessage);
		const path = new URL(request.url).pathname;
		const { message, description } = describeHttpError(status, safeApiMessage, {
			method: request.method,
			path,
			baseUrl: this.baseUrl,
			environment: this.environment,
			idempotencyKey: request.idempotencyKey,
			inProgress,
		});
		const retried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
		const applied: Applied = status < 300 ? 'yes' : inProgress || status >= 500 ? 'unknown' : 'no';
		const details: JsonObject = {
			statusCode: status,
			method: request.method,
			path,
			attempts,
			...(apiCode ? { apiErrorCode: this.redact(apiCode) } : {}),
			...(safeApiMessage ? { apiErrorMessage: safeApiMessage } : {}),
			...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
			applied,
		};
		return new NodeApiError(this.fn.getNode(), details, {
			message: `${message}${retried}`,
			description,
			httpCode: String(status),
			itemIndex,
		});
	}

	private transportError(
		error: unknown,
		code: string | undefined,
		request: ApiRequest,
		attempts: number,
		itemIndex: number,
	): NodeApiError {
		const path = new URL(request.url).pathname;
		const where = `${request.method} ${path}`;
		const reached = code !== 'ECONNREFUSED' && code !== 'EAI_AGAIN';
		// Codes stay out of the message: n8n replaces messages that contain them with generic text.
		const reason = code ? describeNetworkFailure(code, this.options.timeoutMs) : this.redact(String((error as Error)?.message ?? error));
		const details: JsonObject = {
			method: request.method,
			path,
			attempts,
			...(code ? { networkErrorCode: code } : {}),
			...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
			applied: reached ? 'unknown' : 'no',
		};
		return new NodeApiError(this.fn.getNode(), details, {
			message: `Could not reach the API: ${reason} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`,
			description: `${where} at ${this.baseUrl}. ${
				!reached
					? 'The request did not reach the API.'
					: request.idempotencyKey
						? `The request may or may not have been applied; retrying with Idempotency-Key ${request.idempotencyKey} is safe.`
						: ''
			}`.trim(),
			itemIndex,
		});
	}
}
