/** Human messages for HTTP error answers, built from the status and the API's own error body. */

export interface RequestDescription {
	method: string;
	/** Path below the origin, e.g. /v1/transfers (never a query with secrets, never headers). */
	path: string;
	baseUrl: string;
	environment: string;
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
				description: `${where} conflicts with an earlier request. If the same Idempotency-Key was used with a different body, the API refuses it: give each distinct request its own key.`,
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

/** Removes any occurrence of the secret from text that will be shown or logged. */
export function redactSecret(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	return text.split(secret).join('[redacted]');
}
