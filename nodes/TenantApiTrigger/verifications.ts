/**
 * The Verifications the trigger offers, one row each: how the node shows it, which settings it
 * shows, and what a delivery is checked against under those settings. The node's description, the
 * settings and the refusal diagnosis are derived from this table; the property tests generate
 * every row (test/property/settings.ts).
 */
import type { Parameters } from './settings';

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

/**
 * An HMAC Verification under the node's settings. A header setting is a list of lower-case names:
 * the first one the request carries is read.
 */
export interface HmacVerification {
	kind: 'hmac';
	algorithm: HmacAlgorithm;
	secretEncoding: SecretEncoding;
	/** The signed bytes as a template (signedContent.ts): `{timestamp}.{body}`. */
	signedContent: string;
	signatureHeader: string[];
	signatureFormat: SignatureFormat;
	signatureEncoding: SignatureEncoding;
	signatureLabel: string;
	pairSeparator: string;
	timestampKey: string;
	/** Header of `{id}`, and of `{timestamp}` unless the signature header carries it (`keyValue`). */
	idHeader: string[];
	timestampHeader: string[];
	/** A signed timestamp further than this from now, either way, is refused. */
	toleranceSeconds: number;
}

/** What a row makes of the node's settings. */
export type VerificationKind =
	| { kind: 'none' }
	| { kind: 'secretHeader'; header: string[] }
	| HmacVerification;

/** A setting of the node that only some Verifications show. */
export type VerificationSetting =
	| 'signatureHeader'
	| 'useTimestamp'
	| 'tolerance'
	| 'custom'
	| 'sharedKeyHeader'
	| 'bodyFormat';

export interface VerificationOption {
	/** The option's name in the node: what is signed, not who signs. */
	name: string;
	description: string;
	settings: VerificationSetting[];
	/** What a delivery is checked against under the node's parameters. */
	verify: (parameters: Parameters) => VerificationKind;
	/**
	 * How every secret of the Verification begins, when one does: a refusal names a secret that looks
	 * like another's.
	 */
	secretPrefix?: string;
}

/** HMAC-SHA256 of the body alone, in `x-signature`: what the other HMAC rows change. */
const BODY_HMAC: Omit<HmacVerification, 'toleranceSeconds'> = {
	kind: 'hmac',
	algorithm: 'sha256',
	secretEncoding: 'text',
	signedContent: '{body}',
	signatureHeader: ['x-signature'],
	signatureFormat: 'plain',
	signatureEncoding: 'auto',
	signatureLabel: '',
	pairSeparator: ',',
	timestampKey: 't',
	idHeader: [],
	timestampHeader: [],
};

/** HMAC of the body, optionally of a timestamp (its own header), a dot and the body. */
const bodyHmac =
	(algorithm: HmacAlgorithm) =>
	(parameters: Parameters): HmacVerification => ({
		...BODY_HMAC,
		algorithm,
		signatureHeader: parameters.headers('signatureHeader'),
		toleranceSeconds: parameters.seconds('toleranceSeconds'),
		...(parameters.flag('useTimestamp')
			? {
					signedContent: '{timestamp}.{body}',
					timestampHeader: parameters.headers('timestampHeader'),
				}
			: {}),
	});

/** The row of HMAC of the body alone with `algorithm`. */
const bodyHmacRow = (algorithm: HmacAlgorithm) => {
	const name = algorithm.toUpperCase();
	return {
		name: `HMAC-${name} of the Body`,
		description: `HMAC-${name} of the exact request bytes (or of a timestamp, a dot and the bytes), hex or base64, optional ${algorithm}= prefix`,
		settings: ['signatureHeader', 'useTimestamp', 'bodyFormat'],
		verify: bodyHmac(algorithm),
	} satisfies VerificationOption;
};

const ROWS = {
	hmacSha256: bodyHmacRow('sha256'),
	hmacSha512: bodyHmacRow('sha512'),
	timestampedSignatures: {
		name: 'HMAC-SHA256 of Timestamp and Body (t=…,v1=… Header)',
		description:
			'One header holds the timestamp and the signatures, t=…,v1=… (hex), over "{t}.{body}", as Stripe signs',
		settings: ['signatureHeader', 'tolerance', 'bodyFormat'],
		verify: (parameters) => ({
			...BODY_HMAC,
			signedContent: '{timestamp}.{body}',
			signatureHeader: parameters.headers('signatureHeader'),
			signatureFormat: 'keyValue',
			signatureEncoding: 'hex',
			signatureLabel: 'v1',
			toleranceSeconds: parameters.seconds('toleranceSeconds'),
		}),
	},
	standardWebhooks: {
		name: 'Standard Webhooks',
		description:
			'Headers webhook-ID, webhook-timestamp and webhook-signature (v1,… base64) over "{ID}.{timestamp}.{body}"; whsec_ secret',
		settings: ['tolerance'],
		secretPrefix: 'whsec_',
		verify: (parameters) => ({
			...BODY_HMAC,
			secretEncoding: 'base64',
			signedContent: '{id}.{timestamp}.{body}',
			signatureHeader: ['webhook-signature'],
			signatureFormat: 'versioned',
			signatureEncoding: 'base64',
			signatureLabel: 'v1',
			idHeader: ['webhook-id'],
			timestampHeader: ['webhook-timestamp'],
			toleranceSeconds: parameters.seconds('toleranceSeconds'),
		}),
	},
	customHmac: {
		name: 'Custom HMAC',
		description:
			'Choose the algorithm, the secret encoding, the signed content (body, timestamp, ID, URL, a header, text) and the signature header yourself',
		settings: ['custom', 'tolerance', 'bodyFormat'],
		// Every field of an HMAC Verification is a setting.
		verify: (parameters) => ({
			kind: 'hmac',
			algorithm: parameters.text('customAlgorithm') as HmacAlgorithm,
			secretEncoding: parameters.text('customSecretEncoding') as SecretEncoding,
			signedContent: parameters.typed('customSignedContent'),
			signatureHeader: parameters.headers('customSignatureHeader'),
			signatureFormat: parameters.text('customSignatureFormat') as SignatureFormat,
			signatureEncoding: parameters.text('customSignatureEncoding') as SignatureEncoding,
			signatureLabel: parameters.typed('customSignatureLabel'),
			pairSeparator: parameters.text('customPairSeparator'),
			timestampKey: parameters.text('customTimestampKey'),
			idHeader: parameters.headers('customIdHeader'),
			timestampHeader: parameters.headers('customTimestampHeader'),
			toleranceSeconds: parameters.seconds('toleranceSeconds'),
		}),
	},
	secretHeader: {
		name: 'Secret in Header (Weaker)',
		description:
			'The sender puts the secret itself in a header: it proves the sender knows the secret, but nothing ties the body to it',
		settings: ['sharedKeyHeader', 'bodyFormat'],
		verify: (parameters) => ({
			kind: 'secretHeader',
			header: parameters.headers('sharedKeyHeader'),
		}),
	},
	none: {
		name: 'None (Insecure, Local Tests Only)',
		description: 'Accept every request without checking who sent it',
		settings: ['bodyFormat'],
		verify: () => ({ kind: 'none' }),
	},
} satisfies Record<string, VerificationOption>;

export type VerificationName = keyof typeof ROWS;

export const VERIFICATIONS: Record<VerificationName, VerificationOption> = ROWS;

export const VERIFICATION_NAMES = Object.keys(VERIFICATIONS) as VerificationName[];

/** What a delivery is checked against: a Verification under the node's settings. */
export type Verification = VerificationKind & { name: VerificationName };

export function isVerificationName(value: unknown): value is VerificationName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(VERIFICATIONS, value);
}

/** The Verifications that show a setting. */
export function showing(setting: VerificationSetting): VerificationName[] {
	return VERIFICATION_NAMES.filter((name) => VERIFICATIONS[name].settings.includes(setting));
}

/** The header names a Verification reads its signature (or shared key) from. */
export const expectedHeaders = (verification?: VerificationKind) =>
	verification?.kind === 'hmac'
		? verification.signatureHeader
		: verification?.kind === 'secretHeader'
			? verification.header
			: [];

/** Every header name a Verification reads. */
export const headersRead = (verification?: VerificationKind) =>
	verification?.kind === 'hmac'
		? [...verification.signatureHeader, ...verification.timestampHeader, ...verification.idHeader]
		: expectedHeaders(verification);
