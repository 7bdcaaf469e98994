import { createHash, timingSafeEqual } from 'crypto';

import type {
	HmacAlgorithm,
	HmacVerification,
	SecretEncoding,
	SignatureEncoding,
} from './verifications';

const DIGEST_BYTES: Record<HmacAlgorithm, number> = { sha1: 20, sha256: 32, sha512: 64 };

/**
 * Longest signature header looked at; a longer one is refused as malformed, with no work done on
 * it.
 */
export const MAX_SIGNATURE_HEADER_LENGTH = 2048;

/**
 * A header may carry several signatures (a rotation at the sender): at most this many are tried.
 */
const MAX_SIGNATURE_CANDIDATES = 8;

const ALGORITHM_PREFIX = /^(sha1|sha256|sha512)=/i;
const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * Base64 or base64url, only when the text is the exact encoding of the bytes (Node's decoder is
 * lenient).
 */
function decodeBase64(text: string): Buffer | undefined {
	if (!BASE64.test(text) && !BASE64URL.test(text)) return undefined;
	const standard = text.replace(/-/g, '+').replace(/_/g, '/');
	const bytes = Buffer.from(standard, 'base64');
	return bytes.toString('base64').replace(/=+$/, '') === standard.replace(/=+$/, '')
		? bytes
		: undefined;
}

/**
 * The digest a signature text stands for, or undefined when it is not one of `algorithm` in
 * `encoding`.
 */
function decodeSignature(
	text: string,
	algorithm: HmacAlgorithm,
	encoding: SignatureEncoding,
): Buffer | undefined {
	const size = DIGEST_BYTES[algorithm];
	if (encoding !== 'base64' && text.length === size * 2 && HEX.test(text))
		return Buffer.from(text, 'hex');
	if (encoding === 'hex') return undefined;
	const bytes = decodeBase64(text);
	return bytes?.length === size ? bytes : undefined;
}

/** The HMAC key of a secret, or undefined when the secret is not valid in its encoding. */
export function secretKey(secret: string, encoding: SecretEncoding): Buffer | undefined {
	if (encoding === 'text') return Buffer.from(secret, 'utf8');
	if (encoding === 'hex')
		return secret.length % 2 === 0 && HEX.test(secret) ? Buffer.from(secret, 'hex') : undefined;
	const bytes = decodeBase64(secret.replace(/^whsec_/, ''));
	return bytes !== undefined && bytes.length > 0 ? bytes : undefined;
}

/** `key<separator>value` texts as pairs, trimmed; those without a key are left out. */
function pairs(texts: string[], separator: string): Array<[string, string]> {
	return texts.flatMap((text) => {
		const at = text.indexOf(separator);
		return at <= 0 ? [] : [[text.slice(0, at).trim(), text.slice(at + separator.length).trim()]];
	});
}

/** An `<algorithm>=` prefix counts only when it names the Verification's algorithm. */
function withoutAlgorithmPrefix(text: string, algorithm: HmacAlgorithm): string | undefined {
	const prefix = ALGORITHM_PREFIX.exec(text);
	if (!prefix) return text;
	return prefix[1].toLowerCase() === algorithm ? text.slice(prefix[0].length) : undefined;
}

/**
 * The signature texts of a header in the Verification's format, and the timestamp it carries
 * (`keyValue`).
 */
function readSignatureTexts(
	value: string,
	verification: HmacVerification,
): { signatures: string[]; timestamp?: string } {
	const { signatureFormat: format, signatureLabel: label } = verification;
	if (format === 'keyValue') {
		const entries = pairs(value.split(verification.pairSeparator), '=');
		return {
			signatures: entries.filter(([key]) => key === label).map(([, text]) => text),
			timestamp: entries.find(([key]) => key === verification.timestampKey)?.[1],
		};
	}
	if (format === 'versioned') {
		// A repeated header arrives joined with ', ': the comma is not part of the entry before it.
		const entries = pairs(
			value.split(/\s+/).map((entry) => entry.replace(/,$/, '')),
			',',
		);
		return { signatures: entries.filter(([key]) => key === label).map(([, text]) => text) };
	}
	const texts = value.split(/[\s,]+/).filter((text) => text !== '');
	if (format === 'prefixed')
		return {
			signatures: texts.filter((text) => text.startsWith(label)).map((t) => t.slice(label.length)),
		};
	return {
		signatures: texts.flatMap((text) => withoutAlgorithmPrefix(text, verification.algorithm) ?? []),
	};
}

/**
 * The signature header: its timestamp, and the digests of its signatures (at most
 * MAX_SIGNATURE_CANDIDATES).
 */
export function readSignatureHeader(
	value: string,
	verification: HmacVerification,
): { digests: Buffer[]; timestamp?: string } {
	const { signatures, timestamp } = readSignatureTexts(value, verification);
	const digests = signatures
		.slice(0, MAX_SIGNATURE_CANDIDATES)
		.flatMap(
			(text) =>
				decodeSignature(text.trim(), verification.algorithm, verification.signatureEncoding) ?? [],
		);
	return { digests, timestamp };
}

/**
 * Whether a header value holds a signature in an HMAC Verification's form, marked as one: a
 * key=value list with its timestamp (`t=…,v1=…`), a labelled entry (`v1,…`, `v0=…`), or a plain
 * signature with its algorithm's prefix (`sha256=…`); a bare digest could be any token. Made once
 * per Verification, asked of many values: a value without the label, or longer than a signature
 * header may be, is not read.
 */
export function signatureForm(verification: HmacVerification): (value: string) => boolean {
	const unmarked =
		verification.signatureFormat === 'plain' ||
		(verification.signatureFormat === 'prefixed' && verification.signatureLabel === '');
	const marked: HmacVerification = unmarked
		? { ...verification, signatureFormat: 'prefixed', signatureLabel: `${verification.algorithm}=` }
		: verification;
	const label = marked.signatureLabel;
	return (value) => {
		if (label === '' || value.length > MAX_SIGNATURE_HEADER_LENGTH || !value.includes(label))
			return false;
		const { digests, timestamp } = readSignatureHeader(value, marked);
		return digests.length > 0 && (marked.signatureFormat !== 'keyValue' || timestamp !== undefined);
	};
}

/** Constant-time equality of two byte strings; false (not an exception) when the lengths differ. */
export function constantTimeEqual(a: Buffer, b: Buffer): boolean {
	return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Constant-time equality of two texts of any length: both hashed first, so the time says nothing of
 * the secret.
 */
export function constantTimeTextEqual(a: string, b: string): boolean {
	const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
	return timingSafeEqual(digest(a), digest(b));
}
