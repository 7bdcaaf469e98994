/**
 * The Refused output's item (nodes/TenantApiTrigger/diagnosis.ts) for hostile requests: whatever a sender sends (any
 * header names and values, Content-Types, body sizes), under every set-up of settings.ts at either URL, the item
 * stays within its bound and every string in it is the trigger's own vocabulary or the node's settings, as
 * docs/trigger.md "When a delivery is refused" says. Used by test/unit/refusalProperties.test.ts (a fixed seed).
 *
 * Everything the sender writes (header names other than the tables', header values, Content-Types, the body) holds
 * CANARY, so any of it that reaches the item is found wherever it lands.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { SECRET_NAMES } from '../../nodes/shared/webhookDelivery';
import type { Evidence } from '../../nodes/TenantApiTrigger/diagnosis';
import { HANDSHAKES } from '../../nodes/TenantApiTrigger/answers';
import { diagnose } from '../../nodes/TenantApiTrigger/diagnosis';
import type { RefusalReason } from '../../nodes/TenantApiTrigger/refusals';
import { REFUSALS } from '../../nodes/TenantApiTrigger/refusals';
import { signingSecrets, verificationConfig } from '../../nodes/TenantApiTrigger/settings';
import type { HeaderBag, VerificationConfig } from '../../nodes/TenantApiTrigger/verifier';
import { PRESETS, PRESET_NAMES } from '../../nodes/TenantApiTrigger/verifier';
import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import { VERIFICATION_NAMES, verificationOf } from '../../nodes/TenantApiTrigger/verifications';
import { parameterReader } from '../harness/verifier';

import type { PropertyGroup, Verdict } from './common';
import { caseProperty } from './common';
import { NOW } from './sender';
import type { Setup } from './settings';
import { VERIFICATIONS, setups } from './settings';

/** The bound docs/trigger.md gives the item: its JSON, in UTF-8 bytes. */
export const ITEM_BOUND_BYTES = 2048;

/** Every refusal reason the trigger gives: the keys of its refusal table, which the compiler holds to the reasons. */
export const REASONS = Object.keys(REFUSALS) as RefusalReason[];

/** The media types the item may name (docs/trigger.md); any other is `other`. */
const MEDIA_TYPES = [
	'application/json',
	'application/*+json',
	'text/plain',
	'application/x-www-form-urlencoded',
	'multipart/form-data',
	'none',
	'other',
];

/** The header names of the preset and Verification tables (docs/trigger.md: the names some preset uses). */
export const TABLE_HEADERS = [
	...new Set(
		[
			...PRESET_NAMES.flatMap((name) => [
				PRESETS[name].signatureHeader,
				PRESETS[name].timestampHeader,
				PRESETS[name].idHeader,
			]),
			...VERIFICATION_NAMES.flatMap((name) => verificationOf(name).senderHeaders),
		].flatMap(names),
	),
];

/** Text the trigger's own sentences quote beside header names (what a sender shows while its handshake is refused, too). */
const QUOTED_WORDS = [
	'Rotate API Key',
	...Object.values(HANDSHAKES).flatMap((handshake) =>
		[...handshake.whileRefused.matchAll(/"([^"]*)"/g)].map((match) => match[1]),
	),
];
const LIKELY_CAUSES = [
	/^The Signing Secret looks like an API key/,
	/^The Signing Secret starts with whsec_/,
	/^The key of Adyen \((Payments|Platform) Webhooks\) is hex/,
];
const ITEM_KEYS = [
	'reason',
	'answered',
	'summary',
	'action',
	'verification',
	'handshake',
	'url',
	'request',
	'secretsTried',
	'timestampSkewSeconds',
	'likelyCause',
	'refusedAt',
];
const HANDSHAKE_LABELS = Object.values(HANDSHAKES).map((handshake) => handshake.label);

export const CANARY = 'zqj';
const SENDER_TEXT = 'holds what the sender wrote';

function names(list: string): string[] {
	return list
		.split(',')
		.map((name) => name.trim().toLowerCase())
		.filter((name) => name !== '');
}

/** The header names the node's settings configure (they may be shown). */
function configuredHeaders(config: VerificationConfig | undefined): string[] {
	if (config === undefined || config.mode === 'none') return [];
	if (config.mode === 'secretHeader') return names(config.secretHeader);
	return [
		config.scheme.signatureHeader,
		config.scheme.timestampHeader,
		config.scheme.idHeader,
	].flatMap(names);
}

// ---- what a hostile sender sends ----

const anyText = fc.oneof(
	fc.string({ maxLength: 30 }),
	fc.string({ unit: 'binary', maxLength: 12 }),
);
/** Text the sender wrote: anything, with the canary inside. */
const hostile = fc.tuple(anyText, anyText).map(([before, after]) => `${before}${CANARY}${after}`);

/** A name in another case, as a sender may write it. */
const anyCase = (name: string) =>
	fc.constantFrom(
		name,
		name.toUpperCase(),
		name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase()),
	);

const headerName = (configured: string[]) =>
	fc.oneof(
		{ arbitrary: fc.constantFrom(...TABLE_HEADERS).chain(anyCase), weight: 3 },
		{
			arbitrary:
				configured.length > 0
					? fc.constantFrom(...configured).chain(anyCase)
					: fc.constantFrom(...TABLE_HEADERS),
			weight: 2,
		},
		// Invented names with the words that make a header signature-like.
		{
			arbitrary: fc
				.tuple(
					fc.constantFrom(
						'x-signature-',
						'x-',
						'',
						'hmac-',
						'x-token-',
						'secret-',
						'webhook-id-',
						'svix-id',
					),
					hostile,
					fc.constantFrom('', '-signature', '-timestamp', '-token'),
				)
				.map((parts) => parts.join('')),
			weight: 4,
		},
		{ arbitrary: hostile, weight: 2 },
	);

/** Header values: anything; or values that parse (a timestamp, signatures in each format), the canary where it fits. */
const headerValue = fc.oneof(
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
	fc.constant(undefined),
);

const contentType = fc.oneof(
	fc.constantFrom(
		'application/json',
		'Application/JSON; charset=utf-8',
		'text/plain',
		'application/x-www-form-urlencoded',
		'multipart/form-data; boundary=x',
		'application/cloudevents+json',
		'',
	),
	hostile.map((text) => `application/json; ${text}`),
	hostile.map((text) => `application/${text}+json`),
	hostile,
	fc.constant(undefined),
);

/**
 * A body (described, built by bodyOf): sizes around the limits that matter, filled with the canary; Adyen's markers
 * around it; Slack's URL verification with the canary as its challenge; none (multipart).
 */
type BodySpec = { size: number } | { adyen: string } | { slackChallenge: string } | null;

const body: fc.Arbitrary<BodySpec> = fc.oneof(
	fc
		.oneof(fc.nat(2000), fc.integer({ min: 128 * 1024 - 2, max: 128 * 1024 + 2 }), fc.nat(300_000))
		.map((size) => ({ size })),
	hostile.map((text) => ({ adyen: text })),
	hostile.map((text) => ({ slackChallenge: text })),
	fc.constant(null),
);

function bodyOf(spec: BodySpec): Buffer | undefined {
	if (spec === null) return undefined;
	if ('size' in spec) return Buffer.alloc(spec.size, CANARY);
	if ('slackChallenge' in spec)
		return Buffer.from(
			JSON.stringify({ token: CANARY, challenge: spec.slackChallenge, type: 'url_verification' }),
		);
	return Buffer.from(
		JSON.stringify({
			notificationItems: [
				{ NotificationRequestItem: { additionalData: { hmacSignature: spec.adyen } } },
			],
		}),
	);
}

const refusal = fc.record({
	reason: fc.constantFrom(...REASONS),
	status: fc.constantFrom(400, 401, 413, 415, 503) as fc.Arbitrary<400 | 401 | 413 | 415 | 503>,
});

/** A hostile request for a set-up: up to 200 headers, a Content-Type, a body. */
interface HostileRequest {
	headers: HeaderBag;
	body: BodySpec;
}

function hostileRequest(config: VerificationConfig | undefined): fc.Arbitrary<HostileRequest> {
	return fc
		.record({
			headers: fc
				.tuple(
					fc.array(fc.tuple(headerName(configuredHeaders(config)), headerValue), {
						maxLength: 200,
						size: 'max',
					}),
					fc.constantFrom([], [['X-GitHub-Event', 'ping']]),
				)
				.map(([generated, ping]) => [...ping, ...generated]),
			contentTypeName: fc.constantFrom('content-type', 'Content-Type'),
			contentType,
			body,
		})
		.map(({ headers, contentTypeName, contentType: type, body: spec }) => ({
			headers: Object.fromEntries([...headers, [contentTypeName, type]]) as HeaderBag,
			body: spec,
		}));
}

// ---- the oracle ----

function problems(
	item: IDataObject,
	facts: Evidence,
	refused: { reason: RefusalReason; status: number },
	settingsNames: string[] | undefined,
): string[] {
	const found: string[] = [];
	const check = (ok: boolean, what: string) => (ok ? undefined : found.push(what));
	const json = JSON.stringify(item);
	check(Buffer.byteLength(json) <= ITEM_BOUND_BYTES, `${Buffer.byteLength(json)} bytes`);
	check(!json.toLowerCase().includes(CANARY), SENDER_TEXT);
	check(
		Object.keys(item).every((key) => ITEM_KEYS.includes(key)),
		`keys ${Object.keys(item).join(',')}`,
	);
	check(item.reason === refused.reason && item.answered === refused.status, 'reason or status');
	check(item.url === (facts.testUrl ? 'Test URL' : 'Production URL'), 'url');
	check(item.refusedAt === new Date(facts.nowSeconds * 1000).toISOString(), 'refusedAt');
	const request = item.request as {
		contentType: string;
		bodyBytes: number;
		signatureHeaders: string[];
		otherSignatureLikeHeaders: number;
	};
	check(
		JSON.stringify(Object.keys(request)) ===
			JSON.stringify(['contentType', 'bodyBytes', 'signatureHeaders', 'otherSignatureLikeHeaders']),
		'request keys',
	);
	check(MEDIA_TYPES.includes(request.contentType), `contentType ${request.contentType}`);
	check(request.bodyBytes === (facts.rawBody?.length ?? 0), 'bodyBytes');
	check(
		Number.isSafeInteger(request.otherSignatureLikeHeaders) &&
			request.otherSignatureLikeHeaders >= 0,
		'otherSignatureLikeHeaders',
	);
	check(
		(item.secretsTried as string[]).every((name) =>
			(SECRET_NAMES as readonly string[]).includes(name),
		),
		'secretsTried',
	);
	check(
		item.timestampSkewSeconds === undefined || Number.isSafeInteger(item.timestampSkewSeconds),
		'timestampSkewSeconds',
	);
	check(
		item.likelyCause === undefined ||
			LIKELY_CAUSES.some((cause) => cause.test(String(item.likelyCause))),
		'likelyCause',
	);
	check(
		item.handshake === undefined || HANDSHAKE_LABELS.includes(String(item.handshake)),
		'handshake',
	);
	const verificationNames = VERIFICATION_NAMES.map((name) => verificationOf(name).name);
	// With settings as the property generates them (header names, a Verification's key), each name is shown whole.
	if (settingsNames !== undefined) {
		const allowed = new Set([...TABLE_HEADERS, ...settingsNames]);
		check(
			verificationNames.includes(String(item.verification)) ||
				item.verification === facts.verification,
			`verification ${String(item.verification)}`,
		);
		check(
			request.signatureHeaders.every((name) => allowed.has(name)),
			`signatureHeaders ${request.signatureHeaders.join(',')}`,
		);
		const quoted = [String(item.summary), String(item.action)].flatMap((text) =>
			[...text.matchAll(/"([^"]*)"/g)].map((match) => match[1]),
		);
		check(
			quoted.every(
				(name) => allowed.has(name) || name === item.verification || QUOTED_WORDS.includes(name),
			),
			`quoted ${quoted.join(',')}`,
		);
	}
	return found;
}

interface Case {
	setup: Setup;
	request: HostileRequest;
	refused: { reason: RefusalReason; status: 400 | 401 | 413 | 415 | 503 };
	/** The settings could not be read (no credential, n8n failing): the item is written from the Verification alone. */
	withoutConfig: boolean;
}

const configOf = (setup: Setup) =>
	verificationConfig(
		setup.verification,
		parameterReader(setup.parameters),
		signingSecrets(setup.credential, setup.testUrl),
	);

function checkCase(c: Case): Verdict {
	const config = c.withoutConfig ? undefined : configOf(c.setup);
	const facts: Evidence = {
		verification: c.setup.verification,
		config,
		headers: c.request.headers,
		rawBody: bodyOf(c.request.body),
		testUrl: c.setup.testUrl,
		nowSeconds: NOW,
	};
	const item = diagnose(c.refused, facts);
	const found = problems(item, facts, c.refused, configuredHeaders(config));
	const size = Buffer.byteLength(JSON.stringify(item));
	const outcome = `${c.refused.reason}: ${size <= 1024 ? 'up to 1 KiB' : size <= 1536 ? 'up to 1.5 KiB' : 'up to 2 KiB'}`;
	return {
		...(found.length === 0
			? { ok: true, outcome }
			: { ok: false, outcome, why: `${found.join('; ')}\n${JSON.stringify(item)}` }),
		dims: c.setup.dims,
	};
}

const cases = (verification: VerificationName): fc.Arbitrary<Case> =>
	setups(verification).chain((setup) =>
		fc
			.record({
				request: hostileRequest(configOf(setup)),
				refused: refusal,
				withoutConfig: fc.boolean(),
			})
			.map((rest) => ({ setup, ...rest })),
	);

// ---- settings of any text ----

/** Header settings, and a saved Verification this version does not know, of any text and length. */
const anySetting = fc.oneof(
	anyText,
	fc.array(anyText, { maxLength: 40 }).map((list) => list.join(',')),
	fc.string({ minLength: 200, maxLength: 2000 }),
);
const HEADER_SETTINGS = [
	'signatureHeader',
	'timestampHeader',
	'sharedKeyHeader',
	'customSignatureHeader',
	'customTimestampHeader',
	'customIdHeader',
];

interface AnySettingsCase {
	verification: string;
	parameters: IDataObject;
	request: HostileRequest;
	refused: { reason: RefusalReason; status: 400 | 401 | 413 | 415 | 503 };
	testUrl: boolean;
}

const anySettingsCases: fc.Arbitrary<AnySettingsCase> = fc.record({
	verification: fc.oneof(
		{ arbitrary: fc.constantFrom(...VERIFICATION_NAMES), weight: 4 },
		{ arbitrary: anySetting, weight: 1 },
	),
	parameters: fc
		.record(Object.fromEntries(HEADER_SETTINGS.map((name) => [name, anySetting])))
		.map((settings) => ({
			...settings,
			useTimestamp: true,
			customSignedContent: '{timestamp}.{id}.{body}',
		})),
	request: hostileRequest(undefined),
	refused: refusal,
	testUrl: fc.boolean(),
});

/** Settings of any text: the bound and the sender's absence still hold (names of any text are shown cut and escaped). */
function checkAnySettings(c: AnySettingsCase): Verdict {
	const known = (VERIFICATION_NAMES as string[]).includes(c.verification);
	const config = known
		? verificationConfig(c.verification as VerificationName, parameterReader(c.parameters), [
				'whsec_any',
				'pk_previous',
			])
		: undefined;
	const facts: Evidence = {
		verification: c.verification,
		config,
		headers: c.request.headers,
		rawBody: bodyOf(c.request.body),
		testUrl: c.testUrl,
		nowSeconds: NOW,
	};
	const item = diagnose(c.refused, facts);
	// The canary is the sender's; a setting that happens to hold it is the user's, and may be shown.
	const found = problems(item, facts, c.refused, undefined).filter(
		(problem) => !(problem === SENDER_TEXT && settingsHoldCanary(c)),
	);
	return found.length === 0
		? { ok: true, outcome: `any settings: ${c.refused.reason}` }
		: { ok: false, outcome: 'any settings', why: `${found.join('; ')}\n${JSON.stringify(item)}` };
}

const settingsHoldCanary = (c: AnySettingsCase) =>
	JSON.stringify([c.verification, c.parameters]).toLowerCase().includes(CANARY);

/** A group per Verification (the set-ups of settings.ts, both URLs), and one of settings of any text. */
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
