import type { IWebhookFunctions } from 'n8n-workflow';

interface RequestUrl {
	originalUrl?: string;
	url?: string;
}

/** The query string of the request exactly as sent (`?a=1&b=2`), or ''. */
function rawQuery(context: IWebhookFunctions): string {
	const req = context.getRequestObject() as unknown as RequestUrl;
	const path = req.originalUrl ?? req.url ?? '';
	const at = path.indexOf('?');
	return at === -1 ? '' : path.slice(at);
}

/** n8n's public URL of this webhook: the Test URL while the editor listens (n8n 2.x), else the Production URL. */
function webhookUrl(context: IWebhookFunctions): string | undefined {
	const withTest = context as IWebhookFunctions & { getWebhookResourceUrl?: (name: 'default') => string | undefined };
	return typeof withTest.getWebhookResourceUrl === 'function' ? withTest.getWebhookResourceUrl('default') : context.getNodeWebhookUrl('default');
}

/**
 * The URL the sender signed (Square, Twilio, `{url}`): the Signed URL setting, else n8n's public URL of this
 * webhook, with the request's own query string (as received) in place of any query of that base.
 */
export function signedUrl(context: IWebhookFunctions, override: unknown): string | undefined {
	const base = typeof override === 'string' && override.trim() !== '' ? override.trim() : webhookUrl(context);
	if (!base) return undefined;
	const hash = base.indexOf('#');
	const withoutHash = hash === -1 ? base : base.slice(0, hash);
	const query = withoutHash.indexOf('?');
	return (query === -1 ? withoutHash : withoutHash.slice(0, query)) + rawQuery(context);
}
