import { createHash, timingSafeEqual } from 'crypto';

import type { HmacAlgorithm, SchemeSpec, SecretEncoding, SignatureEncoding } from './scheme';

/** Digest length in bytes per algorithm. */
export const DIGEST_BYTES: Record<HmacAlgorithm, number> = { sha1: 20, sha256: 32, sha512: 64 };

/** Longest signature header we look at; anything longer is refused as malformed (no work is done on it). */
export const MAX_SIGNATURE_HEADER_LENGTH = 2048;

/** A header may carry several signatures (e.g. during a sender-side rotation); at most this many are tried. */
export const MAX_SIGNATURE_CANDIDATES = 8;

const ALGORITHM_PREFIX = /^(sha1|sha256|sha512)=/i;
const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Base64 decoding in Node is lenient; require the text to be the exact encoding of the bytes. */
function canonicalBase64(bytes: Buffer, text: string): boolean {
	const normalized = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
	return bytes.toString('base64').replace(/=+$/, '') === normalized;
}

function decodeBase64(text: string): Buffer | undefined {
	if (!BASE64.test(text) && !BASE64URL.test(text)) return undefined;
	const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
	return canonicalBase64(bytes, text) ? bytes : undefined;
}

/**
 * Decodes one signature string into the digest bytes, or undefined when it is not a digest of `algorithm` in
 * `encoding` (hex in either case; base64 or base64url). The decoded length must equal the digest length.
 */
export function decodeSignature(
	value: string,
	algorithm: HmacAlgorithm,
	encoding: SignatureEncoding = 'auto',
): Buffer | undefined {
	const text = value.trim();
	const size = DIGEST_BYTES[algorithm];
	if (encoding !== 'base64' && text.length === size * 2 && HEX.test(text))
		return Buffer.from(text, 'hex');
	if (encoding === 'hex') return undefined;
	const bytes = decodeBase64(text);
	return bytes !== undefined && bytes.length === size ? bytes : undefined;
}

/** The HMAC key for one secret, or undefined when the secret is not valid in its encoding. */
export function secretKey(secret: string, encoding: SecretEncoding): Buffer | undefined {
	if (encoding === 'text') return Buffer.from(secret, 'utf8');
	if (encoding === 'hex')
		return secret.length % 2 === 0 && HEX.test(secret) ? Buffer.from(secret, 'hex') : undefined;
	const bytes = decodeBase64(secret.replace(/^whsec_/, ''));
	return bytes !== undefined && bytes.length > 0 ? bytes : undefined;
}

export interface ParsedSignatureHeader {
	/** Signature strings (not yet decoded), at most MAX_SIGNATURE_CANDIDATES. */
	signatures: string[];
	/** The timestamp carried in the header (`keyValue` format), as sent. */
	timestamp?: string;
}

function splitKeyValue(part: string, separator: string): [string, string] | undefined {
	const at = part.indexOf(separator);
	return at <= 0 ? undefined : [part.slice(0, at).trim(), part.slice(at + separator.length).trim()];
}

/** Signatures written as `<algorithm>=<signature>` count only when they name the scheme's algorithm. */
function withoutAlgorithmPrefix(value: string, algorithm: HmacAlgorithm): string | undefined {
	const prefixed = ALGORITHM_PREFIX.exec(value);
	if (!prefixed) return value;
	return prefixed[1].toLowerCase() === algorithm
		? value.slice(prefixed[0].length).trim()
		: undefined;
}

/** Splits a signature header into candidate signatures (and a timestamp) as the scheme's format says. */
export function parseSignatureHeader(value: string, spec: SchemeSpec): ParsedSignatureHeader {
	const out: ParsedSignatureHeader = { signatures: [] };
	if (spec.signatureFormat === 'keyValue') {
		for (const part of value.split(spec.pairSeparator || ',')) {
			const pair = splitKeyValue(part.trim(), '=');
			if (!pair) continue;
			if (pair[0] === spec.timestampKey && out.timestamp === undefined) out.timestamp = pair[1];
			else if (pair[0] === spec.signatureLabel) out.signatures.push(pair[1]);
		}
	} else if (spec.signatureFormat === 'versioned') {
		for (const entry of value.split(/\s+/)) {
			const pair = splitKeyValue(entry, ',');
			if (pair && pair[0] === spec.signatureLabel) out.signatures.push(pair[1]);
		}
	} else {
		for (const part of value.split(/[\s,]+/).filter((p) => p !== '')) {
			if (spec.signatureFormat === 'prefixed') {
				if (part.startsWith(spec.signatureLabel))
					out.signatures.push(part.slice(spec.signatureLabel.length));
				continue;
			}
			const bare = withoutAlgorithmPrefix(part, spec.algorithm);
			if (bare !== undefined) out.signatures.push(bare);
		}
	}
	out.signatures = out.signatures.slice(0, MAX_SIGNATURE_CANDIDATES);
	return out;
}

/** Constant-time equality of two byte strings; false (not an exception) when the lengths differ. */
export function constantTimeEqual(a: Buffer, b: Buffer): boolean {
	if (a.length !== b.length) return false;
	return timingSafeEqual(a, b);
}

/**
 * Constant-time comparison of two strings of any length: both sides are hashed first, so the
 * comparison runs on equal-length buffers and the time taken does not depend on the secret's length.
 */
export function constantTimeStringEqual(a: string, b: string): boolean {
	const da = createHash('sha256').update(a, 'utf8').digest();
	const db = createHash('sha256').update(b, 'utf8').digest();
	return timingSafeEqual(da, db);
}
