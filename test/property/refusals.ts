/**
 * The Refused output's item (nodes/TenantApiTrigger/diagnosis.ts) for hostile requests, under every set-up of
 * settings.ts and under settings of any text: as docs/trigger.md "When a delivery is refused" says, the item stays
 * within its bound, holds no secret of the credential in any letter case, and every string in it is the trigger's
 * own vocabulary, the node's settings or a header name that is a plain token. A signature in a header the settings
 * do not read names that header only when its name is a plain token holding no secret, and a Verification only when
 * the value has its form. Everything the sender writes holds a canary (CANARY in values, NAME_CANARY in header
 * names), so any of it that reaches the item is found wherever it lands.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { SECRET_NAMES } from '../../nodes/shared/webhookDelivery';
import type { Evidence } from '../../nodes/TenantApiTrigger/diagnosis';
import { diagnose } from '../../nodes/TenantApiTrigger/diagnosis';
import type { HeaderBag } from '../../nodes/TenantApiTrigger/headers';
import type { RefusalReason, RefusalStatus } from '../../nodes/TenantApiTrigger/refusals';
import { REFUSALS } from '../../nodes/TenantApiTrigger/refusals';
import { savedVerification, settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import type { Verification, VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import {
	VERIFICATIONS as ROWS,
	VERIFICATION_NAMES,
	headersRead,
} from '../../nodes/TenantApiTrigger/verifications';
import { parameterReader } from '../harness/verifier';

import type { PropertyGroup, Verdict } from './common';
import { caseProperty, listOf } from './common';
import { credentialSecrets, hmacKey } from './oracle';
import { NOW, cased, written } from './sender';
import type { HmacSender, Setup, SignatureText } from './settings';
import { HMAC_SENDER, ROW_SENDERS, VERIFICATIONS, setups } from './settings';
import { settingsOf } from './trigger';

/** The bound docs/trigger.md gives the item: its JSON, in UTF-8 bytes. */
const ITEM_BOUND_BYTES = 2048;

/** The media types the item may name (docs/trigger.md); any other is `other`. */
const MEDIA_TYPES =
	`application/json application/*+json text/plain application/x-www-form-urlencoded
	multipart/form-data none other`.split(/\s+/);

/** The header names the rows of VERIFICATIONS read by default (the item may name them). */
const ROW_HEADERS = [
	...new Set(
		VERIFICATION_NAMES.flatMap((name) =>
			headersRead(settingsFromParameters(name, (_parameter, fallback) => fallback).verification),
		),
	),
];

/** Text the trigger's own sentences quote beside header names. */
const QUOTED_WORDS = ['Rotate API Key'];
const LIKELY_CAUSES = [
	/^The Signing Secret looks like an API key/,
	/^The Signing Secret starts with whsec_/,
	/^The Secret Encoding is hex/,
];
const ITEM_KEYS =
	`reason answered summary action verification url request secretsTried timestampSkewSeconds
	likelyCause refusedAt`.split(/\s+/);

const CANARY = 'zqj';
const NAME_CANARY = 'qxw';
const SENDER_TEXT = 'holds what the sender wrote';

/** A header name the item may show although no scheme or setting uses it (docs/trigger.md). */
const PLAIN_TOKEN = /^[a-z0-9-]{1,64}$/;

// ---- what a hostile sender sends ----

const anyText = fc.oneof(
	fc.string({ maxLength: 30 }),
	fc.string({ unit: 'binary', maxLength: 12 }),
);
/** Text the sender wrote: anything, with a canary inside. */
const withCanary = (canary: string) =>
	fc.tuple(anyText, anyText).map(([before, after]) => `${before}${canary}${after}`);
const hostile = withCanary(CANARY);

/** A name in another case, as a sender may write it. */
const anyCase = (name: string) =>
	fc.constantFrom('lower', 'upper', 'capitalized').map((how) => cased(name, how));

/** Letters, digits and `-`: what a plain token is made of. */
const tokenText = (maxLength: number) =>
	fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'), maxLength });

/** The first words of invented names, and their last ones: with or without a word that makes them signature-like. */
const NAME_STARTS = ['', ...'x-signature- x- hmac- x-token- secret- webhook-id- x-hub-'.split(' ')];
const NAME_ENDS = ['', '-signature', '-signature-256', '-timestamp', '-token', '-auth'];

/**
 * Invented names that are plain tokens (in any letter case: names arrive in lower case), also at the longest length
 * shown and one past it.
 */
const plainName = fc
	.tuple(
		fc.constantFrom(...NAME_STARTS),
		tokenText(30),
		fc.constantFrom(...NAME_ENDS),
		fc.constantFrom<number | undefined>(undefined, 64, 65),
	)
	.map(([start, middle, end, length]) => {
		const name = `${start}${NAME_CANARY}${middle}${end}`;
		return length === undefined ? name : name.padEnd(length, 'n').slice(0, length);
	})
	.chain(anyCase);

/** Invented names that are not plain tokens: another character, or anything. */
const otherName = fc.oneof(
	fc
		.tuple(
			fc.constantFrom(...NAME_STARTS),
			tokenText(20),
			fc.constantFrom('_', '.', '~', '!', ' ', 'é', '"'),
			fc.constantFrom(...NAME_ENDS),
		)
		.map(([start, middle, other, end]) => `${start}${NAME_CANARY}${middle}${other}${end}`),
	withCanary(NAME_CANARY),
);

const headerName = (configured: string[], secrets: string[]) =>
	fc.oneof(
		{ arbitrary: fc.constantFrom(...ROW_HEADERS).chain(anyCase), weight: 3 },
		{
			arbitrary:
				configured.length > 0
					? fc.constantFrom(...configured).chain(anyCase)
					: fc.constantFrom(...ROW_HEADERS),
			weight: 2,
		},
		{ arbitrary: plainName, weight: 3 },
		{ arbitrary: otherName, weight: 3 },
		// A name holding one of the credential's secrets (a plain token where the secret is one).
		{
			arbitrary:
				secrets.length > 0
					? fc
							.tuple(fc.constantFrom(...NAME_STARTS), fc.constantFrom(...secrets))
							.map(([start, secret]) => `${start}${NAME_CANARY}-${secret}`)
							.chain(anyCase)
					: plainName,
			weight: 1,
		},
	);

const hex = (bytes: number) => 'a7'.repeat(bytes);
const base64 = (bytes: number) => Buffer.alloc(bytes, 0xa7).toString('base64');
/** 32 bytes in base64 whose text holds the canary (43 characters and a pad: the last one's low bits are 0). */
const BASE64_WITH_CANARY = `${'A'.repeat(10)}${CANARY}${'A'.repeat(30)}=`;

/**
 * Values in the form of each row of VERIFICATIONS that has one of its own (docs/trigger.md), alone or with the canary
 * beside the signature or inside it.
 */
const ROW_FORM_VALUES = [
	`sha256=${hex(32)}`,
	`sha256=${base64(32)}, note=${CANARY}`,
	`sha512=${hex(64)}`,
	`sha512=${hex(64)} ${CANARY}`,
	`t=${NOW},v1=${hex(32)}`,
	`t=${NOW},v1=${hex(32)},v0=${CANARY}`,
	`v1,${base64(32)}`,
	`v1,${BASE64_WITH_CANARY} v1,${CANARY}`,
];

/** A value in the chosen HMAC settings' own form (what the sender writes), the canary beside it. */
function chosenFormValue(sender: HmacSender): string {
	const text = written(Buffer.alloc(DIGEST_BYTES[sender.algorithm], 0xa7), sender.texts[0]);
	const { label } = sender;
	if (sender.format === 'keyValue')
		return [`${sender.timestampKey}=${NOW}`, `${label}=${text}`, `x=${CANARY}`].join(
			sender.pairSeparator,
		);
	if (sender.format === 'versioned') return `${label},${text} ${CANARY}`;
	const prefix = sender.format === 'prefixed' && label !== '' ? label : `${sender.algorithm}=`;
	return `${prefix}${text}, ${CANARY}`;
}

/** Header values: anything; or values that parse (a timestamp, signatures in each form), the canary where it fits. */
const headerValue = (sender: Setup['sender'] | undefined) =>
	fc.oneof(
		hostile,
		fc.array(hostile, { minLength: 1, maxLength: 3 }),
		fc.constantFrom(
			`t=${NOW - 4000},v1=${CANARY}00`,
			`ts=${NOW + 90};h1=${CANARY}`,
			String(NOW - 3742),
			'999999999999',
			`v1,${CANARY}AAAA`,
			`sha256=${CANARY}00`,
			`v0=${CANARY}`,
		),
		fc.constantFrom(
			...ROW_FORM_VALUES,
			...(sender?.kind === 'hmac' ? [chosenFormValue(sender)] : []),
		),
		fc.constant(undefined),
	);

const contentType = fc.oneof(
	fc.constantFrom(
		...listOf(
			'application/json|Application/JSON; charset=utf-8|text/plain|application/x-www-form-urlencoded|multipart/form-data; boundary=x|application/cloudevents+json|',
		),
	),
	hostile.map((text) => `application/json; ${text}`),
	hostile.map((text) => `application/${text}+json`),
	hostile,
	fc.constant(undefined),
);

/** Body sizes around the limits that matter. */
const bodyBytes = fc.oneof(
	fc.nat(2000),
	fc.integer({ min: 128 * 1024 - 2, max: 128 * 1024 + 2 }),
	fc.nat(30_000_000),
);

type Refused = {
	reason: RefusalReason;
	status: RefusalStatus;
	seen?: { timestamp?: number; secretsTried: number[] };
};

const refusal: fc.Arbitrary<Refused> = fc.record(
	{
		reason: fc.constantFrom(...(Object.keys(REFUSALS) as RefusalReason[])),
		status: fc.constantFrom<RefusalStatus>(400, 401, 415, 503),
		seen: fc.record(
			{
				timestamp: fc.oneof(fc.integer({ min: 0, max: 999_999_999_999 }), fc.constant(NOW - 3742)),
				secretsTried: fc.subarray([0, 1, 2]),
			},
			{ requiredKeys: ['secretsTried'] },
		),
	},
	{ requiredKeys: ['reason', 'status'] },
);

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

/** A hostile request for a set-up: up to 200 headers, a Content-Type, a body size. */
function hostileRequest(verification: Verification | undefined, setup?: Setup) {
	const secrets = setup === undefined ? [] : credentialSecrets(setup);
	return fc
		.record({
			headers: fc.array(
				fc.tuple(headerName(headersRead(verification), secrets), headerValue(setup?.sender)),
				{ maxLength: 200, size: 'max' },
			),
			contentTypeName: fc.constantFrom('content-type', 'Content-Type'),
			contentType,
			bodyBytes,
		})
		.map(({ headers, contentTypeName, contentType: type, bodyBytes: size }) => ({
			headers: Object.fromEntries([...headers, [contentTypeName, type]]) as HeaderBag,
			bodyBytes: size,
		}));
}

// ---- the oracle ----

const DIGEST_BYTES = { sha1: 20, sha256: 32, sha512: 64 } as const;

/** The rows of VERIFICATIONS whose signature has a form of its own. */
const ROW_FORMS = Object.entries(ROW_SENDERS).map(([name, own]): [VerificationName, HmacSender] => [
	name as VerificationName,
	{ ...HMAC_SENDER, ...own },
]);

/** Whether a text is a digest of `bytes` written in one of `texts` (hex in either case; base64 exactly). */
const isDigest = (text: string, bytes: number, texts: SignatureText[]) =>
	!text.startsWith('whsec_') &&
	texts.some(
		(form) => hmacKey(text, form.toLowerCase() === 'hex' ? 'hex' : 'base64')?.length === bytes,
	);

/**
 * Whether a header value holds a signature in a form, marked as one: a plain signature with its algorithm's prefix
 * (`sha256=…`), a prefixed or versioned one with its label, a key=value list with its timestamp key.
 */
function inForm(value: string, form: HmacSender): boolean {
	const digest = (text: string) => isDigest(text.trim(), DIGEST_BYTES[form.algorithm], form.texts);
	const unmarked = form.format === 'plain' || (form.format === 'prefixed' && form.label === '');
	const label = unmarked ? `${form.algorithm}=` : form.label;
	if (label === '' || value.length > 2048) return false;
	const pairs = (entries: string[], separator: string) =>
		entries.flatMap((entry) => {
			const at = entry.indexOf(separator);
			return at <= 0 ? [] : [[entry.slice(0, at).trim(), entry.slice(at + separator.length)]];
		});
	if (form.format === 'keyValue') {
		const entries = pairs(value.split(form.pairSeparator), '=');
		return (
			entries.some(([key]) => key === form.timestampKey) &&
			entries.some(([key, text]) => key === label && digest(text))
		);
	}
	if (form.format === 'versioned') {
		const entries = pairs(
			value.split(/\s+/).map((entry) => entry.replace(/,$/, '')),
			',',
		);
		return entries.some(([key, text]) => key === label && digest(text));
	}
	return value
		.split(/[\s,]+/)
		.some((text) => text.startsWith(label) && digest(text.slice(label.length)));
}

const SIGNATURE_WORDS = /signature|hmac|token|secret|timestamp|webhook-id/;

/** What the oracle knows of a refused request beside the item. */
interface Request {
	/** Every secret of the credential (none may be shown). */
	secrets: string[];
	/** The header names the settings read, when generated as the node's settings (each then shown whole). */
	settingsNames?: string[];
	/** The credential's secrets as the trigger read them: undefined when it read none. */
	credentialSecrets?: string[];
	/** The chosen HMAC settings' form, when the settings were read. */
	chosen?: HmacSender;
}

/** The request's headers as the trigger reads them: lower case, the first of each name, a list joined. */
function headersOf(bag: HeaderBag): Map<string, string> {
	const headers = new Map<string, string>();
	for (const [name, value] of Object.entries(bag))
		if (value !== undefined && !headers.has(name.toLowerCase()))
			headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
	return headers;
}

/**
 * The rules for signature-like headers: a name the item shows is the schemes', the settings' or a plain token holding
 * no secret of the credential (only when the trigger read the credential); a signature elsewhere names a header the
 * settings do not read, and a Verification whose form its value has; the chosen settings' own form is always found;
 * every signature-like header is shown or counted. Nothing the sender wrote but those names reaches the item.
 */
function signatureProblems(item: IDataObject, facts: Evidence, known: Request): string[] {
	const { chosen } = known;
	const headers = headersOf(facts.headers);
	const read = new Set(known.settingsNames ?? []);
	const nameable = (name: string) =>
		known.credentialSecrets !== undefined &&
		PLAIN_TOKEN.test(name) &&
		!known.credentialSecrets.some((secret) => name.includes(secret.toLowerCase()));
	const allowed = (name: string) =>
		ROW_HEADERS.includes(name) || read.has(name) || (headers.has(name) && nameable(name));
	/** The Verifications whose form a value has, for the trigger: the chosen settings', the other rows'. */
	const formsOf = (value: string) => [
		...(chosen !== undefined && inForm(value, chosen) ? [String(item.verification)] : []),
		...ROW_FORMS.filter(
			([name, form]) =>
				!(chosen !== undefined && name === savedVerification(facts.settings)) &&
				inForm(value, form),
		).map(([name]) => ROWS[name].name),
	];
	const unread = [...headers].filter(([name]) => !read.has(name));
	const request = item.request as {
		signatureHeaders: string[];
		otherSignatureLikeHeaders: number;
		signatureElsewhere?: { header?: string; verification: string };
	};
	const { signatureHeaders: listed, otherSignatureLikeHeaders: counted } = request;
	const elsewhere = request.signatureElsewhere;
	const holders = unread.filter(
		([name, value]) =>
			(elsewhere?.header === undefined ? !allowed(name) : name === elsewhere.header) &&
			formsOf(value).includes(String(elsewhere?.verification)),
	);
	const signatureLike = [...headers].filter(
		([name, value]) =>
			ROW_HEADERS.includes(name) ||
			read.has(name) ||
			SIGNATURE_WORDS.test(name) ||
			(!read.has(name) && formsOf(value).length > 0),
	);
	const shown = signatureLike.filter(([name]) => allowed(name)).length;
	// What is left once the names that may be shown are taken out holds nothing the sender wrote.
	const unquoted = (text: unknown) =>
		String(text).replace(/"([^"]*)"/g, (m, name: string) => (allowed(name) ? '""' : m));
	const withoutNames = JSON.stringify({
		...item,
		summary: unquoted(item.summary),
		action: unquoted(item.action),
		request: { ...request, signatureHeaders: [], signatureElsewhere: elsewhere?.verification },
	});
	const rules: Array<[boolean, string]> = [
		[listed.every(allowed), `signatureHeaders ${listed.join(',')}`],
		[
			elsewhere === undefined ||
				(holders.length > 0 && (elsewhere.header === undefined || allowed(elsewhere.header))),
			`signatureElsewhere ${JSON.stringify(elsewhere)} names a header or a Verification without its form`,
		],
		[
			chosen === undefined ||
				!unread.some(([, value]) => inForm(value, chosen)) ||
				elsewhere?.verification === item.verification,
			"the chosen settings' own form in another header is not named",
		],
		[
			listed.length === Math.min(shown, 5) && counted === signatureLike.length - listed.length,
			`${listed.length} listed and ${counted} counted of ${signatureLike.length} signature-like headers, ${shown} that may be shown`,
		],
		[!withoutNames.toLowerCase().includes(NAME_CANARY), `a header name ${SENDER_TEXT}`],
	];
	return rules.flatMap(([ok, what]) => (ok ? [] : [what]));
}

function problems(item: IDataObject, facts: Evidence, refused: Refused, known: Request): string[] {
	const json = JSON.stringify(item);
	const bytes = Buffer.byteLength(json);
	const request = item.request as {
		contentType: string;
		bodyBytes: number;
		otherSignatureLikeHeaders: number;
		signatureElsewhere?: IDataObject;
	};
	const keys = ['contentType', 'bodyBytes', 'signatureHeaders', 'otherSignatureLikeHeaders'];
	if (request.signatureElsewhere !== undefined) keys.push('signatureElsewhere');
	const rowNames = VERIFICATION_NAMES.map((name) => ROWS[name].name);
	const { likelyCause, timestampSkewSeconds: skew } = item;
	const rules: Array<[boolean, string]> = [
		[bytes <= ITEM_BOUND_BYTES, `${bytes} bytes`],
		[!json.toLowerCase().includes(CANARY), SENDER_TEXT],
		[
			!known.secrets.some((secret) => json.toLowerCase().includes(secret.toLowerCase())),
			'a secret of the credential',
		],
		[Object.keys(item).every((key) => ITEM_KEYS.includes(key)), `keys ${Object.keys(item)}`],
		[item.reason === refused.reason && item.answered === refused.status, 'reason or status'],
		[item.url === (facts.testUrl ? 'Test URL' : 'Production URL'), 'url'],
		[item.refusedAt === new Date(facts.nowSeconds * 1000).toISOString(), 'refusedAt'],
		[JSON.stringify(Object.keys(request)) === JSON.stringify(keys), 'request keys'],
		[MEDIA_TYPES.includes(request.contentType), `contentType ${request.contentType}`],
		[request.bodyBytes === facts.bodyBytes, 'bodyBytes'],
		[Number.isSafeInteger(request.otherSignatureLikeHeaders), 'otherSignatureLikeHeaders'],
		[request.otherSignatureLikeHeaders >= 0, 'otherSignatureLikeHeaders'],
		[
			(item.secretsTried as string[]).every((name) => SECRET_NAMES.some((n) => n === name)),
			'secretsTried',
		],
		[skew === undefined || Number.isSafeInteger(skew), 'timestampSkewSeconds'],
		[
			likelyCause === undefined || LIKELY_CAUSES.some((cause) => cause.test(String(likelyCause))),
			'likelyCause',
		],
		[
			request.signatureElsewhere === undefined ||
				rowNames.includes(String(request.signatureElsewhere.verification)),
			`signatureElsewhere ${JSON.stringify(request.signatureElsewhere)}`,
		],
	];
	// With settings as the property generates them, each name is shown whole.
	if (known.settingsNames !== undefined) {
		const headers = headersOf(facts.headers);
		const allowed = new Set([...ROW_HEADERS, ...known.settingsNames]);
		const plain = (name: string) =>
			headers.has(name) &&
			PLAIN_TOKEN.test(name) &&
			!known.secrets.some((secret) => name.includes(secret.toLowerCase()));
		const quoted = [String(item.summary), String(item.action)].flatMap((text) =>
			[...text.matchAll(/"([^"]*)"/g)].map((match) => match[1]),
		);
		const quotable = (name: string) =>
			allowed.has(name) || plain(name) || name === item.verification || QUOTED_WORDS.includes(name);
		rules.push(
			[
				rowNames.includes(String(item.verification)) ||
					item.verification === savedVerification(facts.settings),
				`verification ${String(item.verification)}`,
			],
			[quoted.every(quotable), `quoted ${quoted.join(',')}`],
		);
	}
	return [
		...rules.flatMap(([ok, what]) => (ok ? [] : [what])),
		...(known.settingsNames === undefined ? [] : signatureProblems(item, facts, known)),
	];
}

/** The verdict on an item and the problems found in it. */
function verdictOn(item: IDataObject, found: string[], outcome: string): Verdict {
	return found.length === 0
		? { ok: true, outcome }
		: { ok: false, outcome, why: `${found.join('; ')}\n${JSON.stringify(item)}` };
}

type Case = ValueOf<ReturnType<typeof cases>>;

/** What the item shows of signature-like headers, for the coverage of the rules. */
function shownOutcome(item: IDataObject): string {
	const request = item.request as IDataObject;
	const elsewhere = request.signatureElsewhere as IDataObject | undefined;
	if (elsewhere === undefined) return 'no signature elsewhere';
	return `signature elsewhere, ${elsewhere.header === undefined ? 'its name not shown' : 'named'}`;
}

function checkCase(c: Case): Verdict {
	const settings = c.withoutSettings ? undefined : settingsOf(c.setup, c.setup.testUrl);
	const readSecrets = settings?.credentialSecrets !== undefined;
	const facts: Evidence = {
		settings: settings ?? { failure: 'internal_error', saved: c.setup.verification },
		headers: c.request.headers,
		bodyBytes: c.request.bodyBytes,
		testUrl: c.setup.testUrl,
		nowSeconds: NOW,
	};
	const item = diagnose(c.refused, facts);
	const found = problems(item, facts, c.refused, {
		secrets: credentialSecrets(c.setup),
		settingsNames: headersRead(settings?.verification),
		...(readSecrets ? { credentialSecrets: credentialSecrets(c.setup) } : {}),
		...(settings?.verification.kind === 'hmac' && c.setup.sender.kind === 'hmac'
			? { chosen: c.setup.sender }
			: {}),
	});
	const size = Buffer.byteLength(JSON.stringify(item));
	const outcome = `${c.refused.reason}: ${size <= 1024 ? 'up to 1 KiB' : size <= 1536 ? 'up to 1.5 KiB' : 'up to 2 KiB'}; ${shownOutcome(item)}`;
	return { ...verdictOn(item, found, outcome), dims: c.setup.dims };
}

const cases = (verification: VerificationName) =>
	setups(verification).chain((setup) =>
		fc
			.record({
				request: hostileRequest(settingsOf(setup, setup.testUrl).verification, setup),
				refused: refusal,
				// The settings could not be read (no credential, n8n failing): the item comes from the Verification alone.
				withoutSettings: fc.boolean(),
			})
			.map((rest) => ({ setup, ...rest })),
	);

// ---- settings of any text ----

/** Header settings, a Signed Content, and a saved Verification this version does not know, of any text and length. */
const anySetting = fc.oneof(
	anyText,
	fc.array(anyText, { maxLength: 40 }).map((list) => list.join(',')),
	fc.string({ minLength: 200, maxLength: 2000 }),
);
const TEXT_SETTINGS =
	`signatureHeader timestampHeader sharedKeyHeader customSignatureHeader customTimestampHeader
	customIdHeader customSignedContent`.split(/\s+/);

const anySettingsCases = fc.record({
	verification: fc.oneof(
		{ arbitrary: fc.constantFrom(...VERIFICATION_NAMES), weight: 4 },
		{
			arbitrary: fc.oneof(
				anySetting,
				fc.constantFrom('stripe', 'slack', 'twilio', 'adyenPayments'),
			),
			weight: 1,
		},
	),
	parameters: fc
		.record(Object.fromEntries(TEXT_SETTINGS.map((name) => [name, anySetting])))
		.map((settings) => ({ ...settings, useTimestamp: true })),
	request: hostileRequest(undefined),
	refused: refusal,
	testUrl: fc.boolean(),
});

/** Settings of any text: the bound and the sender's absence still hold (names of any text are shown cut and escaped). */
function checkAnySettings(c: ValueOf<typeof anySettingsCases>): Verdict {
	const known = (VERIFICATION_NAMES as string[]).includes(c.verification);
	const secrets = ['whsec_any', 'pk_previous'];
	const settings = known
		? settingsFromParameters(c.verification as VerificationName, parameterReader(c.parameters), {
				accepted: secrets,
				all: secrets,
			})
		: undefined;
	const facts: Evidence = {
		settings: settings ?? { failure: 'unknown_verification', saved: c.verification },
		headers: c.request.headers,
		bodyBytes: c.request.bodyBytes,
		testUrl: c.testUrl,
		nowSeconds: NOW,
	};
	const item = diagnose(c.refused, facts);
	// The canary is the sender's; a setting that happens to hold it is the user's, and may be shown.
	const found = problems(item, facts, c.refused, { secrets }).filter(
		(problem) => !(problem === SENDER_TEXT && settingsHoldCanary(c)),
	);
	return verdictOn(item, found, `any settings: ${c.refused.reason}`);
}

const settingsHoldCanary = (c: ValueOf<typeof anySettingsCases>) =>
	JSON.stringify([c.verification, c.parameters]).toLowerCase().includes(CANARY);

/** A group per row of VERIFICATIONS (the set-ups of settings.ts, both URLs), and one of settings of any text. */
export function refusalGroups(): PropertyGroup[] {
	return [
		...VERIFICATIONS.map((verification) => ({
			key: `refused-${verification}`,
			label: verification,
			properties: [caseProperty('hostile requests', 1, cases(verification), checkCase)],
		})),
		{
			key: 'refused-any-settings',
			label: 'settings of any text',
			properties: [caseProperty('hostile requests', 1, anySettingsCases, checkAnySettings)],
		},
	];
}
