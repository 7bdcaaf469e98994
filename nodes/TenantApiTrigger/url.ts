/**
 * The URL a sender signed (`{url}`): the Signed URL setting, else the webhook's public URL, with
 * the request's own query string (as received) in place of any query or fragment of that base.
 */
export function signedUrl(
	publicUrl: string | undefined,
	setting: string,
	requestPath: string,
): string | undefined {
	const base = setting || publicUrl;
	if (!base) return undefined;
	const end = base.search(/[?#]/);
	const query = requestPath.indexOf('?');
	return (end === -1 ? base : base.slice(0, end)) + (query === -1 ? '' : requestPath.slice(query));
}
