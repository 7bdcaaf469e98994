import type { BodyFormat, PresetName } from './verification';
import { PRESETS, parseTemplate, usesPart } from './verification';

/** A setting of the node that only some Verifications show. */
export type VerificationSetting = 'signatureHeader' | 'useTimestamp' | 'signedUrl' | 'bodyFormat' | 'sharedKeyHeader' | 'custom';

/**
 * One value of the Verification setting: how the node shows it, what it verifies with, which settings it shows,
 * and the headers that give its senders away (for the refusal diagnosis). The node's description, the verifier's
 * configuration and the diagnoses are derived from this table; the property tests generate every entry
 * (test/property/settings.ts) and fail on a setting they do not generate.
 */
export interface Verification {
	/** The option's name in the node. */
	name: string;
	description: string;
	/** An HMAC preset of the verifier (verification/scheme.ts), the Custom HMAC settings, or no HMAC. */
	verifies: PresetName | 'customHmac' | 'secretHeader' | 'none';
	/** The settings the node shows for it (Tolerance is shown wherever a timestamp is signed). */
	settings: VerificationSetting[];
	/** Body Format's default, where the node shows the setting. */
	bodyFormat?: BodyFormat;
	/** Headers only this kind of sender sends (lower case): one of them on a refused request names the Verification to choose. */
	senderHeaders: string[];
}

export const VERIFICATIONS = {
	adyenPayments: {
		name: 'Adyen (Payments Webhooks)',
		description: 'HMAC-SHA256 (hex key) of the documented fields of each NotificationRequestItem; additionalData.hmacSignature',
		verifies: 'adyenPayments',
		settings: [],
		senderHeaders: [],
	},
	adyenPlatform: {
		name: 'Adyen (Platform Webhooks)',
		description: 'HMAC-SHA256 (hex key) of the raw body, base64 in the HmacSignature header',
		verifies: 'adyenPlatform',
		settings: [],
		senderHeaders: ['hmacsignature'],
	},
	customHmac: {
		name: 'Custom HMAC',
		description: 'Choose the algorithm, secret encoding, signed content, signature header and format yourself',
		verifies: 'customHmac',
		settings: ['custom', 'signedUrl', 'bodyFormat'],
		bodyFormat: 'json',
		senderHeaders: [],
	},
	hmacSha256: {
		name: 'HMAC-SHA256 of the Body (GitHub, Shopify, Plain)',
		description: 'HMAC-SHA256 of the exact request bytes, hex or base64, optional sha256= prefix',
		verifies: 'hmacSha256',
		settings: ['signatureHeader', 'useTimestamp', 'bodyFormat'],
		bodyFormat: 'json',
		senderHeaders: ['x-hub-signature-256', 'x-shopify-hmac-sha256'],
	},
	hmacSha512: {
		name: 'HMAC-SHA512 of the Body',
		description: 'HMAC-SHA512 of the exact request bytes, hex or base64, optional sha512= prefix',
		verifies: 'hmacSha512',
		settings: ['signatureHeader', 'useTimestamp', 'bodyFormat'],
		bodyFormat: 'json',
		senderHeaders: ['x-paystack-signature'],
	},
	none: {
		name: 'None (Insecure)',
		description: 'Accept every request without checking who sent it',
		verifies: 'none',
		settings: ['bodyFormat'],
		bodyFormat: 'json',
		senderHeaders: [],
	},
	paddle: {
		name: 'Paddle-Style',
		description: 'Paddle-Signature: ts=…;h1=… over "{ts}:{body}"',
		verifies: 'paddle',
		settings: [],
		senderHeaders: ['paddle-signature'],
	},
	secretHeader: {
		name: 'Secret in Header',
		description: 'The sender puts the secret itself in a header; weaker than a signature',
		verifies: 'secretHeader',
		settings: ['sharedKeyHeader', 'bodyFormat'],
		bodyFormat: 'json',
		senderHeaders: ['x-callback-token'],
	},
	slack: {
		name: 'Slack-Style',
		description: 'X-Slack-Signature: v0=… over "v0:{timestamp}:{body}", X-Slack-Request-Timestamp',
		verifies: 'slack',
		settings: ['bodyFormat'],
		bodyFormat: 'form',
		senderHeaders: ['x-slack-signature'],
	},
	square: {
		name: 'Square-Style',
		description: 'Base64 HMAC-SHA256 of the notification URL followed by the body, x-square-hmacsha256-signature',
		verifies: 'square',
		settings: ['signedUrl'],
		senderHeaders: ['x-square-hmacsha256-signature'],
	},
	standardWebhooks: {
		name: 'Standard Webhooks (Svix)',
		description: 'Headers webhook-ID, webhook-timestamp, webhook-signature: v1,… (or the svix-* ones); whsec_ secret',
		verifies: 'standardWebhooks',
		settings: [],
		senderHeaders: ['webhook-signature', 'svix-signature'],
	},
	stripe: {
		name: 'Stripe-Style',
		description: 'Stripe-Signature: t=…,v1=… over "{t}.{body}"',
		verifies: 'stripe',
		settings: [],
		senderHeaders: ['stripe-signature'],
	},
	twilio: {
		name: 'Twilio-Style',
		description: 'X-Twilio-Signature: HMAC-SHA1 of the URL and the sorted form fields; JSON when the URL carries bodySHA256',
		verifies: 'twilio',
		settings: ['signedUrl'],
		senderHeaders: ['x-twilio-signature'],
	},
} satisfies Record<string, Verification>;

export type VerificationName = keyof typeof VERIFICATIONS;

export const VERIFICATION_NAMES = Object.keys(VERIFICATIONS) as VerificationName[];

export function isVerificationName(value: unknown): value is VerificationName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(VERIFICATIONS, value);
}

/** One entry of the table, typed as a Verification. */
export const verificationOf = (name: VerificationName): Verification => VERIFICATIONS[name];

/** The Verifications that show a setting. */
export function showing(setting: VerificationSetting): VerificationName[] {
	return VERIFICATION_NAMES.filter((name) => verificationOf(name).settings.includes(setting));
}

/** The Verifications whose signature always covers a timestamp (Custom HMAC: its template may). */
export function signingTimestamps(): VerificationName[] {
	return VERIFICATION_NAMES.filter((name) => {
		const { verifies } = verificationOf(name);
		if (verifies === 'customHmac') return true;
		if (verifies === 'secretHeader' || verifies === 'none') return false;
		return usesPart(parseTemplate(PRESETS[verifies].signedContent) ?? [], 'timestamp');
	});
}

/** The Verifications with a Body Format setting whose default is `format`. */
export function bodyFormatDefaulting(format: BodyFormat): VerificationName[] {
	return showing('bodyFormat').filter((name) => verificationOf(name).bodyFormat === format);
}

/** The Verification whose senders send one of these headers (names, lower case), if any. */
export function verificationOfSender(headerNames: string[]): VerificationName | undefined {
	return VERIFICATION_NAMES.find((name) => verificationOf(name).senderHeaders.some((header) => headerNames.includes(header)));
}
