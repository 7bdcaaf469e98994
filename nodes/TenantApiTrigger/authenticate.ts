/**
 * The first thing done with a request: is it from the sender? Checked on the raw bytes and headers
 * only; nothing of the body is read here, so a request nobody signed costs at most an HMAC of its
 * bytes per secret.
 */
import { createHmac } from 'crypto';

import type { BodyFormat } from './body';
import type { HeaderBag } from './headers';
import { headerValue, presentHeader, usableSecret } from './headers';
import type { Check, HmacSigning } from './schemes';
import type { SignedPart, SignedValues } from './signedContent';
import { parseSignedContent, renderParts, usesPart } from './signedContent';
import {
	MAX_SIGNATURE_HEADER_LENGTH,
	constantTimeEqual,
	constantTimeTextEqual,
	readSignatureHeader,
	secretKey,
} from './signatureHeader';

/** Why a request is not from the sender (or cannot be checked). */
export type AuthenticationFailure =
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
 * What the check read of a request, whatever came of it: what a refusal is explained from
 * (diagnosis.ts).
 */
export interface Seen {
	/** The signed timestamp in unix seconds, when the request carried one that reads as a time. */
	timestamp?: number;
	/** The secrets checked against, as indexes into the secrets given. */
	secretsTried: number[];
}

export type Authentication =
	| {
			ok: true;
			/** The secret that matched (an index into the secrets given); none without a check. */
			secretIndex?: number;
			/** The signed timestamp and delivery id, with the header the id came from. */
			timestamp?: number;
			id?: { value: string; header: string };
			/** The signed header (`{header.<name>}`) or URL (`{url}`): they name the delivery too. */
			header?: { name: string; value: string };
			url?: string;
			seen: Seen;
	  }
	| { ok: false; reason: AuthenticationFailure; seen: Seen };

export interface SignedRequest {
	rawBody: Buffer;
	headers: HeaderBag;
	/** The URL the sender called, query string included (for `{url}`). */
	url?: string;
	nowSeconds: number;
}

type Passed = Omit<Extract<Authentication, { ok: true }>, 'seen' | 'ok'>;
type CheckResult = Passed | AuthenticationFailure;

/** Unix seconds as decimal digits (at most 12, so the value stays exact). */
const UNIX_SECONDS = /^\d{1,12}$/;
/** Longest delivery id taken from a header. */
export const MAX_ID_LENGTH = 256;

/**
 * A signed header value as it arrived: absent, blank, or padded with spaces (which no sender's is)
 * reads as none.
 */
function exactHeader(headers: HeaderBag, names: string): string | undefined {
	const value = headerValue(headers, names);
	return value === undefined || value === '' || value.trim() !== value ? undefined : value;
}

/** The values of the template's placeholders, read from the request, or why one is missing. */
function signedValues(
	signing: HmacSigning,
	parts: SignedPart[],
	request: SignedRequest,
	headerTimestamp: string | undefined,
	seen: Seen,
): SignedValues | AuthenticationFailure {
	const values: SignedValues = { body: request.rawBody };
	if (usesPart(parts, 'timestamp')) {
		const text =
			signing.signatureFormat === 'keyValue'
				? headerTimestamp
				: headerValue(request.headers, signing.timestampHeader);
		if (text === undefined || text === '') return 'missing_timestamp';
		if (!UNIX_SECONDS.test(text)) return 'invalid_timestamp';
		seen.timestamp = Number(text);
		if (Math.abs(request.nowSeconds - seen.timestamp) > signing.toleranceSeconds)
			return 'timestamp_out_of_window';
		values.timestamp = text;
	}
	if (usesPart(parts, 'id')) {
		values.id = exactHeader(request.headers, signing.idHeader);
		if (values.id === undefined || values.id.length > MAX_ID_LENGTH) return 'missing_id';
	}
	if (usesPart(parts, 'url')) {
		// An HTTP request target holds no blank; one padded could move bytes out of a JSON `{body}`.
		if (!request.url || request.url.trim() !== request.url) return 'missing_url';
		values.url = request.url;
	}
	const header = parts.find((part) => part.kind === 'header');
	if (header?.kind === 'header') {
		values.header = exactHeader(request.headers, header.name);
		if (values.header === undefined) return 'missing_signed_header';
	}
	return values;
}

/** The index of the first key whose HMAC matches one of the digests; every pair is compared. */
function matchingKey(
	signing: HmacSigning,
	content: Array<Buffer | string>,
	keys: Array<Buffer | undefined>,
	digests: Buffer[],
): number | undefined {
	let matched: number | undefined;
	keys.forEach((key, index) => {
		if (key === undefined) return;
		const hmac = createHmac(signing.algorithm, key);
		for (const part of content) hmac.update(part);
		const expected = hmac.digest();
		for (const digest of digests)
			if (constantTimeEqual(digest, expected) && matched === undefined) matched = index;
	});
	return matched;
}

function checkHmac(
	signing: HmacSigning,
	format: BodyFormat,
	secrets: Array<string | undefined>,
	request: SignedRequest,
	seen: Seen,
): CheckResult {
	const template = parseSignedContent(signing.signedContent, format);
	if (!template.ok) return 'invalid_signed_content';
	const keys = secrets.map((secret) =>
		secret === undefined ? undefined : secretKey(secret, signing.secretEncoding),
	);
	seen.secretsTried = indexesOfDefined(keys);
	if (seen.secretsTried.length === 0) return 'invalid_secret';
	const header = headerValue(request.headers, signing.signatureHeader);
	if (header === undefined || header.trim() === '') return 'missing_signature';
	if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return 'malformed_signature';
	const { digests, timestamp } = readSignatureHeader(header, signing);
	if (digests.length === 0) return 'malformed_signature';
	const values = signedValues(signing, template.parts, request, timestamp, seen);
	if (typeof values === 'string') return values;
	const secretIndex = matchingKey(signing, renderParts(template.parts, values), keys, digests);
	if (secretIndex === undefined) return 'signature_mismatch';
	const signedHeader = template.parts.find((part) => part.kind === 'header');
	return {
		secretIndex,
		...(values.timestamp === undefined ? {} : { timestamp: Number(values.timestamp) }),
		...(values.id === undefined
			? {}
			: { id: { value: values.id, header: presentHeader(request.headers, signing.idHeader) } }),
		...(signedHeader?.kind === 'header' && values.header !== undefined
			? {
					header: { name: presentHeader(request.headers, signedHeader.name), value: values.header },
				}
			: {}),
		...(values.url === undefined ? {} : { url: values.url }),
	};
}

function checkSecretHeader(
	header: string,
	secrets: Array<string | undefined>,
	request: SignedRequest,
): CheckResult {
	const sent = headerValue(request.headers, header)?.trim();
	if (sent === undefined || sent === '') return 'missing_secret_header';
	const secretIndex = secrets.findIndex(
		(secret) => secret !== undefined && constantTimeTextEqual(sent, secret),
	);
	return secretIndex === -1 ? 'secret_mismatch' : { secretIndex };
}

function indexesOfDefined(entries: unknown[]): number[] {
	return entries.flatMap((entry, index) => (entry === undefined ? [] : [index]));
}

function checkRequest(
	rule: Check,
	format: BodyFormat,
	secrets: unknown[],
	request: SignedRequest,
	seen: Seen,
): CheckResult {
	if (rule.kind === 'none') return {};
	// Blank secrets keep their place: secretIndex points into the list given.
	const usable = secrets.map(usableSecret);
	seen.secretsTried = indexesOfDefined(usable);
	if (seen.secretsTried.length === 0) return 'no_secret_configured';
	return rule.kind === 'secretHeader'
		? checkSecretHeader(rule.header, usable, request)
		: checkHmac(rule.signing, format, usable, request, seen);
}

/**
 * Whether a request comes from the sender: its signature over the raw bytes (and what else the
 * scheme signs), or the shared secret in a header. `secrets` in order of preference (current,
 * previous); the result names the one that matched and never holds a secret or an expected
 * signature.
 */
export function authenticate(
	rule: Check,
	format: BodyFormat,
	secrets: unknown[],
	request: SignedRequest,
): Authentication {
	const seen: Seen = { secretsTried: [] };
	const result = checkRequest(rule, format, secrets, request, seen);
	return typeof result === 'string'
		? { ok: false, reason: result, seen }
		: { ok: true, ...result, seen };
}
