/**
 * The signing schemes the trigger verifies, one row each: how the node shows it, which settings it
 * shows, and how a delivery is checked under it. The node's description, the settings and the
 * refusal diagnosis are derived from this table; the property tests generate every row
 * (test/property/settings.ts).
 */
import { headerNames } from './headers';

export type HmacAlgorithm = 'sha1' | 'sha256' | 'sha512';

/**
 * How the secret text becomes the HMAC key: its UTF-8 bytes, base64 (an optional `whsec_` prefix
 * dropped) or hex.
 */
export type SecretEncoding = 'text' | 'base64' | 'hex';

/** How a signature is written: hex, base64 (or base64url), or either. */
export type SignatureEncoding = 'hex' | 'base64' | 'auto';

/**
 * - `plain`: signatures separated by commas or spaces; an `<algorithm>=` prefix naming the
 *   algorithm is tolerated.
 * - `prefixed`: every signature starts with `signatureLabel` (`v0=…`).
 * - `keyValue`: `key=value` pairs separated by `pairSeparator`; signatures under `signatureLabel`,
 *   the timestamp under `timestampKey` (`t=…,v1=…`).
 * - `versioned`: space-separated `<signatureLabel>,<signature>` entries (`v1,…`).
 */
export type SignatureFormat = 'plain' | 'prefixed' | 'keyValue' | 'versioned';

/** Everything the check of an HMAC signature needs. */
export interface HmacSigning {
	algorithm: HmacAlgorithm;
	secretEncoding: SecretEncoding;
	/** The signed bytes as a template (signedContent.ts): `{timestamp}.{body}`. */
	signedContent: string;
	/** Header names separated by commas: the first one present is read. */
	signatureHeader: string;
	signatureFormat: SignatureFormat;
	signatureEncoding: SignatureEncoding;
	signatureLabel: string;
	pairSeparator: string;
	timestampKey: string;
	/** Header of `{id}`, and of `{timestamp}` unless the signature header carries it (`keyValue`). */
	idHeader: string;
	timestampHeader: string;
	/** A signed timestamp further than this from now, either way, is refused. */
	toleranceSeconds: number;
}

/** How a delivery is checked. */
export type Check =
	| { kind: 'none' }
	| { kind: 'secretHeader'; header: string }
	| { kind: 'hmac'; signing: HmacSigning };

/** A setting of the node that only some schemes show. */
export type SchemeSetting =
	| 'signatureHeader'
	| 'useTimestamp'
	| 'tolerance'
	| 'custom'
	| 'sharedKeyHeader'
	| 'bodyFormat';

/** Reads one node parameter (as n8n resolved it); `fallback` when it is not set. */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

export interface Scheme {
	/** The option's name in the node: what is signed, not who signs. */
	name: string;
	description: string;
	settings: SchemeSetting[];
	/** The check of a delivery under the node's parameters. */
	checkFrom: (read: ParameterReader) => Check;
	/**
	 * How every secret of the scheme begins, when one does: a refusal names a secret that looks like
	 * another's.
	 */
	secretPrefix?: string;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A text parameter, trimmed; the fallback when it is blank. */
export function textSetting(read: ParameterReader, name: string, fallback: string): string {
	const value = read(name, fallback);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/** A header setting (names separated by commas); the fallback when it names none. */
export function headerSetting(read: ParameterReader, name: string, fallback: string): string {
	const value = textSetting(read, name, fallback);
	return headerNames(value).length > 0 ? value : fallback;
}

function tolerance(read: ParameterReader): number {
	const value = Number(read('toleranceSeconds', DEFAULT_TOLERANCE_SECONDS));
	return Number.isFinite(value) && value > 0 ? value : DEFAULT_TOLERANCE_SECONDS;
}

/**
 * An HMAC-SHA256 of the body alone, its signature in `x-signature`: what every other HMAC row
 * changes.
 */
const BODY_SIGNING: HmacSigning = {
	algorithm: 'sha256',
	secretEncoding: 'text',
	signedContent: '{body}',
	signatureHeader: 'x-signature',
	signatureFormat: 'plain',
	signatureEncoding: 'auto',
	signatureLabel: '',
	pairSeparator: ',',
	timestampKey: 't',
	idHeader: '',
	timestampHeader: '',
	toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
};

/** HMAC of the body, optionally of a timestamp (its own header), a dot and the body. */
function bodyHmac(algorithm: HmacAlgorithm): (read: ParameterReader) => Check {
	return (read) => {
		const signing: HmacSigning = {
			...BODY_SIGNING,
			algorithm,
			signatureHeader: headerSetting(read, 'signatureHeader', BODY_SIGNING.signatureHeader),
			toleranceSeconds: tolerance(read),
		};
		if (read('useTimestamp', false) === true) {
			signing.signedContent = '{timestamp}.{body}';
			signing.timestampHeader = headerSetting(read, 'timestampHeader', 'x-timestamp');
		}
		return { kind: 'hmac', signing };
	};
}

/** Custom HMAC: every field of a signing has a setting. */
function customSigning(read: ParameterReader): Check {
	// Unlike the other fields, an empty label or separator can be meant: read them as typed.
	const raw = (name: string, fallback: string) => {
		const value = read(name, fallback);
		return typeof value === 'string' ? value.trim() : fallback;
	};
	return {
		kind: 'hmac',
		signing: {
			algorithm: textSetting(read, 'customAlgorithm', 'sha256') as HmacAlgorithm,
			secretEncoding: textSetting(read, 'customSecretEncoding', 'text') as SecretEncoding,
			signedContent: raw('customSignedContent', '{timestamp}.{body}'),
			signatureHeader: headerSetting(read, 'customSignatureHeader', 'x-signature'),
			signatureFormat: textSetting(read, 'customSignatureFormat', 'plain') as SignatureFormat,
			signatureEncoding: textSetting(read, 'customSignatureEncoding', 'auto') as SignatureEncoding,
			signatureLabel: raw('customSignatureLabel', 'v1'),
			pairSeparator: raw('customPairSeparator', ',') || ',',
			timestampKey: textSetting(read, 'customTimestampKey', 't'),
			idHeader: headerSetting(read, 'customIdHeader', 'webhook-id'),
			timestampHeader: headerSetting(read, 'customTimestampHeader', 'x-timestamp'),
			toleranceSeconds: tolerance(read),
		},
	};
}

export const SCHEMES = {
	hmacSha256: {
		name: 'HMAC-SHA256 of the Body',
		description:
			'HMAC-SHA256 of the exact request bytes (or of a timestamp, a dot and the bytes), hex or base64, optional sha256= prefix',
		settings: ['signatureHeader', 'useTimestamp', 'bodyFormat'],
		checkFrom: bodyHmac('sha256'),
	},
	hmacSha512: {
		name: 'HMAC-SHA512 of the Body',
		description:
			'HMAC-SHA512 of the exact request bytes (or of a timestamp, a dot and the bytes), hex or base64, optional sha512= prefix',
		settings: ['signatureHeader', 'useTimestamp', 'bodyFormat'],
		checkFrom: bodyHmac('sha512'),
	},
	timestampedSignatures: {
		name: 'HMAC-SHA256 of Timestamp and Body (t=…,v1=… Header)',
		description:
			'One header holds the timestamp and the signatures, t=…,v1=… (hex), over "{t}.{body}", as Stripe signs',
		settings: ['signatureHeader', 'tolerance', 'bodyFormat'],
		checkFrom: (read) => ({
			kind: 'hmac',
			signing: {
				...BODY_SIGNING,
				signedContent: '{timestamp}.{body}',
				signatureHeader: headerSetting(read, 'signatureHeader', BODY_SIGNING.signatureHeader),
				signatureFormat: 'keyValue',
				signatureEncoding: 'hex',
				signatureLabel: 'v1',
				toleranceSeconds: tolerance(read),
			},
		}),
	},
	standardWebhooks: {
		name: 'Standard Webhooks',
		description:
			'Headers webhook-ID, webhook-timestamp and webhook-signature (v1,… base64) over "{ID}.{timestamp}.{body}"; whsec_ secret',
		settings: ['tolerance'],
		secretPrefix: 'whsec_',
		checkFrom: (read) => ({
			kind: 'hmac',
			signing: {
				...BODY_SIGNING,
				secretEncoding: 'base64',
				signedContent: '{id}.{timestamp}.{body}',
				signatureHeader: 'webhook-signature',
				signatureFormat: 'versioned',
				signatureEncoding: 'base64',
				signatureLabel: 'v1',
				idHeader: 'webhook-id',
				timestampHeader: 'webhook-timestamp',
				toleranceSeconds: tolerance(read),
			},
		}),
	},
	customHmac: {
		name: 'Custom HMAC',
		description:
			'Choose the algorithm, the secret encoding, the signed content (body, timestamp, ID, URL, a header, text) and the signature header yourself',
		settings: ['custom', 'tolerance', 'bodyFormat'],
		checkFrom: customSigning,
	},
	secretHeader: {
		name: 'Secret in Header (Weaker)',
		description:
			'The sender puts the secret itself in a header: it proves the sender knows the secret, but nothing ties the body to it',
		settings: ['sharedKeyHeader', 'bodyFormat'],
		checkFrom: (read) => ({
			kind: 'secretHeader',
			header: headerSetting(read, 'sharedKeyHeader', 'x-webhook-secret'),
		}),
	},
	none: {
		name: 'None (Insecure, Local Tests Only)',
		description: 'Accept every request without checking who sent it',
		settings: ['bodyFormat'],
		checkFrom: () => ({ kind: 'none' }),
	},
} satisfies Record<string, Scheme>;

export type SchemeName = keyof typeof SCHEMES;

export const SCHEME_NAMES = Object.keys(SCHEMES) as SchemeName[];

export function isSchemeName(value: unknown): value is SchemeName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(SCHEMES, value);
}

export const schemeOf = (name: SchemeName): Scheme => SCHEMES[name];

/** The schemes that show a setting. */
export function showing(setting: SchemeSetting): SchemeName[] {
	return SCHEME_NAMES.filter((name) => schemeOf(name).settings.includes(setting));
}

/** Each scheme's check with every setting at its default. */
export function defaultCheck(name: SchemeName): Check {
	return schemeOf(name).checkFrom((_setting, fallback) => fallback);
}
