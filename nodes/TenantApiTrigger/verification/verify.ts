import type { HmacAlgorithm } from './signature';
import {
	MAX_SIGNATURE_HEADER_LENGTH,
	computeHmac,
	constantTimeEqual,
	constantTimeStringEqual,
	decodeSignature,
	signedPayload,
	splitSignatureHeader,
} from './signature';
import { checkTimestamp } from './timestamp';

export type VerificationMode = 'hmacSha256' | 'hmacSha512' | 'secretHeader' | 'none';

export const VERIFICATION_MODES: readonly VerificationMode[] = ['hmacSha256', 'hmacSha512', 'secretHeader', 'none'];

export interface VerificationConfig {
	mode: VerificationMode;
	/** Secrets that are currently accepted (current first, then previous). Blank entries are ignored. */
	secrets: string[];
	/** Header carrying the HMAC signature (HMAC modes). */
	signatureHeader: string;
	/** Header carrying the secret itself (secretHeader mode). */
	secretHeader: string;
	/** HMAC modes only: sign `<timestamp>.<raw body>` and enforce the tolerance window. */
	useTimestamp: boolean;
	timestampHeader: string;
	toleranceSeconds: number;
}

export type VerificationReason =
	| 'ok'
	| 'verification_disabled'
	| 'unknown_mode'
	| 'no_secret_configured'
	| 'missing_signature'
	| 'malformed_signature'
	| 'signature_mismatch'
	| 'missing_timestamp'
	| 'invalid_timestamp'
	| 'timestamp_out_of_window'
	| 'missing_secret_header'
	| 'secret_mismatch'
	| 'internal_error';

export interface VerificationResult {
	ok: boolean;
	reason: VerificationReason;
	/** Index into `secrets` of the secret that matched (0 = current, 1 = previous). */
	secretIndex?: number;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface DeliveryInput {
	/** The exact request bytes. */
	rawBody: Buffer;
	headers: HeaderBag;
	/** Current time in unix seconds. */
	nowSeconds: number;
}

/** Case-insensitive header lookup; repeated headers are joined with ', ' the way Node joins them. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
	const wanted = name.trim().toLowerCase();
	if (wanted === '') return undefined;
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted || value === undefined) continue;
		return Array.isArray(value) ? value.join(', ') : String(value);
	}
	return undefined;
}

export function usableSecrets(secrets: unknown[]): string[] {
	return secrets.filter((s): s is string => typeof s === 'string').map((s) => s.trim()).filter((s) => s !== '');
}

function fail(reason: VerificationReason): VerificationResult {
	return { ok: false, reason };
}

function verifyHmac(algorithm: HmacAlgorithm, config: VerificationConfig, secrets: string[], input: DeliveryInput): VerificationResult {
	let timestamp: string | undefined;
	if (config.useTimestamp) {
		timestamp = headerValue(input.headers, config.timestampHeader)?.trim();
		if (timestamp === undefined || timestamp === '') return fail('missing_timestamp');
		const window = checkTimestamp(timestamp, input.nowSeconds, config.toleranceSeconds);
		if (window !== 'ok') return fail(window);
	}
	const header = headerValue(input.headers, config.signatureHeader);
	if (header === undefined || header.trim() === '') return fail('missing_signature');
	if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return fail('malformed_signature');
	const candidates = splitSignatureHeader(header)
		.map((part) => decodeSignature(part, algorithm))
		.filter((bytes): bytes is Buffer => bytes !== undefined);
	if (candidates.length === 0) return fail('malformed_signature');
	const payload = signedPayload(input.rawBody, timestamp);
	let matched: number | undefined;
	secrets.forEach((secret, index) => {
		const expected = computeHmac(algorithm, secret, payload);
		for (const candidate of candidates) {
			if (constantTimeEqual(candidate, expected) && matched === undefined) matched = index;
		}
	});
	return matched === undefined ? fail('signature_mismatch') : { ok: true, reason: 'ok', secretIndex: matched };
}

function verifySecretHeader(config: VerificationConfig, secrets: string[], input: DeliveryInput): VerificationResult {
	const sent = headerValue(input.headers, config.secretHeader);
	if (sent === undefined || sent.trim() === '') return fail('missing_secret_header');
	let matched: number | undefined;
	secrets.forEach((secret, index) => {
		if (constantTimeStringEqual(sent.trim(), secret) && matched === undefined) matched = index;
	});
	return matched === undefined ? fail('secret_mismatch') : { ok: true, reason: 'ok', secretIndex: matched };
}

/**
 * Verifies one delivery against the configuration. Never throws: every outcome is a reason code.
 * Nothing in the result contains a secret or an expected signature.
 */
export function verifyDelivery(config: VerificationConfig, input: DeliveryInput): VerificationResult {
	try {
		if (config.mode === 'none') return { ok: true, reason: 'verification_disabled' };
		if (!VERIFICATION_MODES.includes(config.mode)) return fail('unknown_mode');
		const secrets = usableSecrets(config.secrets);
		if (secrets.length === 0) return fail('no_secret_configured');
		if (!Buffer.isBuffer(input.rawBody)) return fail('internal_error');
		if (config.mode === 'secretHeader') return verifySecretHeader(config, secrets, input);
		return verifyHmac(config.mode === 'hmacSha512' ? 'sha512' : 'sha256', config, secrets, input);
	} catch {
		return fail('internal_error');
	}
}
