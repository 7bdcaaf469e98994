/**
 * Generated trigger set-ups: every Verification, and within each every setting the node shows for it (Body Format,
 * header names, timestamps, Signed URL, each Custom HMAC setting, Secret in Header's header list), the options
 * (Include Headers, Include Query Parameters, Delivery ID Fields, Event Path), Events and Respond, the credential's
 * secrets (current, previous, Test URL) and whether the delivery goes to the Test URL. Each set-up also says how a
 * sender signs for it (sender.ts) and which setting values it exercises (`dims`, counted by `npm run fuzz`).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import type {
	HmacAlgorithm,
	SecretEncoding,
	SignatureFormat,
} from '../../nodes/TenantApiTrigger/verifier';
import type { SigningScheme } from '../../sandbox/signing';
import { demoSecret } from '../../sandbox/signing';

import type { Format } from './bodies';

/** One piece of a Custom HMAC template, as generated (rendered into Signed Content by `templateText`). */
export type TemplatePiece =
	| { literal: string }
	| { placeholder: 'timestamp' | 'id' | 'body' | 'url' | 'formFields'; upper?: boolean }
	| { item: string };

/** The Custom HMAC settings as a sender implements them. */
export interface CustomSpec {
	algorithm: HmacAlgorithm;
	secretEncoding: SecretEncoding;
	template: TemplatePiece[];
	signatureIn: 'header' | 'items';
	/** The one header name the sender uses (the setting may list others). */
	signatureHeader: string;
	signatureFormat: SignatureFormat;
	label: string;
	pairSeparator: string;
	timestampKey: string;
	signatureEncoding: 'hex' | 'base64';
	timestampHeader: string;
	idHeader: string;
	itemsPath: string;
	itemSignaturePath: string;
	bodyHashParameter: string;
}

type Sender =
	| { kind: 'preset'; scheme: SigningScheme; rename: Record<string, string> }
	| { kind: 'adyenPayments' }
	| { kind: 'custom'; spec: CustomSpec }
	| { kind: 'secretHeader'; header: string }
	| { kind: 'none' };

type SecretName = 'current' | 'previous' | 'test';

export interface Setup {
	verification: VerificationName;
	/** The node's parameters (what n8n stores), the verification included. */
	parameters: IDataObject;
	credential: Record<'signingSecret' | 'previousSigningSecret' | 'testSigningSecret', string>;
	/** The delivery goes to the editor's Test URL (n8n runs it in manual mode). */
	testUrl: boolean;
	/** The secret the sender signs with (none for None). */
	signWith: SecretName | null;
	/** What the sender posts. */
	format: Format;
	sender: Sender;
	/** The setting values this set-up exercises, for the coverage report. */
	dims: Array<[string, string]>;
}

/** The base URL n8n shows for the webhook in the model; the request's query string is appended as sent. */
export const BASE_URL = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
export const SIGNED_URL_OVERRIDE = 'https://proxy.example.com/hooks/tenant';

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });

/** The part of a set-up a verification decides: its parameters, how the sender signs, the body format, the dims. */
interface SchemePart {
	parameters: IDataObject;
	sender: Sender;
	format: Format;
	secret: (name: SecretName) => string;
	dims: Array<[string, string]>;
}

const textSecrets = (name: SecretName) => `whsec_${name}_secret`;
const hexSecrets = (name: SecretName) =>
	({ current: demoSecret('adyen-payments'), previous: 'ab'.repeat(32), test: 'cd'.repeat(32) })[
		name
	];
const base64Secrets = (name: SecretName) =>
	`whsec_${Buffer.from(`${name} signing key bytes`).toString('base64')}`;
const SECRETS_OF: Record<SecretEncoding, (name: SecretName) => string> = {
	text: textSecrets,
	hex: hexSecrets,
	base64: base64Secrets,
};

const tolerance = maybe(pick(60, 300, 86_400));
const withTolerance = (parameters: IDataObject, seconds: number | undefined) =>
	seconds === undefined ? parameters : { ...parameters, toleranceSeconds: seconds };

/** Header settings as users type them: a name in any case, several names, stray commas and blanks. */
function headerSetting(
	name: string,
): fc.Arbitrary<{ setting: string | undefined; sent: string; shape: string }> {
	return fc.oneof(
		fc.constant({ setting: undefined, sent: name, shape: 'default' }),
		fc.constant({ setting: name.toUpperCase(), sent: name, shape: 'upper case' }),
		fc.constant({ setting: `x-other-header, ${name}`, sent: name, shape: 'list' }),
		fc.constant({ setting: `${name},`, sent: name, shape: 'trailing comma' }),
		fc.constant({ setting: ` ${name} `, sent: name, shape: 'blanks' }),
	);
}

const bodyHmac = (verification: 'hmacSha256' | 'hmacSha512'): fc.Arbitrary<SchemePart> =>
	fc
		.record({
			scheme:
				verification === 'hmacSha256'
					? pick<SigningScheme>('hmac-sha256-hex', 'hmac-sha256-base64', 'hmac-sha256-prefixed')
					: pick<SigningScheme>('hmac-sha512-hex'),
			header: fc.oneof(
				headerSetting('x-signature'),
				pick('X-Hub-Signature-256', 'x-shopify-hmac-sha256').map((h) => ({
					setting: h,
					sent: h.toLowerCase(),
					shape: 'named',
				})),
			),
			useTimestamp: fc.boolean(),
			timestampHeader: headerSetting('x-timestamp'),
			format: pick<Format>('json', 'form'),
			tolerance,
		})
		.map(({ scheme, header, useTimestamp, timestampHeader, format, tolerance: seconds }) => ({
			parameters: {
				...(header.setting === undefined ? {} : { signatureHeader: header.setting }),
				...(useTimestamp
					? withTolerance(
							{
								useTimestamp,
								...(timestampHeader.setting === undefined
									? {}
									: { timestampHeader: timestampHeader.setting }),
							},
							seconds,
						)
					: { useTimestamp }),
				bodyFormat: format,
			},
			sender: {
				kind: 'preset',
				scheme,
				rename: { 'x-signature': header.sent, 'x-timestamp': timestampHeader.sent },
			},
			format,
			secret: textSecrets,
			dims: [
				['signature header', header.shape],
				['use timestamp', String(useTimestamp)],
			],
		}));

const preset = (
	scheme: SigningScheme,
	formats: Format[],
	extra: (format: Format) => IDataObject = () => ({}),
): fc.Arbitrary<SchemePart> =>
	fc
		.record({ format: pick(...formats), tolerance, signedUrl: fc.boolean() })
		.map(({ format, tolerance: seconds, signedUrl }) => {
			const urlSigned = scheme === 'square' || scheme === 'twilio';
			const timestamped = ['standard-webhooks', 'svix', 'stripe', 'slack', 'paddle'].includes(
				scheme,
			);
			const parameters: IDataObject = {
				...extra(format),
				...(urlSigned && signedUrl ? { signedUrl: SIGNED_URL_OVERRIDE } : {}),
			};
			const secrets =
				scheme === 'adyen-platform'
					? hexSecrets
					: scheme === 'standard-webhooks' || scheme === 'svix'
						? base64Secrets
						: textSecrets;
			const dims: Array<[string, string]> = urlSigned
				? [['signed url', signedUrl ? 'set' : 'webhook url']]
				: [];
			return {
				parameters: timestamped ? withTolerance(parameters, seconds) : parameters,
				sender: { kind: 'preset', scheme, rename: {} },
				format,
				secret: secrets,
				dims,
			};
		});

// ---- Custom HMAC ----

const SEPARATORS = [':', '.', '|', '::', ' / ', '-', ''];
/** Signature Label values that fit each format. */
const LABELS: Record<SignatureFormat, string[]> = {
	plain: [''],
	prefixed: ['v0=', 'sha256=', 'v1='],
	keyValue: ['v1', 'h1', 'sig'],
	versioned: ['v1', 'v2'],
};
const ITEM_FIELDS = ['ref', 'amount.value', 'amount.currency', 'code', 'ok'];
const ITEMS_PATHS = [
	'notificationItems.*.NotificationRequestItem',
	'events.*',
	'data.items.*',
	'batch.*.entry',
];

/** Signed Content as the user types it. */
function templateText(template: TemplatePiece[]): string {
	return template
		.map((piece) => {
			if ('literal' in piece) return piece.literal;
			if ('item' in piece) return `{item.${piece.item}}`;
			return `{${piece.upper ? piece.placeholder.toUpperCase() : piece.placeholder}}`;
		})
		.join('');
}

/** Placeholders separated by literal text (or none, which only item placeholders may not have). */
function joined(pieces: TemplatePiece[], separators: string[]): TemplatePiece[] {
	return pieces.flatMap((piece, index) => {
		const separator = separators[index % separators.length];
		return index === 0 || separator === '' ? [piece] : [{ literal: separator }, piece];
	});
}

const headerTemplate = (
	format: Format,
): fc.Arbitrary<{ template: TemplatePiece[]; bodyHash: boolean }> =>
	fc
		.record({
			chosen: fc
				.subarray(['timestamp', 'id', 'body', 'url', 'formFields'] as const, { minLength: 1 })
				.chain((list) => fc.shuffledSubarray(list, { minLength: list.length })),
			upper: fc.boolean(),
			separators: fc.array(pick(...SEPARATORS), { minLength: 1, maxLength: 4 }),
			prefix: pick('', 'v0:', 'hook.'),
		})
		.map(({ chosen, upper, separators, prefix }) => {
			const placeholders = [...chosen];
			const covered =
				placeholders.includes('body') || (format === 'form' && placeholders.includes('formFields'));
			// A signature that covers neither the body nor the fields needs a body hash in the signed URL.
			const bodyHash = !covered && placeholders.includes('url');
			if (!covered && !bodyHash) placeholders.push('body');
			const pieces: TemplatePiece[] = placeholders.map((placeholder) => ({
				placeholder,
				upper: upper && (placeholder === 'id' || placeholder === 'url'),
			}));
			return {
				template: [...(prefix === '' ? [] : [{ literal: prefix }]), ...joined(pieces, separators)],
				bodyHash,
			};
		});

/** Item fields separated by literal text (signed items take no other placeholder). */
const itemTemplate: fc.Arbitrary<TemplatePiece[]> = fc
	.record({
		fields: fc.shuffledSubarray(ITEM_FIELDS, { minLength: 1, maxLength: 4 }),
		separators: fc.array(pick(...SEPARATORS.filter((s) => s !== '')), {
			minLength: 1,
			maxLength: 3,
		}),
		prefix: pick('', 'v1|'),
	})
	.map(({ fields, separators, prefix }) => [
		...(prefix === '' ? [] : [{ literal: prefix }]),
		...joined(
			fields.map((item) => ({ item })),
			separators,
		),
	]);

const custom: fc.Arbitrary<SchemePart> = fc
	.record({
		algorithm: pick<HmacAlgorithm>('sha1', 'sha256', 'sha512'),
		secretEncoding: pick<SecretEncoding>('text', 'base64', 'hex'),
		signatureIn: pick<'header' | 'items'>('header', 'items'),
		format: pick<Format>('json', 'form'),
		header: headerSetting('x-custom-signature'),
		signatureFormat: pick<SignatureFormat>('plain', 'prefixed', 'keyValue', 'versioned'),
		labelAt: fc.nat(2),
		pairSeparator: pick(',', ';'),
		timestampKey: pick('t', 'ts'),
		signatureEncoding: pick<'hex' | 'base64'>('hex', 'base64'),
		encodingSetting: pick<'auto' | 'exact'>('auto', 'exact'),
		idHeader: headerSetting('x-delivery-id'),
		timestampHeader: headerSetting('x-custom-timestamp'),
		itemsPath: pick(...ITEMS_PATHS),
		itemSignaturePath: pick('additionalData.hmacSignature', 'sig'),
		// Body Hash Parameter filled in where the template does not need it (the sender then sends the hash anyway).
		hashParameterSet: fc.boolean(),
		tolerance,
	})
	.chain((c) =>
		c.signatureIn === 'items'
			? itemTemplate.map((template) => ({
					...c,
					template,
					bodyHash: false,
					format: 'json' as Format,
				}))
			: headerTemplate(c.format).map((t) => ({ ...c, ...t })),
	)
	.map((c) => {
		const spec: CustomSpec = {
			algorithm: c.algorithm,
			secretEncoding: c.secretEncoding,
			template: c.template,
			signatureIn: c.signatureIn,
			signatureHeader: c.header.sent,
			signatureFormat: c.signatureFormat,
			label: LABELS[c.signatureFormat][c.labelAt % LABELS[c.signatureFormat].length],
			pairSeparator: c.pairSeparator,
			timestampKey: c.timestampKey,
			signatureEncoding: c.signatureEncoding,
			timestampHeader: c.timestampHeader.sent,
			idHeader: c.idHeader.sent,
			itemsPath: c.itemsPath,
			itemSignaturePath: c.itemSignaturePath,
			bodyHashParameter: c.bodyHash || c.hashParameterSet ? 'bodySHA256' : '',
		};
		const parameters: IDataObject = withTolerance(
			{
				customAlgorithm: spec.algorithm,
				customSecretEncoding: spec.secretEncoding,
				customSignedContent: templateText(spec.template),
				customSignatureIn: spec.signatureIn,
				customSignatureEncoding: c.encodingSetting === 'auto' ? 'auto' : spec.signatureEncoding,
				...(c.signatureIn === 'header'
					? {
							...(c.header.setting === undefined
								? { customSignatureHeader: 'x-custom-signature' }
								: { customSignatureHeader: c.header.setting }),
							customSignatureFormat: spec.signatureFormat,
							customSignatureLabel: spec.label,
							customPairSeparator: spec.pairSeparator,
							customTimestampKey: spec.timestampKey,
						}
					: { customItemsPath: spec.itemsPath, customItemSignaturePath: spec.itemSignaturePath }),
				customTimestampHeader: c.timestampHeader.setting ?? 'x-custom-timestamp',
				customIdHeader: c.idHeader.setting ?? 'x-delivery-id',
				customBodyHashParameter: spec.bodyHashParameter,
				bodyFormat: c.format,
			},
			c.tolerance,
		);
		const placeholders = spec.template.flatMap((p) =>
			'literal' in p ? [] : ['item' in p ? 'item' : p.placeholder],
		);
		return {
			parameters,
			sender: { kind: 'custom', spec } as Sender,
			format: c.format,
			secret: SECRETS_OF[spec.secretEncoding],
			dims: [
				['algorithm', spec.algorithm],
				['secret encoding', spec.secretEncoding],
				['signature location', spec.signatureIn],
				...(spec.signatureIn === 'header'
					? ([['signature format', spec.signatureFormat]] as Array<[string, string]>)
					: [['items path', spec.itemsPath] as [string, string]]),
				[
					'signature encoding',
					`${c.encodingSetting === 'auto' ? 'auto' : 'exact'} ${spec.signatureEncoding}`,
				],
				[
					'body hash parameter',
					spec.bodyHashParameter === '' ? 'empty' : c.bodyHash ? 'needed' : 'set, not needed',
				],
				...[...new Set(placeholders)].map((p): [string, string] => ['signs', p]),
			],
		};
	});

const secretHeader: fc.Arbitrary<SchemePart> = fc
	.record({ header: headerSetting('x-webhook-secret'), format: pick<Format>('json', 'form') })
	.map(({ header, format }) => ({
		parameters: {
			...(header.setting === undefined ? {} : { sharedKeyHeader: header.setting }),
			bodyFormat: format,
		},
		sender: { kind: 'secretHeader', header: header.sent },
		format,
		secret: textSecrets,
		dims: [['shared key header', header.shape]],
	}));

/** The settings part of each Verification value of the node. */
const SCHEME_PARTS: Record<VerificationName, fc.Arbitrary<SchemePart>> = {
	hmacSha256: bodyHmac('hmacSha256'),
	hmacSha512: bodyHmac('hmacSha512'),
	standardWebhooks: fc.oneof(preset('standard-webhooks', ['json']), preset('svix', ['json'])),
	stripe: preset('stripe', ['json']),
	slack: preset('slack', ['form', 'json'], (format) => ({ bodyFormat: format })),
	paddle: preset('paddle', ['json']),
	square: preset('square', ['json']),
	adyenPlatform: preset('adyen-platform', ['json']),
	adyenPayments: fc.constant({
		parameters: {},
		sender: { kind: 'adyenPayments' },
		format: 'json',
		secret: hexSecrets,
		dims: [],
	}),
	twilio: preset('twilio', ['form', 'json']),
	customHmac: custom,
	secretHeader,
	none: pick<Format>('json', 'form').map((format) => ({
		parameters: { bodyFormat: format },
		sender: { kind: 'none' },
		format,
		secret: textSecrets,
		dims: [],
	})),
};

export const VERIFICATIONS = Object.keys(SCHEME_PARTS) as VerificationName[];

// ---- the options every verification has ----

/** Delivery ID Fields worth trying for a set-up: fields its bodies have, fields they lack, several at once. */
function idFieldChoices(verification: VerificationName, part: SchemePart): string[] {
	if (part.sender.kind === 'custom' && part.sender.spec.signatureIn === 'items') {
		const first = part.sender.spec.itemsPath.replace('*', '0');
		return [`${first}.ref`, `${first}.amount.value, ${first}.code`, `${first}.eventDate`];
	}
	if (verification === 'adyenPayments')
		return [
			'notificationItems.0.NotificationRequestItem.pspReference',
			'notificationItems.0.NotificationRequestItem.eventDate',
		];
	if (verification === 'twilio') return ['MessageSid', 'MessageSid, AccountSid', 'Body'];
	return part.format === 'form'
		? ['id', 'event', 'id, event', 'missing']
		: ['id', 'event_id', 'id, event_id', 'data.object', 'created_at', 'missing'];
}

const EVENT_FILTERS = [
	'transfers.created',
	'transfers.*',
	'*',
	'payout.approved, accounts.*',
	'AUTHORISATION',
];

/** Event Path values: fields of event bodies, and for signed items a field of the item (read at index 0, as alone). */
function eventPathChoices(verification: VerificationName, part: SchemePart): string[] {
	if (verification === 'adyenPayments')
		return ['type', 'notificationItems.0.NotificationRequestItem.eventCode'];
	if (part.sender.kind === 'custom' && part.sender.spec.signatureIn === 'items')
		return ['type', `${part.sender.spec.itemsPath.replace('*', '0')}.code`];
	return ['type', 'data.kind', 'event_id'];
}

const options = (verification: VerificationName, part: SchemePart) =>
	fc.record({
		includeHeaders: maybe(fc.boolean()),
		includeQuery: maybe(fc.boolean()),
		idFields: maybe(pick(...idFieldChoices(verification, part))),
		eventPath: maybe(pick(...eventPathChoices(verification, part))),
		// The node's own (refused deliveries become executions); the reading does not change with it.
		recordRefusals: maybe(fc.boolean()),
	});

const secretsAndUrl = fc.record({
	previous: fc.boolean(),
	test: fc.boolean(),
	testUrl: fc.boolean(),
	signWith: pick<SecretName>('current', 'previous', 'test'),
});

/** Set-ups of one Verification, with everything around it generated. */
export function setups(verification: VerificationName): fc.Arbitrary<Setup> {
	return SCHEME_PARTS[verification].chain((part) =>
		fc
			.record({
				options: options(verification, part),
				events: maybe(pick(...EVENT_FILTERS)),
				respond: maybe(pick('onReceipt', 'whenFinished')),
				secrets: secretsAndUrl,
			})
			.map(({ options: chosen, events, respond, secrets }): Setup => {
				const signWith: SecretName | null =
					verification === 'none'
						? null
						: secrets.signWith === 'previous' && !secrets.previous
							? 'current'
							: secrets.signWith === 'test' && !secrets.test
								? 'current'
								: secrets.signWith;
				const definedOptions = Object.fromEntries(
					Object.entries(chosen).filter(([, v]) => v !== undefined),
				);
				const parameters: IDataObject = {
					verification,
					...part.parameters,
					...(events === undefined ? {} : { events }),
					...(respond === undefined ? {} : { respond }),
					options: definedOptions,
				};
				const credential = {
					signingSecret: part.secret('current'),
					previousSigningSecret: secrets.previous ? part.secret('previous') : '',
					testSigningSecret: secrets.test ? part.secret('test') : '',
				};
				const dims: Array<[string, string]> = [
					...part.dims,
					['body format', part.format],
					['url', secrets.testUrl ? 'test' : 'production'],
					['signed with', signWith ?? 'nothing'],
					['include headers', String(chosen.includeHeaders === true)],
					['include query', String(chosen.includeQuery === true)],
					[
						'delivery id fields',
						chosen.idFields === undefined
							? 'none'
							: `${chosen.idFields.split(',').length} field(s)`,
					],
					['event path', chosen.eventPath === undefined ? 'default' : 'set'],
					['events', events === undefined ? 'all' : 'filter'],
				];
				return {
					verification,
					parameters,
					credential,
					testUrl: secrets.testUrl,
					signWith,
					format: part.format,
					sender: part.sender,
					dims,
				};
			}),
	);
}
