/** Type declarations for signing.js (kept by hand; the JS file is the source of truth). */
export type SigningScheme =
	| 'hmac-sha256-hex'
	| 'hmac-sha256-base64'
	| 'hmac-sha256-prefixed'
	| 'hmac-sha512-hex'
	| 'secret-header'
	| 'none'
	| 'standard-webhooks'
	| 'svix'
	| 'stripe'
	| 'slack'
	| 'paddle'
	| 'github'
	| 'shopify'
	| 'square'
	| 'adyen-platform'
	| 'adyen-payments'
	| 'twilio';

export interface WebhookEvent {
	id: string;
	event: string;
	created_at: number;
	data: { object: unknown };
}

export interface AdyenNotification {
	notificationItems: Array<{ NotificationRequestItem: Record<string, unknown> }>;
	[field: string]: unknown;
}

export declare const SCHEMES: readonly SigningScheme[];
export declare const SIGNATURE_HEADER: 'x-signature';
export declare const TIMESTAMP_HEADER: 'x-timestamp';
export declare const SECRET_HEADER: 'x-webhook-secret';
/** The fields of an Adyen payments notification item that are signed, in order (paths, `amount.value`). */
export declare const ADYEN_SIGNED_FIELDS: readonly string[];

/** The HMAC of the parts, in order (text as UTF-8). */
export declare function hmac(algorithm: 'sha1' | 'sha256' | 'sha512', key: Buffer | string, parts: Array<Buffer | string>): Buffer;
/** The key bytes of a `whsec_<base64>` (or bare base64) secret. */
export declare function base64Key(secret: string): Buffer;
/** The key bytes of a hex secret; throws on one that is not hex. */
export declare function hexKey(secret: string): Buffer;
/** Twilio's text of form fields: names sorted, each followed by its distinct values sorted. */
export declare function sortedFormFields(body: Buffer): string;
/** The value at a dotted path as signed text ('' for none or null). */
export declare function fieldText(item: unknown, path: string): string;

/**
 * Signature headers (lower-case names) for one delivery whose signature travels in headers. `timestamp: true` means
 * now (schemes that always sign one use now by default); `id` is the message id; `url` the URL signed (Square, Twilio).
 */
export declare function sign(opts: {
	secret: string;
	scheme?: SigningScheme;
	body: Buffer | string;
	timestamp?: number | string | boolean;
	id?: string;
	url?: string;
	contentType?: string;
}): Record<string, string>;

/** An Adyen payments notification with every item signed (a copy). */
export declare function signAdyenPayments<T extends AdyenNotification>(notification: T, secret: string): T;
/** An event as a one-item Adyen payments notification. */
export declare function adyenNotification(event: WebhookEvent): AdyenNotification;

/** A whole delivery of `event` in `scheme`: body bytes, headers (content type included) and the URL to post to. */
export declare function signedDelivery(opts: {
	secret: string;
	scheme?: SigningScheme;
	event: WebhookEvent;
	url: string;
	signedUrl?: string;
	timestamp?: number | string | boolean;
	bodyFormat?: 'json' | 'form';
}): { body: Buffer; headers: Record<string, string>; url: string };

/** A secret valid in the scheme's key format. */
export declare function demoSecret(scheme: SigningScheme): string;
/** The Tenant API Trigger parameters that verify deliveries of `scheme`. */
export declare function triggerParameters(scheme: SigningScheme, bodyFormat?: 'json' | 'form'): Record<string, unknown>;
export declare function isScheme(scheme: unknown): scheme is SigningScheme;
