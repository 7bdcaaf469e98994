/**
 * Generated trigger set-ups: every row of VERIFICATIONS (nodes/TenantApiTrigger/verifications.ts), each with every
 * setting the node shows for it, now and then a setting another row shows left in the parameters; the options,
 * Events and Respond; the credential's secrets in every shape; the Test URL or the Production URL. Each set-up says
 * how its sender signs (sender.ts), what its settings mean (written from the node's description, not read by the
 * trigger's code) and the shape of each value chosen (`dims`, reported by the campaign).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';

import { listOf, pick } from './common';
import { showsSetting } from './coverage';
import type { Format } from './reading';
import type { Piece } from './templates';
import { placeholdersOf, templateText, templates } from './templates';

type Algorithm = 'sha1' | 'sha256' | 'sha512';
type KeyEncoding = 'text' | 'hex' | 'base64';
type SignatureFormat = 'plain' | 'prefixed' | 'keyValue' | 'versioned';
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
	/** Signed URL set: the URL the sender calls instead of the webhook's (its query and fragment not signed). */
	signedUrl?: string;
}

export type Sender = HmacSender | { kind: 'secretHeader'; header: string } | { kind: 'none' };

export type SecretName = 'current' | 'previous' | 'test';
type CredentialField = 'signingSecret' | 'previousSigningSecret' | 'testSigningSecret';
export const CREDENTIAL_FIELDS: Record<SecretName, CredentialField> = {
	current: 'signingSecret',
	previous: 'previousSigningSecret',
	test: 'testSigningSecret',
};

/** What the chosen settings mean to the trigger, for the model (oracle.ts): header names in the order tried. */
interface Meaning {
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
	/** The credential's fields (blank for None, which selects no credential). */
	credential: Record<CredentialField, string>;
	/** The sender delivers to the editor's Test URL (n8n runs it in manual mode), else to the Production URL. */
	testUrl: boolean;
	/** The secret the sender signs with (none for None). */
	signWith: SecretName | null;
	/** How the body is read: the Body Format where the row shows it, else JSON. */
	format: Format;
	sender: Sender;
	meaning: Meaning;
	dims: Array<[string, string]>;
}

/** The webhook URLs n8n shows (production, Test URL); a request's query string is appended as sent. */
export const PRODUCTION_URL = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
export const TEST_URL = 'https://n8n.example.com/webhook-test/5b0c7e1a/webhook';
const SIGNED_URL = 'https://proxy.example.com/hooks/tenant';

const rarely = <T>(usual: fc.Arbitrary<T>, rare: fc.Arbitrary<T>) =>
	fc.oneof({ arbitrary: usual, weight: 6 }, { arbitrary: rare, weight: 1 });
/** The parameters saved: those not undefined. */
const saved = (parameters: Record<string, unknown>) =>
	Object.fromEntries(
		Object.entries(parameters).filter(([, value]) => value !== undefined),
	) as IDataObject;
/** The shape of each choice named, for the report: a choice's own `shape`, else its value. */
const shapes = (chosen: Record<string, unknown>, names: string[]): Array<[string, string]> =>
	names.map((name) => {
		const value = chosen[name] as { shape?: string } | undefined;
		return [name, typeof value === 'object' ? String(value.shape) : String(value ?? 'unset')];
	});

// ---- secrets ----

/**
 * Secrets of each key encoding, two of each name: long, with upper-case letters (a secret copied into a header name
 * arrives in lower case), some with `+`, `/` and `=` (spelled otherwise in a URL, a query or JSON), none a part of
 * another.
 */
const b64 = (text: string, encoding: BufferEncoding = 'base64') =>
	Buffer.from(text).toString(encoding);
const SECRETS: Record<KeyEncoding, Record<SecretName, string[]>> = {
	text: {
		current: ['Cur7Xq9Lm2/Vb8Np4Rt6Kz1', 'whsec_Txt+Current/Q2W4=E6R8'],
		previous: ['Prev-Q8wE4r/T6yU2iO0pA3sD5', 'Old+Rotated/Key=Zm5Xn7Cb9'],
		test: ['TestSecret/Hj5Kl7Zx9Cv1Bn3', 'Editor+Only/Fg4Hj6=Kl8Mn0'],
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
			`whsec_${b64('current signing key: 32 bytes!!')}`,
			b64('current~key>>without?prefix'),
		],
		previous: [
			`whsec_${b64('previous rotated signing key ###', 'base64url')}`,
			`whsec_${b64('Previous Key Unpadded?').replace(/=+$/, '')}`,
		],
		test: [
			`whsec_${b64('test URL signing key, editor only')}`,
			b64('Test-Url-Key-Bytes', 'base64url'),
		],
	},
};

/** The credential's three fields: the current secret always set (padded now and then), the others in any shape. */
const credentials = (encoding: KeyEncoding) =>
	fc
		.record({
			variant: fc.nat(1),
			current: rarely(pick('set'), pick('padded')),
			previous: pick(...listOf('unset|set|set|blank|same as current|not valid in the encoding')),
			test: pick(...listOf('unset|set|set|blank|same as current|padded')),
		})
		.map((c) => {
			const secret = (name: SecretName) => {
				const own = SECRETS[encoding][name][c.variant];
				const shape = c[name];
				if (shape === 'same as current') return SECRETS[encoding].current[c.variant];
				// Text no key encoding but `text` reads: not hex, not base64.
				if (shape === 'not valid in the encoding')
					return encoding === 'text' ? own : 'not a key: ?!';
				return { unset: '', blank: '  ', padded: ` ${own}\t`, set: own }[shape] ?? own;
			};
			return {
				credential: {
					signingSecret: secret('current'),
					previousSigningSecret: secret('previous'),
					testSigningSecret: secret('test'),
				},
				dims: shapes(c, ['current', 'previous', 'test']).map(([name, shape]): [string, string] => [
					`credential: ${name}`,
					shape,
				]),
			};
		});

// ---- settings shown by several rows ----

/** A header setting as users type it (undefined: not saved), the names it means, and the name the sender uses. */
interface HeaderChoice {
	setting: string | undefined;
	sent: string;
	names: string[];
	shape: string;
}

/** Header settings of a default name: unset, blank, upper case, a list, stray commas and blanks, another name. */
function headerSetting(fallback: string, other: string): fc.Arbitrary<HeaderChoice> {
	const rows: Array<[string | undefined, string[], string]> = [
		[undefined, [fallback], 'unset'],
		['', [fallback], 'blank'],
		[' , ,', [fallback], 'no names'],
		[fallback.toUpperCase(), [fallback], 'upper case'],
		[`x-alias-first, ${fallback}`, ['x-alias-first', fallback], 'list, sent second'],
		[`${fallback},x-alias-second`, [fallback, 'x-alias-second'], 'list, sent first'],
		[`${fallback},`, [fallback], 'trailing comma'],
		[` ${fallback} `, [fallback], 'blanks'],
		[other, [other.toLowerCase()], 'another name'],
	];
	return pick(
		...rows.map(([setting, names, shape]) => ({
			setting,
			names,
			shape,
			sent: names.includes(fallback) ? fallback : names[0],
		})),
	);
}

/** Tolerance as saved, the seconds it means (a value not above 0 reads the default), its shape. */
const tolerance = pick(
	...(
		[
			[undefined, 300, 'unset (300)'],
			[300, 300, '300'],
			[1, 1, '1'],
			[60, 60, '60'],
			[86_400, 86_400, '86400'],
			[10_000_000_000, 10_000_000_000, '1e10'],
			[0.5, 0.5, '0.5'],
			[0, 300, '0 (reads 300)'],
			[-5, 300, 'negative (reads 300)'],
			['soon', 300, 'text (reads 300)'],
		] as Array<[number | string | undefined, number, string]>
	).map(([value, seconds, shape]) => ({ value, seconds, shape })),
);

const bodyFormat = pick<{ value?: Format; format: Format; shape: string }>(
	{ format: 'json', shape: 'unset' },
	{ value: 'json', format: 'json', shape: 'json' },
	{ value: 'form', format: 'form', shape: 'form' },
	{ value: 'form', format: 'form', shape: 'form' },
);

/** The part of a set-up a row decides. */
interface RowPart {
	parameters: IDataObject;
	sender: Sender;
	meaning: Meaning;
	format: Format;
	dims: Array<[string, string]>;
}

const ALL_TEXTS: SignatureText[] = ['hex', 'HEX', 'base64', 'base64url', 'base64 unpadded'];
const TEXTS_OF: Record<'auto' | 'hex' | 'base64', SignatureText[]> = {
	auto: ALL_TEXTS,
	hex: ['hex', 'HEX'],
	base64: ['base64', 'base64url', 'base64 unpadded'],
};

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

/** An HMAC sender of the body alone: what each HMAC row, and the settings, change. */
export const HMAC_SENDER: HmacSender = {
	kind: 'hmac',
	algorithm: 'sha256',
	keyEncoding: 'text',
	template: [BODY],
	signatureHeader: 'x-signature',
	timestampHeader: 'x-timestamp',
	idHeader: 'webhook-id',
	format: 'plain',
	label: '',
	pairSeparator: ',',
	timestampKey: 't',
	texts: ALL_TEXTS,
	algorithmPrefix: true,
};

/** What each HMAC row but Custom HMAC fixes of its sender, from docs/trigger.md (refusals.ts reads their forms). */
export const ROW_SENDERS = {
	hmacSha256: { algorithm: 'sha256' },
	hmacSha512: { algorithm: 'sha512' },
	timestampedSignatures: {
		template: TIMESTAMP_DOT_BODY,
		format: 'keyValue',
		label: 'v1',
		texts: TEXTS_OF.hex,
		algorithmPrefix: false,
	},
	standardWebhooks: {
		keyEncoding: 'base64',
		template: [{ placeholder: 'id', spelled: 'id' }, { literal: '.' }, ...TIMESTAMP_DOT_BODY],
		signatureHeader: 'webhook-signature',
		timestampHeader: 'webhook-timestamp',
		format: 'versioned',
		label: 'v1',
		texts: TEXTS_OF.base64,
		algorithmPrefix: false,
	},
} satisfies Record<string, Partial<HmacSender>>;

type HeaderRole = 'signatureHeader' | 'timestampHeader' | 'idHeader';

/**
 * An HMAC row's part: its sender (HMAC_SENDER with what the row fixes and its settings choose), and what the settings
 * mean: the header names read (a header the row fixes, only its own), the tolerance, the template.
 */
function hmacPart(
	own: Partial<HmacSender>,
	headers: Partial<Record<HeaderRole, HeaderChoice>>,
	{ tolerance, ...rest }: Omit<RowPart, 'sender' | 'meaning'> & { tolerance: number },
): RowPart {
	const sender = { ...HMAC_SENDER, ...own };
	const read = (role: HeaderRole) => {
		const chosen = headers[role];
		if (chosen !== undefined) sender[role] = chosen.sent;
		return chosen?.names ?? [sender[role]];
	};
	const meaning: Meaning = {
		...MEANING,
		signatureHeaders: read('signatureHeader'),
		timestampHeaders: read('timestampHeader'),
		idHeaders: read('idHeader'),
		tolerance,
		template: templateText(sender.template),
	};
	return { ...rest, sender, meaning };
}

/** HMAC of the body (SHA-256 or SHA-512), with Use Timestamp its timestamp, a dot and the body. */
const bodyHmac = (row: 'hmacSha256' | 'hmacSha512'): fc.Arbitrary<RowPart> =>
	fc
		.record({
			signatureHeader: headerSetting('x-signature', 'X-Acme-Signature'),
			useTimestamp: pick<boolean | undefined>(undefined, false, true, true),
			timestampHeader: headerSetting('x-timestamp', 'X-Acme-Sent-At'),
			tolerance,
			bodyFormat,
		})
		.map((c) => {
			const stamped = c.useTimestamp === true;
			return hmacPart(
				{ ...ROW_SENDERS[row], template: stamped ? TIMESTAMP_DOT_BODY : [BODY] },
				{ signatureHeader: c.signatureHeader, timestampHeader: c.timestampHeader },
				{
					parameters: saved({
						signatureHeader: c.signatureHeader.setting,
						useTimestamp: c.useTimestamp,
						bodyFormat: c.bodyFormat.value,
						...(stamped
							? { timestampHeader: c.timestampHeader.setting, toleranceSeconds: c.tolerance.value }
							: {}),
					}),
					tolerance: c.tolerance.seconds,
					format: c.bodyFormat.format,
					dims: shapes(c, [
						'signatureHeader',
						'useTimestamp',
						...(stamped ? ['timestampHeader', 'tolerance'] : []),
					]),
				},
			);
		});

const timestampedSignatures: fc.Arbitrary<RowPart> = fc
	.record({
		signatureHeader: headerSetting('x-signature', 'X-Acme-Signature'),
		tolerance,
		bodyFormat,
	})
	.map((c) =>
		hmacPart(
			ROW_SENDERS.timestampedSignatures,
			{ signatureHeader: c.signatureHeader },
			{
				parameters: saved({
					signatureHeader: c.signatureHeader.setting,
					toleranceSeconds: c.tolerance.value,
					bodyFormat: c.bodyFormat.value,
				}),
				tolerance: c.tolerance.seconds,
				format: c.bodyFormat.format,
				dims: shapes(c, ['signatureHeader', 'tolerance']),
			},
		),
	);

/** Standard Webhooks; now and then a Body Format left from another row (it reads JSON only). */
const standardWebhooks: fc.Arbitrary<RowPart> = fc
	.record({ tolerance, staleBodyFormat: pick<string | undefined>(undefined, undefined, 'form') })
	.map((c) =>
		hmacPart(
			ROW_SENDERS.standardWebhooks,
			{},
			{
				parameters: saved({ bodyFormat: c.staleBodyFormat, toleranceSeconds: c.tolerance.value }),
				tolerance: c.tolerance.seconds,
				format: 'json',
				dims: shapes(c, ['tolerance', 'staleBodyFormat']),
			},
		),
	);

// ---- Custom HMAC ----

/** Signature Label values that fit each format (the format's own default first). */
const LABELS: Record<SignatureFormat, string[]> = {
	plain: [''],
	prefixed: ['v0=', 'sha256=', 'v1=', ''],
	keyValue: ['v1', 'h1', 'sig', 't'],
	versioned: ['v1', 'v2'],
};

/** An option setting: not saved (it reads `fallback`) or one of `values`. */
const optionSetting = <T extends string>(fallback: T, ...values: T[]) =>
	pick<{ value?: T; effective: T; shape: string }>(
		{ effective: fallback, shape: `unset (${fallback})` },
		...values.map((value) => ({ value, effective: value, shape: value })),
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

const customHmac: fc.Arbitrary<RowPart> = fc
	.record({
		algorithm: optionSetting<Algorithm>('sha256', 'sha1', 'sha256', 'sha512'),
		secretEncoding: optionSetting<KeyEncoding>('text', 'text', 'base64', 'hex'),
		bodyFormat,
		signatureHeader: headerSetting('x-signature', 'X-Custom-Signature'),
		signatureFormat: optionSetting<SignatureFormat>(
			'plain',
			...listOf('plain|prefixed|keyValue|versioned'),
		),
		labelAt: fc.nat(3),
		labelUnset: fc.boolean(),
		pairSeparator: optionSetting(',', ',', ';', '&', '||'),
		timestampKey: optionSetting('t', 't', 'ts', 'timestamp'),
		signatureEncoding: optionSetting<'auto' | 'hex' | 'base64'>('auto', 'auto', 'hex', 'base64'),
		timestampHeader: headerSetting('x-timestamp', 'X-Custom-Timestamp'),
		idHeader: headerSetting('webhook-id', 'X-Delivery-Id'),
		signedUrl: pick(...SIGNED_URLS),
		tolerance,
		signedContent: rarely(pick('as typed'), pick('padded', 'unset')),
	})
	.chain((c) =>
		(c.signedContent === 'unset'
			? fc.constant(TIMESTAMP_DOT_BODY)
			: templates(c.bodyFormat.format)
		).map((template) => ({ ...c, template })),
	)
	.map((c) => {
		const format = c.signatureFormat.effective;
		const keyValue = format === 'keyValue';
		const labels = LABELS[format];
		// Unset, the label reads its default, v1: a sender of that format then uses v1.
		const label = c.labelUnset || format === 'plain' ? 'v1' : labels[c.labelAt % labels.length];
		const text = templateText(c.template);
		return hmacPart(
			{
				algorithm: c.algorithm.effective,
				keyEncoding: c.secretEncoding.effective,
				template: c.template,
				format,
				label: format === 'plain' ? '' : label,
				pairSeparator: keyValue ? c.pairSeparator.effective : ',',
				timestampKey: keyValue ? c.timestampKey.effective : 't',
				texts: TEXTS_OF[c.signatureEncoding.effective],
				algorithmPrefix: format === 'plain',
				...(c.signedUrl.base === undefined ? {} : { signedUrl: c.signedUrl.base }),
			},
			{
				signatureHeader: c.signatureHeader,
				timestampHeader: c.timestampHeader,
				idHeader: c.idHeader,
			},
			{
				parameters: saved({
					customAlgorithm: c.algorithm.value,
					customSecretEncoding: c.secretEncoding.value,
					customSignatureFormat: c.signatureFormat.value,
					customSignatureEncoding: c.signatureEncoding.value,
					customSignatureHeader: c.signatureHeader.setting,
					customTimestampHeader: c.timestampHeader.setting,
					customIdHeader: c.idHeader.setting,
					customPairSeparator: keyValue ? c.pairSeparator.value : undefined,
					customTimestampKey: keyValue ? c.timestampKey.value : undefined,
					customSignatureLabel: format === 'plain' || c.labelUnset ? undefined : label,
					customSignedContent: { unset: undefined, padded: ` ${text} `, 'as typed': text }[
						c.signedContent
					],
					signedUrl: c.signedUrl.value,
					toleranceSeconds: c.tolerance.value,
					bodyFormat: c.bodyFormat.value,
				}),
				tolerance: c.tolerance.seconds,
				format: c.bodyFormat.format,
				dims: [
					...shapes(c, [
						...listOf(
							'algorithm|secretEncoding|signatureFormat|signatureEncoding|signatureHeader|signedUrl|tolerance|signedContent|idHeader',
						),
						...(keyValue ? ['pairSeparator', 'timestampKey'] : ['timestampHeader']),
					]),
					['signature label', label === '' ? 'empty' : label],
					...placeholdersOf(c.template).map((placeholder): [string, string] => [
						'signs',
						placeholder,
					]),
				],
			},
		);
	});

const secretHeader: fc.Arbitrary<RowPart> = fc
	.record({ sharedKeyHeader: headerSetting('x-webhook-secret', 'X-Api-Token'), bodyFormat })
	.map((c) => ({
		parameters: saved({
			sharedKeyHeader: c.sharedKeyHeader.setting,
			bodyFormat: c.bodyFormat.value,
		}),
		sender: { kind: 'secretHeader', header: c.sharedKeyHeader.sent },
		meaning: { ...MEANING, secretHeaders: c.sharedKeyHeader.names },
		format: c.bodyFormat.format,
		dims: shapes(c, ['sharedKeyHeader']),
	}));

const none: fc.Arbitrary<RowPart> = bodyFormat.map((format) => ({
	parameters: saved({ bodyFormat: format.value }),
	sender: { kind: 'none' },
	meaning: MEANING,
	format: format.format,
	dims: [],
}));

/** The part of a set-up each row of VERIFICATIONS decides. */
const ROW_PARTS: Record<VerificationName, fc.Arbitrary<RowPart>> = {
	hmacSha256: bodyHmac('hmacSha256'),
	hmacSha512: bodyHmac('hmacSha512'),
	timestampedSignatures,
	standardWebhooks,
	customHmac,
	secretHeader,
	none,
};

export const VERIFICATIONS = Object.keys(ROW_PARTS) as VerificationName[];

/** Settings other rows show, left in the parameters after the Verification changed: the row ignores them. */
const STALE: IDataObject[] = [
	{ customSignedContent: '{id}{url}{body}', customAlgorithm: 'sha1' },
	{ sharedKeyHeader: 'x-signature' },
	{ signatureHeader: 'x-stale-signature', useTimestamp: true, timestampHeader: 'x-stale-ts' },
	{ signedUrl: 'https://stale.example.com/hook' },
];

// ---- options, events, respond ----

/** Delivery ID Fields: fields the bodies have, lack, hold in lists or under dotted names; several; blanks. */
const ID_FIELDS = [
	' id ,, event ',
	'id, event_id',
	...'id event_id data.object data.items.0.id a.b created_at missing'.split(' '),
];
const EVENT_PATHS = ['', 'type', 'data.kind', 'event_id', '  ', 'a.b'];
const EVENT_FILTERS = ['', 'transfers.created', 'transfers.*', '*', 'payout.approved, accounts.*'];

const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });

const options = fc.record({
	idFields: maybe(pick(...ID_FIELDS)),
	eventPath: maybe(pick(...EVENT_PATHS)),
	includeHeaders: maybe(fc.boolean()),
	includeQuery: maybe(fc.boolean()),
	recordRefusals: maybe(fc.boolean()),
});

/** Set-ups of one Verification, with everything around it generated. */
export function setups(verification: VerificationName): fc.Arbitrary<Setup> {
	return ROW_PARTS[verification].chain((part) =>
		fc
			.record({
				options,
				events: maybe(pick(...EVENT_FILTERS, 'x,\n  *')),
				respond: maybe(pick('onReceipt', 'whenFinished')),
				secrets: credentials(part.sender.kind === 'hmac' ? part.sender.keyEncoding : 'text'),
				testUrl: fc.boolean(),
				signWith: pick<SecretName>('current', 'current', 'previous', 'test'),
				stale: rarely(fc.constant({}), pick(...STALE)),
			})
			.map((c): Setup => {
				const chosen = saved(c.options);
				const stale = Object.fromEntries(
					Object.entries(c.stale).filter(([name]) => !showsSetting(verification, name)),
				);
				const unsigned = verification === 'none';
				const credential = unsigned
					? { signingSecret: '', previousSigningSecret: '', testSigningSecret: '' }
					: c.secrets.credential;
				// The secret asked for when it is set, else the current one.
				const asked =
					credential[CREDENTIAL_FIELDS[c.signWith]].trim() === '' ? 'current' : c.signWith;
				const signWith = unsigned ? null : asked;
				const shown = (value: unknown) => (value === undefined ? 'unset' : JSON.stringify(value));
				return {
					verification,
					parameters: {
						...stale,
						...part.parameters,
						...saved({ verification, events: c.events, respond: c.respond }),
						options: chosen,
					},
					credential,
					testUrl: c.testUrl,
					signWith,
					format: part.format,
					sender: part.sender,
					meaning: part.meaning,
					dims: [
						...part.dims,
						['body format', part.format],
						['respond', c.respond ?? 'unset'],
						['settings of another row left in', String(Object.keys(stale).length > 0)],
						...(unsigned ? [] : c.secrets.dims),
						...Object.entries(c.options).map(([name, value]): [string, string] => [
							`option: ${name}`,
							shown(value),
						]),
						['events', shown(c.events)],
					],
				};
			}),
	);
}
