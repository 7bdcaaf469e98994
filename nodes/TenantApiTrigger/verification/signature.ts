import { createHash, createHmac, timingSafeEqual } from 'crypto';

export type HmacAlgorithm = 'sha256' | 'sha512';

/** Digest length in bytes per algorithm. */
export const DIGEST_BYTES: Record<HmacAlgorithm, number> = { sha256: 32, sha512: 64 };

/** Longest signature header we look at; anything longer is refused as malformed (no work is done on it). */
export const MAX_SIGNATURE_HEADER_LENGTH = 2048;

/** A header may carry several signatures (e.g. during a sender-side rotation); at most this many are tried. */
export const MAX_SIGNATURE_CANDIDATES = 8;

const ALGORITHM_PREFIX = /^(sha256|sha512)=/i;
const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * Decodes one signature string into the digest bytes, or undefined when it is not a digest of `algorithm`.
 * Accepted: hex (either case) or base64 / base64url, optionally prefixed `sha256=` / `sha512=` (the prefix
 * must name the same algorithm). Whatever the encoding, the decoded length must equal the digest length.
 */
export function decodeSignature(value: string, algorithm: HmacAlgorithm): Buffer | undefined {
	let text = value.trim();
	const prefixed = ALGORITHM_PREFIX.exec(text);
	if (prefixed) {
		if (prefixed[1].toLowerCase() !== algorithm) return undefined;
		text = text.slice(prefixed[0].length).trim();
	}
	const size = DIGEST_BYTES[algorithm];
	if (text.length === size * 2 && HEX.test(text)) return Buffer.from(text, 'hex');
	if (BASE64.test(text) || BASE64URL.test(text)) {
		const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
		if (bytes.length === size && canonicalBase64(bytes, text)) return bytes;
	}
	return undefined;
}

/** Base64 decoding in Node is lenient; require the text to be the exact encoding of the bytes. */
function canonicalBase64(bytes: Buffer, text: string): boolean {
	const normalized = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
	return bytes.toString('base64').replace(/=+$/, '') === normalized;
}

/**
 * Splits a signature header into candidate signatures. Separators: comma or whitespace
 * (a sender that signs with two secrets at once may send both). Empty parts are dropped.
 */
export function splitSignatureHeader(value: string): string[] {
	return value
		.split(/[\s,]+/)
		.map((part) => part.trim())
		.filter((part) => part !== '')
		.slice(0, MAX_SIGNATURE_CANDIDATES);
}

export function computeHmac(algorithm: HmacAlgorithm, secret: string, payload: Buffer): Buffer {
	return createHmac(algorithm, secret).update(payload).digest();
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

/** The bytes that are signed: the raw body, or `<timestamp>.<raw body>` when a timestamp is used. */
export function signedPayload(rawBody: Buffer, timestamp?: string): Buffer {
	if (timestamp === undefined) return rawBody;
	return Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), rawBody]);
}
