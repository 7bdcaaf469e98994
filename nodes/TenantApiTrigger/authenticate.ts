/**
 * The first thing done with a request: is it from the sender? Checked on the raw bytes and the
 * headers the Verification names, read once; nothing of the body is read here, so a request nobody
 * signed costs at most an HMAC of its bytes per secret.
 */
import { createHmac } from 'crypto';

import type { BodyFormat } from './body';
import { headerMap } from './headers';
import type { ReceivedRequest } from './receive';
import { headerNames, usableSecret } from './settings';
import {
	MAX_SIGNATURE_HEADER_LENGTH,
	constantTimeEqual,
	constantTimeTextEqual,
	readSignatureHeader,
	secretKey,
} from './signatureHeader';
import type { SignedValues } from './signedContent';
import { parseSignedContent, renderParts, usesPart } from './signedContent';
import type { HmacVerification, Verification } from './verifications';
import { headersRead } from './verifications';

/** Why a request is not from the sender (or cannot be checked). */
export type AuthenticationFailure =
	| 'raw_body_unavailable'
	| 'no_secret_configured'
	| 'invalid_secret'
	| 'invalid_signed_content'
	| 'missing_signature'
	| 'malformed_signature'
	| 'signature_mismatch'
	| 'missing_timestamp'
	| 'invalid_timestamp'
	| 'timestamp_out_of_window'
	| 'missing_id'
	| 'missing_url'
	| 'missing_signed_header'
	| 'missing_secret_header'
	| 'secret_mismatch';

/**
 * What authentication saw of a request, whatever came of it: what a refusal is explained from
 * (diagnosis.ts).
 */
export interface Seen {
	/** The signed timestamp in unix seconds, when the request carried one that reads as a time. */
	timestamp?: number;
	/** The secrets checked against, as indexes into the secrets given. */
	secretsTried: number[];
}

/**
 * A request from the sender: the secret that matched (an index into the secrets given; none without
 * a check), and what the signature covers besides the body: the timestamp, the delivery id with the
 * header it came from, the signed header (`{header.<name>}`) or URL (`{url}`).
 */
export interface Authenticated {
	secretIndex?: number;
	timestamp?: number;
	id?: { value: string; header: string };
	header?: { name: string; value: string };
	url?: string;
}

export type Authentication = (
	| ({ ok: true } & Authenticated)
	| { ok: false; reason: AuthenticationFailure }
) & { seen: Seen };

/** Unix seconds as decimal digits (at most 12, so the value stays exact). */
const UNIX_SECONDS = /^\d{1,12}$/;
/** Longest delivery id taken from a header. */
const MAX_ID_LENGTH = 256;

const refused = (reason: AuthenticationFailure, seen: Seen): Authentication => ({
	ok: false,
	reason,
	seen,
});

/** The first of `names` the request carries, with its value. */
function first(headers: Map<string, string>, names: string[]) {
	for (const name of names) {
		const value = headers.get(name);
		if (value !== undefined) return { name, value };
	}
	return undefined;
}

/**
 * A signed header as it arrived: absent, blank, or padded with spaces (which no sender's is)
 * reads as none.
 */
function exactHeader(headers: Map<string, string>, names: string[]) {
	const header = first(headers, names);
	return header === undefined || header.value === '' || header.value.trim() !== header.value
		? undefined
		: header;
}

/** The index of the first key whose HMAC matches one of the digests; every pair is compared. */
function matchingKey(
	algorithm: string,
	content: Array<Buffer | string>,
	keys: Array<Buffer | undefined>,
	digests: Buffer[],
): number | undefined {
	let matched: number | undefined;
	keys.forEach((key, index) => {
		if (key === undefined) return;
		const hmac = createHmac(algorithm, key);
		for (const part of content) hmac.update(part);
		const expected = hmac.digest();
		for (const digest of digests)
			if (constantTimeEqual(digest, expected) && matched === undefined) matched = index;
	});
	return matched;
}

const indexesOfDefined = (entries: unknown[]) =>
	entries.flatMap((entry, index) => (entry === undefined ? [] : [index]));

function authenticateHmac(
	verification: HmacVerification,
	format: BodyFormat,
	secrets: Array<string | undefined>,
	request: ReceivedRequest & { rawBody: Buffer },
	tried: number[],
): Authentication {
	const template = parseSignedContent(verification.signedContent, format);
	if (!template.ok) return refused('invalid_signed_content', { secretsTried: tried });
	const { parts } = template;
	const keys = secrets.map((secret) =>
		secret === undefined ? undefined : secretKey(secret, verification.secretEncoding),
	);
	// What a refusal is explained from: the secrets tried, then the signed timestamp once read.
	const seen: Seen = { secretsTried: indexesOfDefined(keys) };
	const fail = (reason: AuthenticationFailure) => refused(reason, seen);
	if (seen.secretsTried.length === 0) return fail('invalid_secret');
	const headerPart = parts.find((part) => part.kind === 'header');
	const signedHeader = headerPart?.kind === 'header' ? headerNames(headerPart.name) : undefined;
	const { signatureHeader, timestampHeader, idHeader } = verification;
	const headers = headerMap(request.headers, [
		...headersRead(verification),
		...(signedHeader ?? []),
	]);
	const signature = first(headers, signatureHeader)?.value;
	if (signature === undefined || signature.trim() === '') return fail('missing_signature');
	if (signature.length > MAX_SIGNATURE_HEADER_LENGTH) return fail('malformed_signature');
	const { digests, timestamp: inSignature } = readSignatureHeader(signature, verification);
	if (digests.length === 0) return fail('malformed_signature');
	const values: SignedValues = { body: request.rawBody };
	let timestamp: number | undefined;
	if (usesPart(parts, 'timestamp')) {
		const text =
			verification.signatureFormat === 'keyValue'
				? inSignature
				: first(headers, timestampHeader)?.value;
		if (text === undefined || text === '') return fail('missing_timestamp');
		if (!UNIX_SECONDS.test(text)) return fail('invalid_timestamp');
		seen.timestamp = timestamp = Number(text);
		values.timestamp = text;
	}
	if (
		timestamp !== undefined &&
		Math.abs(request.nowSeconds - timestamp) > verification.toleranceSeconds
	)
		return fail('timestamp_out_of_window');
	const id = usesPart(parts, 'id') ? exactHeader(headers, idHeader) : undefined;
	if (usesPart(parts, 'id') && (id === undefined || id.value.length > MAX_ID_LENGTH))
		return fail('missing_id');
	values.id = id?.value;
	if (usesPart(parts, 'url')) {
		// An HTTP request target holds no blank; one padded could move bytes out of a JSON `{body}`.
		if (!request.url || request.url.trim() !== request.url) return fail('missing_url');
		values.url = request.url;
	}
	const header = signedHeader && exactHeader(headers, signedHeader);
	if (signedHeader && header === undefined) return fail('missing_signed_header');
	values.header = header?.value;
	const keyIndex = matchingKey(verification.algorithm, renderParts(parts, values), keys, digests);
	if (keyIndex === undefined) return fail('signature_mismatch');
	return {
		ok: true,
		seen,
		secretIndex: keyIndex,
		timestamp,
		id: id && { value: id.value, header: id.name },
		header,
		url: values.url,
	};
}

/**
 * Whether a request comes from the sender: its signature over the raw bytes (and what else the
 * Verification signs), or the shared secret in a header. `secrets` in order of preference (current,
 * previous); the result names the one that matched and never holds a secret or an expected
 * signature.
 */
export function authenticate(
	verification: Verification,
	format: BodyFormat,
	secrets: unknown[],
	request: ReceivedRequest,
): Authentication {
	if (verification.kind === 'none') return { ok: true, seen: { secretsTried: [] } };
	const { rawBody } = request;
	if (rawBody === undefined) return refused('raw_body_unavailable', { secretsTried: [] });
	// Blank secrets keep their place: secretIndex points into the list given.
	const usable = secrets.map(usableSecret);
	const secretsTried = indexesOfDefined(usable);
	if (secretsTried.length === 0) return refused('no_secret_configured', { secretsTried });
	if (verification.kind === 'hmac')
		return authenticateHmac(verification, format, usable, { ...request, rawBody }, secretsTried);
	const sent = first(headerMap(request.headers, verification.header), verification.header);
	const shared = sent?.value.trim();
	if (shared === undefined || shared === '')
		return refused('missing_secret_header', { secretsTried });
	const secretIndex = usable.findIndex(
		(secret) => secret !== undefined && constantTimeTextEqual(shared, secret),
	);
	return secretIndex === -1
		? refused('secret_mismatch', { secretsTried })
		: { ok: true, seen: { secretsTried }, secretIndex };
}
