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

import { apiErrorText, describeHttpError, redactSecret } from './apiErrorMessage';
import type { ApiBase } from './apiUrl';
import { assertWithinBase, parseBaseUrl } from './apiUrl';
import { describeNetworkFailure, isAbortError, networkErrorCode } from './networkError';
import { decodeJsonBody } from './responseBody';
import type { RetryPolicy } from './retryPolicy';
import { isRetryableStatus, nextRetryDelayMs, parseRetryAfterMs } from './retryPolicy';

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
	/** Parsed JSON; undefined for an empty body. */
	body: unknown;
	attempts: number;
	replayed: boolean;
}

export interface ApiClientOptions {
	policy: RetryPolicy;
	timeoutMs: number;
}

/** One per execute() call: credentials are read and the base URL checked once. */
export class ApiClient {
	private constructor(
		private readonly fn: IExecuteFunctions,
		readonly base: ApiBase,
		private readonly options: ApiClientOptions,
		private readonly credentials: ICredentialDataDecryptedObject,
	) {}

	static async create(fn: IExecuteFunctions, options: ApiClientOptions): Promise<ApiClient> {
		const credentials = await fn.getCredentials(CREDENTIAL_TYPE);
		if (typeof credentials.secretKey !== 'string' || credentials.secretKey.trim() === '') {
			throw new NodeOperationError(fn.getNode(), 'The Tenant API credential has no Secret Key', {
				description: 'Open the credential and paste the Secret Key from the dashboard (Manage → Configure → API keys).',
			});
		}
		let base: ApiBase;
		try {
			base = parseBaseUrl(credentials.baseUrl);
		} catch (error) {
			throw new NodeOperationError(fn.getNode(), (error as Error).message, {
				description: 'Fix the Base URL in the Tenant API credential. Nothing was sent.',
			});
		}
		return new ApiClient(fn, base, options, credentials);
	}

	private get secret(): string {
		return this.credentials.secretKey as string;
	}

	private get environment(): string {
		return String(this.credentials.environment ?? 'sandbox');
	}

	get baseUrl(): string {
		return `${this.base.origin}${this.base.path}`;
	}

	/** Sends with retries on network errors, timeouts, 429 and 5xx; throws NodeApiError otherwise. */
	async send(request: ApiRequest, itemIndex: number): Promise<ApiResult> {
		assertWithinBase(this.base, request.url);
		const { policy } = this.options;
		for (let attempt = 1; ; attempt++) {
			let response: IN8nHttpFullResponse;
			try {
				response = (await this.fn.helpers.httpRequestWithAuthentication.call(
					this.fn,
					CREDENTIAL_TYPE,
					this.httpOptions(request),
					{ credentialsDecrypted: this.decryptedCredentials() },
				)) as IN8nHttpFullResponse;
			} catch (error) {
				const code = networkErrorCode(error);
				const delay = code && !isAbortError(error) ? nextRetryDelayMs(policy, attempt) : undefined;
				if (delay === undefined) throw this.transportError(error, code, request, attempt, itemIndex);
				await sleep(delay);
				continue;
			}
			const status = response.statusCode;
			if (isRetryableStatus(status)) {
				const delay = nextRetryDelayMs(policy, attempt, parseRetryAfterMs(response.headers['retry-after']));
				if (delay !== undefined) {
					await sleep(delay);
					continue;
				}
			}
			return this.finish(response, request, attempt, itemIndex);
		}
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
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// A redirect could carry the Api-Key header to another host.
			disableFollowRedirect: true,
			timeout: this.options.timeoutMs,
		};
	}

	private finish(response: IN8nHttpFullResponse, request: ApiRequest, attempts: number, itemIndex: number): ApiResult {
		const status = response.statusCode;
		const headers = response.headers as Record<string, unknown>;
		const decoded = decodeJsonBody(response.body, headers['content-type']);
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
		throw this.apiError(status, apiText.message ?? fallback, apiText.code, request, attempts, itemIndex);
	}

	private describe(request: ApiRequest) {
		return {
			method: request.method,
			path: new URL(request.url).pathname,
			baseUrl: this.baseUrl,
			environment: this.environment,
		};
	}

	private apiError(
		status: number,
		apiMessage: string | undefined,
		apiCode: string | undefined,
		request: ApiRequest,
		attempts: number,
		itemIndex: number,
	): NodeApiError {
		const safeApiMessage = apiMessage === undefined ? undefined : redactSecret(apiMessage, this.secret);
		const { message, description } = describeHttpError(status, safeApiMessage, this.describe(request));
		const retried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
		const details: JsonObject = {
			statusCode: status,
			method: request.method,
			path: new URL(request.url).pathname,
			attempts,
			...(apiCode ? { apiErrorCode: apiCode } : {}),
			...(safeApiMessage ? { apiErrorMessage: safeApiMessage } : {}),
			...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
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
		const where = `${request.method} ${new URL(request.url).pathname}`;
		// Codes stay out of the message: n8n replaces messages that contain them with generic text.
		const reason = code
			? describeNetworkFailure(code, this.options.timeoutMs)
			: redactSecret(String((error as Error)?.message ?? error), this.secret);
		const details: JsonObject = {
			method: request.method,
			path: new URL(request.url).pathname,
			attempts,
			...(code ? { networkErrorCode: code } : {}),
			...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
		};
		return new NodeApiError(this.fn.getNode(), details, {
			message: `Could not reach the API: ${reason} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`,
			description: `${where} at ${this.baseUrl}. ${
				code === 'ECONNREFUSED' || code === 'EAI_AGAIN'
					? 'The request did not reach the API.'
					: request.idempotencyKey
						? `The request may or may not have been applied; retrying with Idempotency-Key ${request.idempotencyKey} is safe.`
						: ''
			}`.trim(),
			itemIndex,
		});
	}
}
