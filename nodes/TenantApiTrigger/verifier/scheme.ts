import type { BodyFormat } from './body';

/**
 * One description of an HMAC signing scheme. Every preset is a value of this type, and the Custom HMAC
 * settings build one too, so a single verifier (verify.ts) checks all of them.
 */
export type HmacAlgorithm = 'sha1' | 'sha256' | 'sha512';

/** How the secret text becomes the HMAC key: its UTF-8 bytes, base64 (an optional `whsec_` prefix is dropped) or hex. */
export type SecretEncoding = 'text' | 'base64' | 'hex';

/** How a signature is written: hex, base64 (or base64url), or either. */
export type SignatureEncoding = 'hex' | 'base64' | 'auto';

/**
 * - `plain`: the signature itself; several may be separated by commas or spaces; an `<algorithm>=` prefix naming
 *   the scheme's algorithm is tolerated (`sha256=…`, GitHub).
 * - `prefixed`: every signature starts with `label` (`v0=…`, Slack).
 * - `keyValue`: `key=value` pairs separated by `pairSeparator`; signatures under the key `label`, the timestamp
 *   under `timestampKey` (`t=…,v1=…`, Stripe; `ts=…;h1=…`, Paddle).
 * - `versioned`: space-separated `<label>,<signature>` entries (`v1,…`, Standard Webhooks).
 */
export type SignatureFormat = 'plain' | 'prefixed' | 'keyValue' | 'versioned';

/**
 * The JSON type a signed item field must have (`{item.<path>}`), so that one signed text cannot be sent as another
 * type: `text` (a string, or absent), `textWithoutColon` (the same without `:`, so that fields joined by `:` split
 * one way only), `wholeNumber` (a safe integer, present). Fields without a type may be a string, a finite number,
 * a boolean, null or absent; objects and lists are refused.
 */
export type ItemFieldType = 'text' | 'textWithoutColon' | 'wholeNumber';

export interface SchemeSpec {
	/**
	 * How the body is read, whatever the request's Content-Type says: JSON, form fields, or `formUnlessBodyHash`
	 * (Twilio: JSON when the signed URL carries the body hash parameter, form fields otherwise).
	 */
	bodyFormat: BodyFormat | 'formUnlessBodyHash';
	algorithm: HmacAlgorithm;
	secretEncoding: SecretEncoding;
	/**
	 * The signed bytes, as a template: `{id}`, `{timestamp}`, `{body}` (the raw bytes), `{url}` (the full URL the
	 * sender called), `{formFields}` (form fields sorted by name, each name followed by its value),
	 * `{item.<path>}` (a field of each body item, with `signatureIn: 'items'`); anything else is literal.
	 */
	signedContent: string;
	/** Where the signature travels: a header, or a field inside each item of the JSON body (Adyen payments). */
	signatureIn: 'header' | 'items';
	/** Signature header; comma-separated alternatives, the first one present is read. */
	signatureHeader: string;
	signatureFormat: SignatureFormat;
	signatureEncoding: SignatureEncoding;
	/** Prefix (`prefixed`), version label (`versioned`) or signature key (`keyValue`). */
	signatureLabel: string;
	/** `keyValue` only: the separator between pairs and the key of the timestamp. */
	pairSeparator: string;
	timestampKey: string;
	/** Header of the signed delivery id (`{id}`); comma-separated alternatives. */
	idHeader: string;
	/** Header of the signed timestamp (`{timestamp}`) unless the signature header carries it (`keyValue`). */
	timestampHeader: string;
	/** Deliveries whose signed timestamp is further than this from now, either way, are refused. */
	toleranceSeconds: number;
	/** `items` only: dot path of the item list (`*` = every element) and of the signature inside an item. */
	itemsPath: string;
	itemSignaturePath: string;
	/** `items` only: the type each signed field must have (see ItemFieldType). */
	itemFieldTypes: Record<string, ItemFieldType>;
	/**
	 * `items` only: top-level keys the body may have beside the first key of `itemsPath` (Adyen's unsigned `live`).
	 * Nothing else may sit on the way to the items.
	 */
	bodyKeys: string[];
	/** `items` only: signed fields of each item that identify it (empty: all signed fields); the delivery id joins the items' ids, sorted. */
	itemIdFields: string[];
	/**
	 * `items` only: what the workflow gets: the whole body (Adyen, whose unsigned item fields are documented), or
	 * the signed fields alone (signedView), each as the text that was signed.
	 */
	itemsOutput: 'body' | 'signedFields';
	/**
	 * Query parameter holding the SHA-256 (hex) of the body (Twilio, JSON). When the signed URL carries it, the body
	 * must match it; a signature that covers neither the body nor the form fields needs it.
	 */
	bodyHashParameter: string;
	/** Body fields that identify the delivery when no id is signed in a header (joined with ':'). */
	idFields: string[];
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

const BASE: SchemeSpec = {
	bodyFormat: 'json',
	algorithm: 'sha256',
	secretEncoding: 'text',
	signedContent: '{body}',
	signatureIn: 'header',
	signatureHeader: 'x-signature',
	signatureFormat: 'plain',
	signatureEncoding: 'auto',
	signatureLabel: '',
	pairSeparator: ',',
	timestampKey: 't',
	idHeader: '',
	timestampHeader: '',
	toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
	itemsPath: '',
	itemSignaturePath: '',
	itemFieldTypes: {},
	bodyKeys: [],
	itemIdFields: [],
	itemsOutput: 'signedFields',
	bodyHashParameter: '',
	idFields: ['id'],
};

export type PresetName =
	| 'standardWebhooks'
	| 'stripe'
	| 'slack'
	| 'paddle'
	| 'hmacSha256'
	| 'hmacSha512'
	| 'square'
	| 'adyenPlatform'
	| 'adyenPayments'
	| 'twilio';

/** The named presets (the fields of `hmacSha256`/`hmacSha512` that the node lets the user change are set by it). */
export const PRESETS: Record<PresetName, SchemeSpec> = {
	standardWebhooks: {
		...BASE,
		secretEncoding: 'base64',
		signedContent: '{id}.{timestamp}.{body}',
		signatureHeader: 'webhook-signature, svix-signature',
		signatureFormat: 'versioned',
		signatureEncoding: 'base64',
		signatureLabel: 'v1',
		idHeader: 'webhook-id, svix-id',
		timestampHeader: 'webhook-timestamp, svix-timestamp',
		idFields: [],
	},
	stripe: {
		...BASE,
		signedContent: '{timestamp}.{body}',
		signatureHeader: 'stripe-signature',
		signatureFormat: 'keyValue',
		signatureEncoding: 'hex',
		signatureLabel: 'v1',
		pairSeparator: ',',
		timestampKey: 't',
	},
	slack: {
		...BASE,
		bodyFormat: 'form',
		signedContent: 'v0:{timestamp}:{body}',
		signatureHeader: 'x-slack-signature',
		signatureFormat: 'prefixed',
		signatureEncoding: 'hex',
		signatureLabel: 'v0=',
		timestampHeader: 'x-slack-request-timestamp',
		idFields: ['event_id'],
	},
	paddle: {
		...BASE,
		signedContent: '{timestamp}:{body}',
		signatureHeader: 'paddle-signature',
		signatureFormat: 'keyValue',
		signatureEncoding: 'hex',
		signatureLabel: 'h1',
		pairSeparator: ';',
		timestampKey: 'ts',
		idFields: ['event_id'],
	},
	hmacSha256: { ...BASE },
	hmacSha512: { ...BASE, algorithm: 'sha512' },
	square: {
		...BASE,
		signedContent: '{url}{body}',
		signatureHeader: 'x-square-hmacsha256-signature',
		signatureEncoding: 'base64',
		idFields: ['event_id'],
	},
	adyenPlatform: {
		...BASE,
		secretEncoding: 'hex',
		signatureHeader: 'hmacsignature',
		signatureEncoding: 'base64',
		idFields: [],
	},
	adyenPayments: {
		...BASE,
		secretEncoding: 'hex',
		signedContent:
			'{item.pspReference}:{item.originalReference}:{item.merchantAccountCode}:{item.merchantReference}:{item.amount.value}:{item.amount.currency}:{item.eventCode}:{item.success}',
		signatureIn: 'items',
		signatureHeader: '',
		signatureEncoding: 'base64',
		itemsPath: 'notificationItems.*.NotificationRequestItem',
		itemSignaturePath: 'additionalData.hmacSignature',
		// What Adyen sends: references, codes and flags are text without ':' (merchantReference is free text), the
		// amount a whole number of minor units, so that the ':'-joined signed text splits into fields one way only.
		itemFieldTypes: {
			pspReference: 'textWithoutColon',
			originalReference: 'textWithoutColon',
			merchantAccountCode: 'textWithoutColon',
			merchantReference: 'text',
			'amount.value': 'wholeNumber',
			'amount.currency': 'textWithoutColon',
			eventCode: 'textWithoutColon',
			success: 'textWithoutColon',
		},
		bodyKeys: ['live'],
		itemIdFields: ['eventCode', 'pspReference', 'success'],
		itemsOutput: 'body',
		idFields: [],
	},
	twilio: {
		...BASE,
		bodyFormat: 'formUnlessBodyHash',
		algorithm: 'sha1',
		signedContent: '{url}{formFields}',
		signatureHeader: 'x-twilio-signature',
		signatureEncoding: 'base64',
		bodyHashParameter: 'bodySHA256',
		idFields: [],
	},
};

export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export function isPresetName(value: unknown): value is PresetName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(PRESETS, value);
}
