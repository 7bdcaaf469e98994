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
