/**
 * The action node's failures. Inside the node, every failure it makes is a TenantApiFailure, with
 * typed fields for what the rest of the node reads back: whether the request took effect, its
 * Idempotency-Key, its attempts and the answer's status. It becomes the NodeApiError (the API was
 * asked) or NodeOperationError that n8n shows in one place, nodeError(), where it leaves the node:
 * thrown from execute() or made an error item. The texts are quoted word for word in docs/errors.md
 * and docs/bad-input.md.
 */
import type { IExecuteFunctions, JsonObject, NodeError } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { RateLimitWaitExceeded } from './rateLimit/runLimiter';

/** Whether the request took effect at the API, as far as the node can tell; shown with errors. */
export type Applied = 'yes' | 'no' | 'unknown';

/** A request as its failure shows it: never a query string, never headers. */
export interface FailedRequest {
	method: string;
	/** Path below the origin, e.g. /v1/transfers. */
	path: string;
	idempotencyKey?: string;
}

/** What a failure says besides its message; all optional. */
type FailureFields = Partial<
	Pick<
		TenantApiFailure,
		'itemIndex' | 'description' | 'request' | 'applied' | 'attempts' | 'httpCode' | 'details'
	>
>;

export class TenantApiFailure extends Error {
	/** Undefined: the failure belongs to no item (the credential). */
	readonly itemIndex: number | undefined;
	/** What n8n shows under the message; later steps may add to it (addToDescription). */
	description: string | undefined;
	/** The request, when the API was asked (or its rate limit held it back): a NodeApiError. */
	readonly request: FailedRequest | undefined;
	/** 'no' for a failure before sending. */
	readonly applied: Applied;
	/** How many times the request was sent; 0 when it was not. */
	readonly attempts: number;
	/** The status the API answered (429 when its rate limit needed more waiting than allowed). */
	readonly httpCode: number | undefined;
	/** For the error's details: the API's own code and message, the network error code, the wait. */
	readonly details: JsonObject;

	constructor(message: string, fields: FailureFields = {}) {
		super(message);
		this.name = 'TenantApiFailure';
		this.itemIndex = fields.itemIndex;
		this.description = fields.description;
		this.request = fields.request;
		this.applied = fields.applied ?? 'no';
		this.attempts = fields.attempts ?? 0;
		this.httpCode = fields.httpCode;
		this.details = fields.details ?? {};
	}

	get idempotencyKey(): string | undefined {
		return this.request?.idempotencyKey;
	}
}

/** Adds a sentence to what n8n shows under the message, of a failure or of n8n's error. */
export function addToDescription(target: { description?: string | null }, sentence: string): void {
	target.description = target.description ? `${target.description} ${sentence}` : sentence;
}

/**
 * Runs a step that throws plain Errors (URL rules, body parsing, pagination reading, option and
 * credential checks) and makes what it throws the failure of the item, so the user sees the message
 * on the right item.
 */
export function asFailure<T>(
	itemIndex: number | undefined,
	step: () => T,
	description?: string,
): T {
	let thrown: Error;
	try {
		return step();
	} catch (error) {
		thrown = error as Error;
	}
	throw new TenantApiFailure(thrown.message, { itemIndex, description });
}

/** n8n's own errors (from any copy of n8n-workflow) carry the node. */
function isNodeError(error: Error): error is NodeError {
	return error instanceof NodeOperationError || 'node' in error;
}

/**
 * The error n8n gets: a failure becomes a NodeApiError when the API was asked, else a
 * NodeOperationError; n8n's own errors stay as they are; anything else becomes a NodeOperationError
 * of `itemIndex`.
 */
export function nodeError(fn: IExecuteFunctions, error: Error, itemIndex?: number): NodeError {
	if (!(error instanceof TenantApiFailure))
		return isNodeError(error) ? error : new NodeOperationError(fn.getNode(), error, { itemIndex });
	const { request, httpCode } = error;
	if (!request)
		return new NodeOperationError(fn.getNode(), error.message, {
			itemIndex: error.itemIndex,
			description: error.description,
		});
	const details: JsonObject = {
		...(httpCode === undefined ? {} : { statusCode: httpCode }),
		method: request.method,
		path: request.path,
		attempts: error.attempts,
		...error.details,
		...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
		applied: error.applied,
	};
	return new NodeApiError(fn.getNode(), details, {
		message: error.message,
		description: error.description,
		...(httpCode === undefined ? {} : { httpCode: String(httpCode) }),
		itemIndex: error.itemIndex,
	});
}

/** A failed request and what its failure's text names besides it (filled in by the API client). */
export interface FailedSend {
	request: FailedRequest;
	itemIndex: number;
	/** How many times it was sent. */
	attempts: number;
	baseUrl: string;
	environment: string;
	/** Removes the Secret Key from text the API or the network gave. */
	redact(text: string): string;
}

/** The API's own message, from the usual error body shapes. */
export function apiErrorText(body: unknown): { code?: string; message?: string } {
	if (!body || typeof body !== 'object') return {};
	const record = body as Record<string, unknown>;
	const nested = record.error;
	if (typeof nested === 'string') return { message: nested };
	if (nested && typeof nested === 'object') {
		const error = nested as Record<string, unknown>;
		return {
			code: typeof error.code === 'string' ? error.code : undefined,
			message: typeof error.message === 'string' ? error.message : undefined,
		};
	}
	const errors = Array.isArray(record.errors)
		? (record.errors[0] as Record<string, unknown> | undefined)
		: undefined;
	const message = [record.message, record.detail, record.title, errors?.message].find(
		(candidate): candidate is string => typeof candidate === 'string' && candidate !== '',
	);
	return { code: typeof record.code === 'string' ? record.code : undefined, message };
}

const ENVIRONMENT_LABEL: Record<string, string> = { sandbox: 'Sandbox', live: 'Live' };

/** Human messages for HTTP answers the node cannot use, from the status and the API's message. */
function describeHttpError(
	status: number,
	apiMessage: string | undefined,
	{ request, baseUrl, environment: environmentName }: FailedSend,
	inProgress: boolean,
): { message: string; description: string } {
	const environment = ENVIRONMENT_LABEL[environmentName] ?? environmentName;
	const where = `${request.method} ${request.path}`;
	const said = apiMessage ? `: ${apiMessage}` : '';
	const keyed = request.idempotencyKey ? ` with Idempotency-Key ${request.idempotencyKey}` : '';
	if (inProgress) {
		return {
			message: `The API is still processing an earlier request with this Idempotency-Key (${status})${said}`,
			description: `${where}${keyed} may already have been applied and is still being processed. Do not send it under a new key: that could apply it twice. Run it again later with the same key (Retry On Fail, or a business key in Options → Idempotency Key) to get its result.`,
		};
	}
	if (status >= 200 && status < 300) {
		return {
			message: `The API accepted the request (${status}), but its answer could not be read${said}`,
			description:
				request.method === 'GET'
					? `${where} at ${baseUrl} (${environment}).`
					: `${where} was applied. Do not send it again under a new Idempotency-Key; a retry with the same key gets the stored answer.`,
		};
	}
	switch (status) {
		case 401:
			return {
				message: `Authorization failed (401)${said}`,
				description: `The ${environment} Secret Key in the credential was not accepted by ${baseUrl}. Check that the credential holds the Secret Key (not the Public Key) of the ${environment} environment, that the Base URL belongs to that environment, and that the key was not rotated in the dashboard.`,
			};
		case 403:
			return {
				message: `Forbidden (403)${said}`,
				description: `${where} was refused. Check the Tenant ID in the credential and that the key may use this endpoint.`,
			};
		case 404:
			return {
				message: `Not found (404)${said}`,
				description: `${where} does not exist at ${baseUrl}. Check the endpoint path.`,
			};
		case 409:
			return {
				message: `Conflict (409)${said}`,
				description: `${where} conflicts with an earlier request${keyed}. If the API says the key was already used with a different request, that earlier request was applied: do not send this one again under a new key unless it is a different operation (check that the body is built the same way on every run).`,
			};
		case 431:
			return {
				message: `The API refused the request headers as too large (431)${said}`,
				description: `${where} was not processed. Check the Tenant ID in the credential: it is sent as the x-tenant-id header.`,
			};
		case 422:
		case 400:
			return {
				message: `The API rejected the request (${status})${said}`,
				description: `Check the body sent to ${where}.`,
			};
		default:
			return {
				message: `The API answered ${status}${said}`,
				description: `${where} at ${baseUrl} (${environment}).`,
			};
	}
}

/**
 * An answer the node cannot use: an error status, a redirect (never followed), a 2xx it could not
 * read. `said` is what the API (or the reading of its answer) said; `inProgress`: an earlier
 * request with the key is still running.
 */
export function answerFailure(
	sent: FailedSend,
	status: number,
	said: { code?: string; message?: string },
	inProgress = false,
): TenantApiFailure {
	const { request, attempts } = sent;
	const apiMessage = said.message === undefined ? undefined : sent.redact(said.message);
	const { message, description } = describeHttpError(status, apiMessage, sent, inProgress);
	const retried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	return new TenantApiFailure(`${message}${retried}`, {
		itemIndex: sent.itemIndex,
		description,
		request,
		applied: status < 300 ? 'yes' : inProgress || status >= 500 ? 'unknown' : 'no',
		attempts,
		httpCode: status,
		details: {
			...(said.code ? { apiErrorCode: sent.redact(said.code) } : {}),
			...(apiMessage ? { apiErrorMessage: apiMessage } : {}),
		},
	});
}

const TIMEOUT_CODES = ['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_CONNECTION_TIMEOUT'];
const NETWORK_REASONS = new Map([
	['ECONNREFUSED', 'the connection was refused'],
	['EAI_AGAIN', 'the host name could not be resolved'],
	['ENETUNREACH', 'the network or host is unreachable'],
	['EHOSTUNREACH', 'the network or host is unreachable'],
]);

function describeNetworkFailure(code: string, timeoutMs: number): string {
	if (TIMEOUT_CODES.includes(code)) return `no complete answer within ${timeoutMs} ms`;
	return NETWORK_REASONS.get(code) ?? 'the connection closed before an answer arrived';
}

/** No answer: `code` is the network error code (retryPolicy.ts networkErrorCode), if it has one. */
export function networkFailure(
	sent: FailedSend,
	error: unknown,
	code: string | undefined,
	timeoutMs: number,
): TenantApiFailure {
	const { request, attempts } = sent;
	const reached = code !== 'ECONNREFUSED' && code !== 'EAI_AGAIN';
	// Codes stay out of the message: n8n replaces messages that contain them with generic text.
	const reason = code
		? describeNetworkFailure(code, timeoutMs)
		: sent.redact(String((error as Error)?.message ?? error));
	return new TenantApiFailure(
		`Could not reach the API: ${reason} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`,
		{
			itemIndex: sent.itemIndex,
			description: `${request.method} ${request.path} at ${sent.baseUrl}. ${
				!reached
					? 'The request did not reach the API.'
					: request.idempotencyKey
						? `The request may or may not have been applied; retrying with Idempotency-Key ${request.idempotencyKey} is safe.`
						: ''
			}`.trim(),
			request,
			applied: reached ? 'unknown' : 'no',
			attempts,
			details: code ? { networkErrorCode: code } : {},
		},
	);
}

/** The API's rate limit needed more waiting than Max Rate-Limit Wait allows; attempts may be 0. */
export function rateLimitFailure(
	sent: FailedSend,
	exceeded: RateLimitWaitExceeded,
	mayHaveApplied: boolean,
): TenantApiFailure {
	const { request, attempts } = sent;
	const sentText =
		attempts === 0
			? 'This item was not sent.'
			: `This item was sent ${attempts} time${attempts === 1 ? '' : 's'} and refused with 429.`;
	return new TenantApiFailure(
		`The API's rate limit needs more waiting than this run allows (429): ${exceeded.message}`,
		{
			itemIndex: sent.itemIndex,
			description: `${request.method} ${request.path} at ${sent.baseUrl}. ${sentText} Raise Options → Max Rate-Limit Wait, lower Options → Max Requests per Second or Concurrency, or run fewer items at a time.${
				request.idempotencyKey && mayHaveApplied
					? ` Retrying with Idempotency-Key ${request.idempotencyKey} is safe.`
					: ''
			}`,
			request,
			applied: mayHaveApplied ? 'unknown' : 'no',
			attempts,
			httpCode: 429,
			details: { rateLimitWaitedSeconds: Math.round(exceeded.waitedMs / 1000) },
		},
	);
}
