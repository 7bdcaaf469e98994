import type { Answer, HandshakeName } from './answers';
import { ADYEN_ACCEPTED, EMPTY_OK, EMPTY_TWIML } from './answers';
import type { BodyFormat } from './verifier';
import { PRESETS, headerNames, isPresetName, parseTemplate, usesPart } from './verifier';

/** A setting of the node that only some Verifications show. */
export type VerificationSetting =
	| 'signatureHeader'
	| 'useTimestamp'
	| 'signedUrl'
	| 'bodyFormat'
	| 'sharedKeyHeader'
	| 'custom';

/**
 * One value of the Verification setting: how the node shows it, which settings it shows, and the headers that give
 * its senders away (for the refusal diagnosis). What it verifies with follows from its key: an HMAC preset of the
 * verifier (verifier/scheme.ts) of the same name, the Custom HMAC settings (customHmac), a secret in a header
 * (secretHeader) or nothing (none). The node's description, the verifier's configuration and the diagnoses are
 * derived from this table; the property tests generate every entry (test/property/settings.ts) and fail on a
 * setting they do not generate.
 */
export interface Verification {
	/** The option's name in the node. */
	name: string;
	description: string;
	/** The settings the node shows for it (Tolerance is shown wherever a timestamp is signed). */
	settings: VerificationSetting[];
	/** Body Format's default, where the node shows the setting. */
	bodyFormat?: BodyFormat;
	/** Headers only this kind of sender sends (lower case): one of them on a refused request names the Verification to choose. */
	senderHeaders: string[];
	/** What the sender gets back for a verified delivery with Respond On Receipt (and for one filtered out by Events). */
	acknowledgement: Answer;
	/** The status of n8n's answer with Respond When the Workflow Finishes, once the workflow succeeded (n8n sends no body then). */
	finishedStatus: number;
	/** A request the sender makes before it delivers events (answers.ts): answered as the sender expects, never started. */
	handshake?: HandshakeName;
	/** How the sender's secrets begin, when they all do (Svix's and Stripe's `whsec_`): a refusal names the likely cause. */
	secretPrefix?: string;
}

/**
 * A row of VERIFICATIONS, without what a preset already says: a preset's Body Format default is its scheme's, and a
 * preset whose Signature Header is not a setting gives its senders away by that header (verificationOf adds both).
 */
type VerificationRow = Omit<
	Verification,
	'senderHeaders' | 'acknowledgement' | 'finishedStatus'
> & {
	/** The sender's headers beside a preset's fixed signature header. */
	otherSenderHeaders: string[];
	/** Default: 200 with an empty body. */
	acknowledgement?: Answer;
	/** Default: 200. */
	finishedStatus?: number;
};

export const VERIFICATIONS = {
	adyenPayments: {
		name: 'Adyen (Payments Webhooks)',
		description:
			'HMAC-SHA256 (hex key) of the documented fields of each NotificationRequestItem; additionalData.hmacSignature',
		settings: [],
		otherSenderHeaders: [],
		acknowledgement: ADYEN_ACCEPTED,
	},
	adyenPlatform: {
		name: 'Adyen (Platform Webhooks)',
		description: 'HMAC-SHA256 (hex key) of the raw body, base64 in the HmacSignature header',
		settings: [],
		otherSenderHeaders: [],
		acknowledgement: ADYEN_ACCEPTED,
	},
	customHmac: {
		name: 'Custom HMAC',
		description:
			'Choose the algorithm, secret encoding, signed content, signature header and format yourself',
		settings: ['custom', 'signedUrl', 'bodyFormat'],
		bodyFormat: 'json',
		otherSenderHeaders: [],
	},
	hmacSha256: {
		name: 'HMAC-SHA256 of the Body (GitHub, Shopify, Plain)',
		description: 'HMAC-SHA256 of the exact request bytes, hex or base64, optional sha256= prefix',
		settings: ['signatureHeader', 'useTimestamp', 'bodyFormat'],
		otherSenderHeaders: ['x-hub-signature-256', 'x-shopify-hmac-sha256'],
		handshake: 'githubPing',
	},
	hmacSha512: {
		name: 'HMAC-SHA512 of the Body',
		description: 'HMAC-SHA512 of the exact request bytes, hex or base64, optional sha512= prefix',
		settings: ['signatureHeader', 'useTimestamp', 'bodyFormat'],
		otherSenderHeaders: ['x-paystack-signature'],
	},
	none: {
		name: 'None (Insecure)',
		description: 'Accept every request without checking who sent it',
		settings: ['bodyFormat'],
		bodyFormat: 'json',
		otherSenderHeaders: [],
	},
	paddle: {
		name: 'Paddle-Style',
		description: 'Paddle-Signature: ts=…;h1=… over "{ts}:{body}"',
		settings: [],
		otherSenderHeaders: [],
	},
	secretHeader: {
		name: 'Secret in Header',
		description: 'The sender puts the secret itself in a header; weaker than a signature',
		settings: ['sharedKeyHeader', 'bodyFormat'],
		bodyFormat: 'json',
		otherSenderHeaders: ['x-callback-token'],
	},
	slack: {
		name: 'Slack-Style',
		description: 'X-Slack-Signature: v0=… over "v0:{timestamp}:{body}", X-Slack-Request-Timestamp',
		settings: ['bodyFormat'],
		otherSenderHeaders: [],
		handshake: 'slackUrlVerification',
	},
	square: {
		name: 'Square-Style',
		description:
			'Base64 HMAC-SHA256 of the notification URL followed by the body, x-square-hmacsha256-signature',
		settings: ['signedUrl'],
		otherSenderHeaders: [],
	},
	standardWebhooks: {
		name: 'Standard Webhooks (Svix)',
		description:
			'Headers webhook-ID, webhook-timestamp, webhook-signature: v1,… (or the svix-* ones); whsec_ secret',
		settings: [],
		otherSenderHeaders: [],
		secretPrefix: 'whsec_',
	},
	stripe: {
		name: 'Stripe-Style',
		description: 'Stripe-Signature: t=…,v1=… over "{t}.{body}"',
		settings: [],
		otherSenderHeaders: [],
		secretPrefix: 'whsec_',
	},
	twilio: {
		name: 'Twilio-Style',
		description:
			'X-Twilio-Signature: HMAC-SHA1 of the URL and the sorted form fields; JSON when the URL carries bodySHA256',
		settings: ['signedUrl'],
		otherSenderHeaders: [],
		acknowledgement: EMPTY_TWIML,
		finishedStatus: 204,
	},
} satisfies Record<string, VerificationRow>;

export type VerificationName = keyof typeof VERIFICATIONS;

export const VERIFICATION_NAMES = Object.keys(VERIFICATIONS) as VerificationName[];

export function isVerificationName(value: unknown): value is VerificationName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(VERIFICATIONS, value);
}

/** A row with what its preset says added. */
function withPreset(name: VerificationName): Verification {
	const {
		otherSenderHeaders,
		acknowledgement = EMPTY_OK,
		finishedStatus = 200,
		...rest
	}: VerificationRow = VERIFICATIONS[name];
	const row = { ...rest, acknowledgement, finishedStatus };
	if (!isPresetName(name)) return { ...row, senderHeaders: otherSenderHeaders };
	const preset = PRESETS[name];
	const shows = (setting: VerificationSetting) => row.settings.includes(setting);
	// 'formUnlessBodyHash' is Twilio's, which shows no Body Format.
	const format =
		shows('bodyFormat') && preset.bodyFormat !== 'formUnlessBodyHash'
			? { bodyFormat: preset.bodyFormat }
			: {};
	const signatureHeaders = shows('signatureHeader') ? [] : headerNames(preset.signatureHeader);
	return { ...row, ...format, senderHeaders: [...signatureHeaders, ...otherSenderHeaders] };
}

const ENTRIES = Object.fromEntries(
	VERIFICATION_NAMES.map((name) => [name, withPreset(name)]),
) as Record<VerificationName, Verification>;

/** One entry of the table, with what its preset says. */
export const verificationOf = (name: VerificationName): Verification => ENTRIES[name];

/** The Verifications that show a setting. */
export function showing(setting: VerificationSetting): VerificationName[] {
	return VERIFICATION_NAMES.filter((name) => verificationOf(name).settings.includes(setting));
}

/** The Verifications whose signature always covers a timestamp (Custom HMAC: its template may). */
export function signingTimestamps(): VerificationName[] {
	return VERIFICATION_NAMES.filter((name) =>
		isPresetName(name)
			? usesPart(parseTemplate(PRESETS[name].signedContent) ?? [], 'timestamp')
			: name === 'customHmac',
	);
}

/** The Verifications with a Body Format setting whose default is `format`. */
export function bodyFormatDefaulting(format: BodyFormat): VerificationName[] {
	return showing('bodyFormat').filter((name) => verificationOf(name).bodyFormat === format);
}

/** The Verifications whose answer with Respond When the Workflow Finishes is not 200, with that status. */
export function finishedStatuses(): Array<[VerificationName, number]> {
	return VERIFICATION_NAMES.filter((name) => verificationOf(name).finishedStatus !== 200).map(
		(name) => [name, verificationOf(name).finishedStatus],
	);
}

/** The Verifications whose senders send one of these headers (names, lower case), in the table's order. */
export function verificationsOfSender(carried: string[]): VerificationName[] {
	return VERIFICATION_NAMES.filter((name) =>
		verificationOf(name).senderHeaders.some((header) => carried.includes(header)),
	);
}
