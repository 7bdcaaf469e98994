import type { IWebhookFunctions } from 'n8n-workflow';

interface RequestUrl {
	originalUrl?: string;
	url?: string;
}

/** The query string of a request path exactly as sent (`?a=1&b=2`), or ''. */
function rawQuery(path: string): string {
	const at = path.indexOf('?');
	return at === -1 ? '' : path.slice(at);
}

/**
 * n8n's public URL of this webhook: the Test URL while the editor listens (n8n 2.x), else the
 * Production URL.
 */
function webhookUrl(context: IWebhookFunctions): string | undefined {
	const withTest = context as IWebhookFunctions & {
		getWebhookResourceUrl?: (name: 'default') => string | undefined;
	};
	return typeof withTest.getWebhookResourceUrl === 'function'
		? withTest.getWebhookResourceUrl('default')
		: context.getNodeWebhookUrl('default');
}

/**
 * The URL a sender signed: the Signed URL setting (`override`), else the webhook's public URL, with
 * the request's own query string (as received) in place of any query or fragment of that base.
 */
export function signedUrlOf(
	publicUrl: string | undefined,
	override: unknown,
	requestPath: string,
): string | undefined {
	const base = typeof override === 'string' && override.trim() !== '' ? override.trim() : publicUrl;
	if (!base) return undefined;
	const hash = base.indexOf('#');
	const withoutHash = hash === -1 ? base : base.slice(0, hash);
	const query = withoutHash.indexOf('?');
	return (query === -1 ? withoutHash : withoutHash.slice(0, query)) + rawQuery(requestPath);
}

/** The URL the sender signed (`{url}`), for this request. */
export function signedUrl(context: IWebhookFunctions, override: unknown): string | undefined {
	const req = context.getRequestObject() as unknown as RequestUrl;
	return signedUrlOf(webhookUrl(context), override, req.originalUrl ?? req.url ?? '');
}
