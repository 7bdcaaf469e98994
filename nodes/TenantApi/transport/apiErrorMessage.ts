/** Human messages for HTTP error answers, built from the status and the API's own error body. */

export interface RequestDescription {
	method: string;
	/** Path below the origin, e.g. /v1/transfers (never a query with secrets, never headers). */
	path: string;
	baseUrl: string;
	environment: string;
	idempotencyKey?: string;
	/** The answer says an earlier request with the same Idempotency-Key is still being processed. */
	inProgress?: boolean;
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
	const errors = Array.isArray(record.errors) ? (record.errors[0] as Record<string, unknown> | undefined) : undefined;
	const message = [record.message, record.detail, record.title, errors?.message].find(
		(candidate): candidate is string => typeof candidate === 'string' && candidate !== '',
	);
	return { code: typeof record.code === 'string' ? record.code : undefined, message };
}

const ENVIRONMENT_LABEL: Record<string, string> = { sandbox: 'Sandbox', live: 'Live' };

export function describeHttpError(
	status: number,
	apiMessage: string | undefined,
	request: RequestDescription,
): { message: string; description: string } {
	const environment = ENVIRONMENT_LABEL[request.environment] ?? request.environment;
	const where = `${request.method} ${request.path}`;
	const said = apiMessage ? `: ${apiMessage}` : '';
	const keyed = request.idempotencyKey ? ` with Idempotency-Key ${request.idempotencyKey}` : '';
	if (request.inProgress) {
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
					? `${where} at ${request.baseUrl} (${environment}).`
					: `${where} was applied. Do not send it again under a new Idempotency-Key; a retry with the same key gets the stored answer.`,
		};
	}
	switch (status) {
		case 401:
			return {
				message: `Authorization failed (401)${said}`,
				description: `The ${environment} Secret Key in the credential was not accepted by ${request.baseUrl}. Check that the credential holds the Secret Key (not the Public Key) of the ${environment} environment, that the Base URL belongs to that environment, and that the key was not rotated in the dashboard.`,
			};
		case 403:
			return {
				message: `Forbidden (403)${said}`,
				description: `${where} was refused. Check the Tenant ID in the credential and that the key may use this endpoint.`,
			};
		case 404:
			return {
				message: `Not found (404)${said}`,
				description: `${where} does not exist at ${request.baseUrl}. Check the endpoint path.`,
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
				description: `${where} at ${request.baseUrl} (${environment}).`,
			};
	}
}
