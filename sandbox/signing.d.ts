/** Type declarations for signing.js (kept by hand; the JS file is the source of truth). */
export type SigningScheme =
	| 'hmac-sha256-hex'
	| 'hmac-sha256-base64'
	| 'hmac-sha256-prefixed'
	| 'hmac-sha512-hex'
	| 'secret-header'
	| 'none';

export declare const SCHEMES: readonly SigningScheme[];
export declare const SIGNATURE_HEADER: 'x-signature';
export declare const TIMESTAMP_HEADER: 'x-timestamp';
export declare const SECRET_HEADER: 'x-webhook-secret';

/** Signature headers (lower-case names) for one delivery. `timestamp: true` means now (unix seconds). */
export declare function sign(opts: {
	secret: string;
	scheme?: SigningScheme;
	body: Buffer | string;
	timestamp?: number | string | boolean;
}): Record<string, string>;

/** Receiver-side check; any of `secrets` may match (rotation). */
export declare function verify(opts: {
	secrets: string[];
	scheme?: SigningScheme;
	body: Buffer | string;
	headers: Record<string, string | string[] | undefined>;
	toleranceSeconds?: number;
	now?: number;
}): boolean;

/** The bytes that are signed: the raw body, or `<timestamp>.<raw body>`. */
export declare function signedPayload(body: Buffer | string, timestamp?: number | string): Buffer;
export declare function isScheme(scheme: unknown): scheme is SigningScheme;
