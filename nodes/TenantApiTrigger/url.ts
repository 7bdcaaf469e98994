/** The query string of a request path exactly as sent (`?a=1&b=2`), or ''. */
function rawQuery(path: string): string {
	const at = path.indexOf('?');
	return at === -1 ? '' : path.slice(at);
}

/**
 * The URL a sender signed (`{url}`): the Signed URL setting, else the webhook's public URL, with
 * the request's own query string (as received) in place of any query or fragment of that base.
 */
export function signedUrl(
	publicUrl: string | undefined,
	setting: string,
	requestPath: string,
): string | undefined {
	const base = setting.trim() !== '' ? setting.trim() : publicUrl;
	if (!base) return undefined;
	const hash = base.indexOf('#');
	const withoutHash = hash === -1 ? base : base.slice(0, hash);
	const query = withoutHash.indexOf('?');
	return (query === -1 ? withoutHash : withoutHash.slice(0, query)) + rawQuery(requestPath);
}
