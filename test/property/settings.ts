/**
 * Generated trigger set-ups: every row of VERIFICATIONS (nodes/TenantApiTrigger/verifications.ts), each with every setting the
 * node shows for it (header names in any case and shape, Use Timestamp and its header, Tolerance, Body Format, every
 * Custom HMAC field, Signed URL, Secret in Header's header list), now and then a setting another row shows left in
 * the parameters; the options (Delivery ID Fields, Event Path, Include Headers, Include Query Parameters, Record
 * Refused Deliveries), Events and Respond; the credential's secrets (current, previous, Test URL: blank, padded,
 * equal to another, not valid in the key's encoding) and the URL the sender delivers to (Test URL or production).
 * Each set-up says how its sender signs (a sender of that scheme set up to match: sender.ts signs with it) and the
 * setting values it exercises (`dims`, reported by the campaign).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';

import { showsSetting } from './coverage';
import type { Format } from './reading';
import type { Piece } from './templates';
import { placeholdersOf, templateProblems, templateText, templates } from './templates';

export type Algorithm = 'sha1' | 'sha256' | 'sha512';
export type KeyEncoding = 'text' | 'hex' | 'base64';
export type SignatureFormat = 'plain' | 'prefixed' | 'keyValue' | 'versioned';
/** How a sender writes a signature: each one a form the setting accepts. */
export type SignatureText = 'hex' | 'HEX' | 'base64' | 'base64url' | 'base64 unpadded';

/** An HMAC scheme as its sender implements it. */
export interface HmacSender {
	kind: 'hmac';
	algorithm: Algorithm;
	keyEncoding: KeyEncoding;
	template: Piece[];
	/** The header names the sender uses (one of each setting's list). */
	signatureHeader: string;
	timestampHeader: string;
	idHeader: string;
	format: SignatureFormat;
	label: string;
	pairSeparator: string;
	timestampKey: string;
	/** The forms of a signature the settings accept (the sender writes one of them). */
	texts: SignatureText[];
	/** Plain signatures may start with `<algorithm>=`. */
	algorithmPrefix: boolean;
	/** Signed URL set: the URL the sender calls instead of the webhook's (its query and fragment are not signed). */
	signedUrl?: string;
}

export type Sender = HmacSender | { kind: 'secretHeader'; header: string } | { kind: 'none' };

export type SecretName = 'current' | 'previous' | 'test';
export type CredentialField = 'signingSecret' | 'previousSigningSecret' | 'testSigningSecret';
export const CREDENTIAL_FIELDS: Record<SecretName, CredentialField> = {
	current: 'signingSecret',
	previous: 'previousSigningSecret',
	test: 'testSigningSecret',
};

/** What the chosen settings mean to the trigger (each value's documented meaning), for the model (oracle.ts). */
export interface Meaning {
	/** Header names in the order they are tried. */
	signatureHeaders: string[];
	timestampHeaders: string[];
	idHeaders: string[];
	secretHeaders: string[];
	/** Seconds a signed timestamp may be off. */
	tolerance: number;
	/** Signed Content as read: Custom HMAC's setting, each other HMAC row's own. */
	template: string;
}

export interface Setup {
	verification: VerificationName;
	/** The node's parameters as n8n stores them (`verification` among them). */
	parameters: IDataObject;
	/** The credential's fields (none for None, which selects no credential). */
	credential: Record<CredentialField, string>;
	/** The sender delivers to the editor's Test URL (n8n runs it in manual mode), else to the Production URL. */
	testUrl: boolean;
	/** The secret the sender signs with (none for None). */
	signWith: SecretName | null;
	/** How the body is read: the Body Format where the scheme shows it, else JSON. */
	format: Format;
	sender: Sender;
	meaning: Meaning;
	dims: Array<[string, string]>;
}

/** The webhook URLs n8n shows (production, Test URL); a request's query string is appended as sent. */
export const PRODUCTION_URL = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
export const TEST_URL = 'https://n8n.example.com/webhook-test/5b0c7e1a/webhook';
export const SIGNED_URL = 'https://proxy.example.com/hooks/tenant';

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const rarely = <T>(usual: fc.Arbitrary<T>, rare: fc.Arbitrary<T>) =>
	fc.oneof({ arbitrary: usual, weight: 6 }, { arbitrary: rare, weight: 1 });

// ---- secrets ----

/**
 * Secrets of each key encoding, two of each name: long, with upper-case letters (a secret copied into a header name
 * arrives in lower case), some with `+`, `/` and `=` (spelled otherwise in a URL, a query or JSON), none a part of
 * another.
 */
const SECRETS: Record<KeyEncoding, Record<SecretName, string[]>> = {
	text: {
		current: ['Cur7Xq9Lm2Vb8Np4Rt6Kz1', 'whsec_Txt+Current/Q2W4=E6R8'],
		previous: ['Prev-Q8wE4rT6yU2iO0pA3sD5', 'Old+Rotated/Key=Zm5Xn7Cb9'],
		test: ['TestSecret-Hj5Kl7Zx9Cv1Bn3', 'Editor+Only/Fg4Hj6=Kl8Mn0'],
	},
	hex: {
		current: [
			'9F3A7C21D4E5B6A8091726354A5B6C7D8E9F00112233445566778899AABBCCDD',
			'a1b2c3d4e5f60718293a4b5c6d7e8f90',
		],
		previous: ['0123456789ABCDEF0123456789ABCDEF', 'deadBEEFcafeF00D1234567890abcdef'],
		test: ['F0E1D2C3B4A5968778695A4B3C2D1E0F', 'c0ffee00C0FFEE11c0ffee22C0FFEE33'],
	},
	base64: {
		current: [
			`whsec_${Buffer.from('current signing key: 32 bytes!!').toString('base64')}`,
			Buffer.from('current~key>>without?prefix').toString('base64'),
		],
		previous: [
			`whsec_${Buffer.from('previous rotated signing key ###').toString('base64url')}`,
			`whsec_${Buffer.from('Previous Key Unpadded?').toString('base64').replace(/=+$/, '')}`,
		],
		test: [
			`whsec_${Buffer.from('test URL signing key, editor only').toString('base64')}`,
			Buffer.from('Test-Url-Key-Bytes').toString('base64url'),
		],
	},
};

/** Text no key encoding but `text` reads: not hex, not base64. */
const INVALID_KEY = 'not a key: ?!';

type SecretShape =
	| 'set'
	| 'padded'
	| 'blank'
	| 'same as current'
	| 'not valid in the encoding'
	| 'unset';

/** The credential's three fields: the current secret always set (padded now and then), the others in any shape. */
const credentials = (encoding: KeyEncoding) =>
	fc
		.record({
			variant: fc.nat(1),
			current: rarely(pick<SecretShape>('set'), pick<SecretShape>('padded')),
			previous: pick<SecretShape>(
				'unset',
				'set',
				'set',
				'blank',
				'same as current',
				'not valid in the encoding',
			),
			test: pick<SecretShape>('unset', 'set', 'set', 'blank', 'same as current', 'padded'),
		})
		.map(({ variant, current, previous, test }) => {
			const secret = (name: SecretName, shape: SecretShape): string => {
				const own = SECRETS[encoding][name][variant];
				if (shape === 'unset') return '';
				if (shape === 'blank') return '  ';
				if (shape === 'padded') return ` ${own}\t`;
				if (shape === 'same as current') return SECRETS[encoding].current[variant];
				if (shape === 'not valid in the encoding') return encoding === 'text' ? own : INVALID_KEY;
				return own;
			};
			return {
				credential: {
					signingSecret: secret('current', current),
					previousSigningSecret: secret('previous', previous),
					testSigningSecret: secret('test', test),
				},
				dims: [
					['credential: current', current],
					['credential: previous', previous],
					['credential: test', test],
				] as Array<[string, string]>,
			};
		});

// ---- header settings ----

/** A header setting as users type it, and the name the sender uses. */
interface HeaderChoice {
	setting: string | undefined;
	sent: string;
	/** The names the setting means, in the order they are tried. */
	names: string[];
	shape: string;
}

/** Header settings of a default name: unset, blank, in upper case, in a list, with stray commas and blanks, another name. */
function headerSetting(fallback: string, other: string): fc.Arbitrary<HeaderChoice> {
	const alone = [fallback];
	return pick<HeaderChoice>(
		{ setting: undefined, sent: fallback, names: alone, shape: 'unset' },
		{ setting: '', sent: fallback, names: alone, shape: 'blank' },
		{ setting: ' , ,', sent: fallback, names: alone, shape: 'no names' },
		{ setting: fallback.toUpperCase(), sent: fallback, names: alone, shape: 'upper case' },
		{
			setting: `x-alias-first, ${fallback}`,
			sent: fallback,
			names: ['x-alias-first', fallback],
			shape: 'list, sent second',
		},
		{
			setting: `${fallback},x-alias-second`,
			sent: fallback,
			names: [fallback, 'x-alias-second'],
			shape: 'list, sent first',
		},
		{ setting: `${fallback},`, sent: fallback, names: alone, shape: 'trailing comma' },
		{ setting: ` ${fallback} `, sent: fallback, names: alone, shape: 'blanks' },
		{
			setting: other,
			sent: other.toLowerCase(),
			names: [other.toLowerCase()],
			shape: 'another name',
		},
	);
}

const withSetting = (parameters: IDataObject, name: string, choice: HeaderChoice) =>
	choice.setting === undefined ? parameters : { ...parameters, [name]: choice.setting };

// ---- tolerance, body format ----

type ToleranceChoice = { value: unknown; seconds: number; shape: string };
const tolerance: fc.Arbitrary<ToleranceChoice> = pick<ToleranceChoice>(
	{ value: undefined, seconds: 300, shape: 'unset (300)' },
	{ value: 300, seconds: 300, shape: '300' },
	{ value: 1, seconds: 1, shape: '1' },
	{ value: 60, seconds: 60, shape: '60' },
	{ value: 86_400, seconds: 86_400, shape: '86400' },
	{ value: 10_000_000_000, seconds: 10_000_000_000, shape: '1e10' },
	{ value: 0.5, seconds: 0.5, shape: '0.5' },
	{ value: 0, seconds: 300, shape: '0 (reads 300)' },
	{ value: -5, seconds: 300, shape: 'negative (reads 300)' },
	{ value: 'soon', seconds: 300, shape: 'text (reads 300)' },
);
const withTolerance = (parameters: IDataObject, choice: ToleranceChoice) =>
	choice.value === undefined ? parameters : { ...parameters, toleranceSeconds: choice.value };

type FormatChoice = { value: unknown; format: Format };
const bodyFormat: fc.Arbitrary<FormatChoice> = pick<FormatChoice>(
	{ value: undefined, format: 'json' },
	{ value: 'json', format: 'json' },
	{ value: 'form', format: 'form' },
	{ value: 'form', format: 'form' },
);
const withFormat = (parameters: IDataObject, choice: FormatChoice) =>
	choice.value === undefined ? parameters : { ...parameters, bodyFormat: choice.value };

/** The part of a set-up a scheme decides. */
interface SchemePart {
	parameters: IDataObject;
	sender: Sender;
	meaning: Meaning;
	format: Format;
	encoding: KeyEncoding;
	dims: Array<[string, string]>;
}

const ALL_TEXTS: SignatureText[] = ['hex', 'HEX', 'base64', 'base64url', 'base64 unpadded'];
const BASE64_TEXTS: SignatureText[] = ['base64', 'base64url', 'base64 unpadded'];

const BODY: Piece = { placeholder: 'body', spelled: 'body' };
const TIMESTAMP_DOT_BODY: Piece[] = [
	{ placeholder: 'timestamp', spelled: 'timestamp' },
	{ literal: '.' },
	BODY,
];

const MEANING: Meaning = {
	signatureHeaders: ['x-signature'],
	timestampHeaders: ['x-timestamp'],
	idHeaders: ['webhook-id'],
	secretHeaders: ['x-webhook-secret'],
	tolerance: 300,
	template: '{body}',
};

const hmacDefaults = {
	kind: 'hmac' as const,
	keyEncoding: 'text' as KeyEncoding,
	timestampHeader: 'x-timestamp',
	idHeader: 'webhook-id',
	format: 'plain' as SignatureFormat,
	label: '',
	pairSeparator: ',',
	timestampKey: 't',
	algorithmPrefix: true,
};

/** HMAC of the body (SHA-256 or SHA-512), with Use Timestamp its timestamp, a dot and the body. */
const bodyHmac = (algorithm: 'sha256' | 'sha512'): fc.Arbitrary<SchemePart> =>
	fc
		.record({
			header: headerSetting('x-signature', 'X-Acme-Signature'),
			useTimestamp: pick<boolean | undefined>(undefined, false, true, true),
			timestampHeader: headerSetting('x-timestamp', 'X-Acme-Sent-At'),
			tolerance,
			format: bodyFormat,
		})
		.map(({ header, useTimestamp, timestampHeader, tolerance: seconds, format }) => {
			let parameters: IDataObject = withFormat(withSetting({}, 'signatureHeader', header), format);
			if (useTimestamp !== undefined) parameters.useTimestamp = useTimestamp;
			if (useTimestamp === true)
				parameters = withTolerance(
					withSetting(parameters, 'timestampHeader', timestampHeader),
					seconds,
				);
			return {
				parameters,
				sender: {
					...hmacDefaults,
					algorithm,
					template: useTimestamp === true ? TIMESTAMP_DOT_BODY : [BODY],
					signatureHeader: header.sent,
					timestampHeader: timestampHeader.sent,
					texts: ALL_TEXTS,
				},
				meaning: {
					...MEANING,
					signatureHeaders: header.names,
					timestampHeaders: timestampHeader.names,
					tolerance: seconds.seconds,
					template: useTimestamp === true ? '{timestamp}.{body}' : '{body}',
				},
				format: format.format,
				encoding: 'text',
				dims: [
					['signature header', header.shape],
					['use timestamp', String(useTimestamp === true)],
					...(useTimestamp === true
						? ([
								['timestamp header', timestampHeader.shape],
								['tolerance', seconds.shape],
							] as Array<[string, string]>)
						: []),
				],
			};
		});

const timestampedSignatures: fc.Arbitrary<SchemePart> = fc
	.record({
		header: headerSetting('x-signature', 'X-Acme-Signature'),
		tolerance,
		format: bodyFormat,
	})
	.map(({ header, tolerance: seconds, format }) => ({
		parameters: withFormat(
			withTolerance(withSetting({}, 'signatureHeader', header), seconds),
			format,
		),
		sender: {
			...hmacDefaults,
			algorithm: 'sha256',
			template: TIMESTAMP_DOT_BODY,
			signatureHeader: header.sent,
			format: 'keyValue',
			label: 'v1',
			texts: ['hex', 'HEX'],
			algorithmPrefix: false,
		},
		meaning: {
			...MEANING,
			signatureHeaders: header.names,
			tolerance: seconds.seconds,
			template: '{timestamp}.{body}',
		},
		format: format.format,
		encoding: 'text',
		dims: [
			['signature header', header.shape],
			['tolerance', seconds.shape],
		],
	}));

/** Standard Webhooks; now and then a Body Format left from another scheme (it reads JSON only). */
const standardWebhooks: fc.Arbitrary<SchemePart> = fc
	.record({ tolerance, stale: pick<string | undefined>(undefined, undefined, 'form') })
	.map(({ tolerance: seconds, stale }) => ({
		parameters: withTolerance(stale === undefined ? {} : { bodyFormat: stale }, seconds),
		sender: {
			...hmacDefaults,
			algorithm: 'sha256',
			keyEncoding: 'base64',
			template: [
				{ placeholder: 'id', spelled: 'id' },
				{ literal: '.' },
				{ placeholder: 'timestamp', spelled: 'timestamp' },
				{ literal: '.' },
				BODY,
			],
			signatureHeader: 'webhook-signature',
			timestampHeader: 'webhook-timestamp',
			idHeader: 'webhook-id',
			format: 'versioned',
			label: 'v1',
			texts: BASE64_TEXTS,
			algorithmPrefix: false,
		},
		meaning: {
			...MEANING,
			signatureHeaders: ['webhook-signature'],
			timestampHeaders: ['webhook-timestamp'],
			idHeaders: ['webhook-id'],
			tolerance: seconds.seconds,
			template: '{id}.{timestamp}.{body}',
		},
		format: 'json',
		encoding: 'base64',
		dims: [
			['tolerance', seconds.shape],
			['stale body format', stale ?? 'none'],
		],
	}));

// ---- Custom HMAC ----

/** Signature Label values that fit each format (the format's own default first). */
const LABELS: Record<SignatureFormat, string[]> = {
	plain: [''],
	prefixed: ['v0=', 'sha256=', 'v1=', ''],
	keyValue: ['v1', 'h1', 'sig', 't'],
	versioned: ['v1', 'v2'],
};
const TEXTS_OF: Record<'auto' | 'hex' | 'base64', SignatureText[]> = {
	auto: ALL_TEXTS,
	hex: ['hex', 'HEX'],
	base64: BASE64_TEXTS,
};

type Choice<T> = { value: T | undefined; effective: T };
const optionSetting = <T>(fallback: T, ...values: T[]): fc.Arbitrary<Choice<T>> =>
	pick<Choice<T>>(
		{ value: undefined, effective: fallback },
		...values.map((value) => ({ value, effective: value })),
	);

const SIGNED_URLS = [
	{ value: undefined, base: undefined, shape: 'unset' },
	{ value: '', base: undefined, shape: 'blank' },
	{ value: SIGNED_URL, base: SIGNED_URL, shape: 'set' },
	{
		value: ` ${SIGNED_URL}?registered=1#frag `,
		base: SIGNED_URL,
		shape: 'set, with query and fragment',
	},
];

const customHmac: fc.Arbitrary<SchemePart> = fc
	.record({
		algorithm: optionSetting<Algorithm>('sha256', 'sha1', 'sha256', 'sha512'),
		secretEncoding: optionSetting<KeyEncoding>('text', 'text', 'base64', 'hex'),
		format: bodyFormat,
		header: headerSetting('x-signature', 'X-Custom-Signature'),
		signatureFormat: optionSetting<SignatureFormat>(
			'plain',
			'plain',
			'prefixed',
			'keyValue',
			'versioned',
		),
		labelAt: fc.nat(3),
		labelUnset: fc.boolean(),
		pairSeparator: optionSetting(',', ',', ';', '&', '||'),
		timestampKey: optionSetting('t', 't', 'ts', 'timestamp'),
		encoding: optionSetting<'auto' | 'hex' | 'base64'>('auto', 'auto', 'hex', 'base64'),
		timestampHeader: headerSetting('x-timestamp', 'X-Custom-Timestamp'),
		idHeader: headerSetting('webhook-id', 'X-Delivery-Id'),
		signedUrl: pick(...SIGNED_URLS),
		tolerance,
		padded: rarely(fc.constant(false), fc.constant(true)),
		templateUnset: rarely(fc.constant(false), fc.constant(true)),
	})
	.chain((c) =>
		(c.templateUnset ? fc.constant(TIMESTAMP_DOT_BODY) : templates(c.format.format)).map(
			(template) => ({ ...c, template }),
		),
	)
	.map((c) => {
		const format = c.signatureFormat.effective;
		const labels = LABELS[format];
		// Unset, the label reads its default, v1: a sender of that format then uses v1.
		const label = c.labelUnset || format === 'plain' ? 'v1' : labels[c.labelAt % labels.length];
		const text = templateText(c.template);
		const parameters: IDataObject = withFormat(
			withTolerance(
				withSetting(
					withSetting(
						withSetting({}, 'customSignatureHeader', c.header),
						'customTimestampHeader',
						c.timestampHeader,
					),
					'customIdHeader',
					c.idHeader,
				),
				c.tolerance,
			),
			c.format,
		);
		const set = (name: string, choice: Choice<unknown>) => {
			if (choice.value !== undefined) parameters[name] = choice.value;
		};
		set('customAlgorithm', c.algorithm);
		set('customSecretEncoding', c.secretEncoding);
		set('customSignatureFormat', c.signatureFormat);
		set('customSignatureEncoding', c.encoding);
		if (format === 'keyValue') {
			set('customPairSeparator', c.pairSeparator);
			set('customTimestampKey', c.timestampKey);
		}
		if (format !== 'plain' && !c.labelUnset) parameters.customSignatureLabel = label;
		if (!c.templateUnset) parameters.customSignedContent = c.padded ? ` ${text} ` : text;
		if (c.signedUrl.value !== undefined) parameters.signedUrl = c.signedUrl.value;
		const problems = templateProblems(text, c.format.format);
		return {
			parameters,
			sender: {
				kind: 'hmac',
				algorithm: c.algorithm.effective,
				keyEncoding: c.secretEncoding.effective,
				template: c.template,
				signatureHeader: c.header.sent,
				timestampHeader: c.timestampHeader.sent,
				idHeader: c.idHeader.sent,
				format,
				label: format === 'plain' ? '' : label,
				pairSeparator: format === 'keyValue' ? c.pairSeparator.effective : ',',
				timestampKey: format === 'keyValue' ? c.timestampKey.effective : 't',
				texts: TEXTS_OF[c.encoding.effective],
				algorithmPrefix: format === 'plain',
				...(c.signedUrl.base === undefined ? {} : { signedUrl: c.signedUrl.base }),
			},
			meaning: {
				...MEANING,
				signatureHeaders: c.header.names,
				timestampHeaders: c.timestampHeader.names,
				idHeaders: c.idHeader.names,
				tolerance: c.tolerance.seconds,
				template: text,
			},
			format: c.format.format,
			encoding: c.secretEncoding.effective,
			dims: [
				['algorithm', c.algorithm.effective],
				['secret encoding', c.secretEncoding.effective],
				['signature format', format],
				['signature label', label === '' ? 'empty' : label],
				['signature encoding', c.encoding.effective],
				['signature header', c.header.shape],
				['signed url', c.signedUrl.shape],
				['tolerance', c.tolerance.shape],
				['signed content', problems.length === 0 ? 'one-way' : 'refused'],
				...problems.map((problem): [string, string] => ['signed content refused for', problem]),
				...placeholdersOf(c.template).map((placeholder): [string, string] => [
					'signs',
					placeholder,
				]),
				['signed content', c.templateUnset ? 'unset' : c.padded ? 'padded' : 'as typed'],
				...(format === 'keyValue'
					? ([
							['pair separator', c.pairSeparator.effective],
							['timestamp key', c.timestampKey.effective],
						] as Array<[string, string]>)
					: [['timestamp header', c.timestampHeader.shape] as [string, string]]),
				['id header', c.idHeader.shape],
			],
		};
	});

const secretHeader: fc.Arbitrary<SchemePart> = fc
	.record({ header: headerSetting('x-webhook-secret', 'X-Api-Token'), format: bodyFormat })
	.map(({ header, format }) => ({
		parameters: withFormat(withSetting({}, 'sharedKeyHeader', header), format),
		sender: { kind: 'secretHeader', header: header.sent },
		meaning: { ...MEANING, secretHeaders: header.names },
		format: format.format,
		encoding: 'text',
		dims: [['shared key header', header.shape]],
	}));

const none: fc.Arbitrary<SchemePart> = bodyFormat.map((format) => ({
	parameters: withFormat({}, format),
	sender: { kind: 'none' },
	meaning: MEANING,
	format: format.format,
	encoding: 'text',
	dims: [],
}));

/** The part of a set-up each row of VERIFICATIONS decides. */
export const SCHEME_PARTS: Record<VerificationName, fc.Arbitrary<SchemePart>> = {
	hmacSha256: bodyHmac('sha256'),
	hmacSha512: bodyHmac('sha512'),
	timestampedSignatures,
	standardWebhooks,
	customHmac,
	secretHeader,
	none,
};

export const VERIFICATIONS = Object.keys(SCHEME_PARTS) as VerificationName[];

/** Settings other rows show, left in the parameters after the Verification changed: the row's own reading ignores them. */
const STALE: IDataObject[] = [
	{ customSignedContent: '{id}{url}{body}', customAlgorithm: 'sha1' },
	{ sharedKeyHeader: 'x-signature' },
	{ signatureHeader: 'x-stale-signature', useTimestamp: true, timestampHeader: 'x-stale-ts' },
	{ signedUrl: 'https://stale.example.com/hook' },
];

// ---- options, events, respond ----

/** Delivery ID Fields: fields the bodies have, lack, hold in lists or under dotted names; several; blanks. */
const ID_FIELDS = [
	'id',
	'event_id',
	'id, event_id',
	' id ,, event ',
	'data.object',
	'data.items.0.id',
	'a.b',
	'created_at',
	'missing',
];
const EVENT_PATHS = ['', 'type', 'data.kind', 'event_id', '  ', 'a.b'];
const EVENT_FILTERS = [
	'',
	'transfers.created',
	'transfers.*',
	'*',
	'payout.approved, accounts.*',
	'x,\n  *',
];

const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });

const options = fc.record({
	idFields: maybe(pick(...ID_FIELDS)),
	eventPath: maybe(pick(...EVENT_PATHS)),
	includeHeaders: maybe(fc.boolean()),
	includeQuery: maybe(fc.boolean()),
	recordRefusals: maybe(fc.boolean()),
});

function optionDims(
	chosen: Record<string, unknown>,
	events: string | undefined,
): Array<[string, string]> {
	const shown = (value: unknown) => (value === undefined ? 'unset' : JSON.stringify(value));
	return [
		['option: delivery id fields', shown(chosen.idFields)],
		['option: event path', shown(chosen.eventPath)],
		['option: include headers', shown(chosen.includeHeaders)],
		['option: include query', shown(chosen.includeQuery)],
		['option: record refused deliveries', shown(chosen.recordRefusals)],
		['events', shown(events)],
	];
}

/** Which secret the sender signs with: the one asked for when it is set, else the current one. */
function signingSecret(asked: SecretName, credential: Record<CredentialField, string>): SecretName {
	return credential[CREDENTIAL_FIELDS[asked]].trim() === '' ? 'current' : asked;
}

/** Set-ups of one Verification, with everything around it generated. */
export function setups(verification: VerificationName): fc.Arbitrary<Setup> {
	return SCHEME_PARTS[verification].chain((part) =>
		fc
			.record({
				options,
				events: maybe(pick(...EVENT_FILTERS)),
				respond: maybe(pick('onReceipt', 'whenFinished')),
				secrets: credentials(part.encoding),
				testUrl: fc.boolean(),
				signWith: pick<SecretName>('current', 'current', 'previous', 'test'),
				stale: rarely(fc.constant(undefined), pick(...STALE)),
			})
			.map((c): Setup => {
				const chosen = Object.fromEntries(
					Object.entries(c.options).filter(([, v]) => v !== undefined),
				);
				const stale = Object.fromEntries(
					Object.entries(c.stale ?? {}).filter(([name]) => !showsSetting(verification, name)),
				);
				const parameters: IDataObject = {
					...stale,
					...part.parameters,
					verification,
					...(c.events === undefined ? {} : { events: c.events }),
					...(c.respond === undefined ? {} : { respond: c.respond }),
					options: chosen,
				};
				const unsigned = verification === 'none';
				const credential = unsigned
					? { signingSecret: '', previousSigningSecret: '', testSigningSecret: '' }
					: c.secrets.credential;
				const signWith = unsigned ? null : signingSecret(c.signWith, credential);
				return {
					verification,
					parameters,
					credential,
					testUrl: c.testUrl,
					signWith,
					format: part.format,
					sender: part.sender,
					meaning: part.meaning,
					dims: [
						...part.dims,
						['body format', part.format],
						['url', c.testUrl ? 'Test URL' : 'production'],
						['signed with', signWith ?? 'nothing'],
						['respond', c.respond ?? 'unset'],
						['settings of another row left in', String(Object.keys(stale).length > 0)],
						...(unsigned ? [] : c.secrets.dims),
						...optionDims(chosen, c.events),
					],
				};
			}),
	);
}
