/**
 * The Refused output's item (nodes/TenantApiTrigger/diagnosis.ts) for hostile requests: whatever a sender sends (any
 * header names and values, Content-Types, body sizes), under every set-up of settings.ts at either URL, the item
 * stays within its bound, holds no secret of the credential in any letter case, and every string in it is the
 * trigger's own vocabulary or the node's settings, as docs/trigger.md "When a delivery is refused" says. Used by
 * test/unit/refusalProperties.test.ts (a fixed seed).
 *
 * Everything the sender writes (header names other than the schemes', header values, Content-Types) holds CANARY, so
 * any of it that reaches the item is found wherever it lands.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { SECRET_NAMES } from '../../nodes/shared/webhookDelivery';
import type { Evidence } from '../../nodes/TenantApiTrigger/diagnosis';
import { diagnose } from '../../nodes/TenantApiTrigger/diagnosis';
import type { HeaderBag } from '../../nodes/TenantApiTrigger/headers';
import type { RefusalReason, RefusalStatus } from '../../nodes/TenantApiTrigger/refusals';
import { REFUSALS } from '../../nodes/TenantApiTrigger/refusals';
import type { Check, SchemeName } from '../../nodes/TenantApiTrigger/schemes';
import { SCHEMES, SCHEME_NAMES, defaultCheck } from '../../nodes/TenantApiTrigger/schemes';
import { settingsFromParameters, signingSecrets } from '../../nodes/TenantApiTrigger/settings';
import { parameterReader } from '../harness/verifier';

import type { PropertyGroup, Verdict } from './common';
import { caseProperty } from './common';
import { credentialSecrets } from './oracle';
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

function names(list: string): string[] {
	return list
		.split(',')
		.map((name) => name.trim().toLowerCase())
		.filter((name) => name !== '');
}

/** The header names a check reads. */
function checkHeaders(check: Check | undefined): string[] {
	if (check === undefined || check.kind === 'none') return [];
	if (check.kind === 'secretHeader') return names(check.header);
	const { signing } = check;
	return [signing.signatureHeader, signing.timestampHeader, signing.idHeader].flatMap(names);
}

/** The header names the rows of SCHEMES read by default (the item may name them). */
export const SCHEME_HEADERS = [
	...new Set(SCHEME_NAMES.flatMap((name) => checkHeaders(defaultCheck(name)))),
];

/** Text the trigger's own sentences quote beside header names. */
const QUOTED_WORDS = ['Rotate API Key'];
const LIKELY_CAUSES = [
	/^The Signing Secret looks like an API key/,
	/^The Signing Secret starts with whsec_/,
	/^The Secret Encoding is hex/,
];
const ITEM_KEYS = [
	'reason',
	'answered',
	'summary',
	'action',
	'verification',
	'url',
	'request',
	'secretsTried',
	'timestampSkewSeconds',
	'likelyCause',
	'refusedAt',
];

export const CANARY = 'zqj';
const SENDER_TEXT = 'holds what the sender wrote';

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
		{ arbitrary: fc.constantFrom(...SCHEME_HEADERS).chain(anyCase), weight: 3 },
		{
			arbitrary:
				configured.length > 0
					? fc.constantFrom(...configured).chain(anyCase)
					: fc.constantFrom(...SCHEME_HEADERS),
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
		reason: fc.constantFrom(...REASONS),
		status: fc.constantFrom<RefusalStatus>(400, 401, 413, 415, 503),
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

/** A hostile request for a set-up: up to 200 headers, a Content-Type, a body size. */
interface HostileRequest {
	headers: HeaderBag;
	bodyBytes: number;
}

function hostileRequest(check: Check | undefined): fc.Arbitrary<HostileRequest> {
	return fc
		.record({
			headers: fc.array(fc.tuple(headerName(checkHeaders(check)), headerValue), {
				maxLength: 200,
				size: 'max',
			}),
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

interface Request {
	secrets: string[];
	settingsNames?: string[];
}

function problems(item: IDataObject, facts: Evidence, refused: Refused, known: Request): string[] {
	const found: string[] = [];
	const check = (ok: boolean, what: string) => (ok ? undefined : found.push(what));
	const json = JSON.stringify(item);
	check(Buffer.byteLength(json) <= ITEM_BOUND_BYTES, `${Buffer.byteLength(json)} bytes`);
	check(!json.toLowerCase().includes(CANARY), SENDER_TEXT);
	check(
		!known.secrets.some((secret) => json.toLowerCase().includes(secret.toLowerCase())),
		'a secret of the credential',
	);
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
	check(request.bodyBytes === facts.bodyBytes, 'bodyBytes');
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
	const schemeNames = SCHEME_NAMES.map((name) => SCHEMES[name].name as string);
	// With settings as the property generates them, each name is shown whole.
	if (known.settingsNames !== undefined) {
		const allowed = new Set([...SCHEME_HEADERS, ...known.settingsNames]);
		check(
			schemeNames.includes(String(item.verification)) || item.verification === facts.verification,
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
	refused: Refused;
	/** The settings could not be read (no credential, n8n failing): the item is written from the Verification alone. */
	withoutSettings: boolean;
}

/** The settings as the node reads them for a set-up's URL. */
function settingsOf(setup: Setup) {
	const secrets =
		setup.verification === 'none'
			? { accepted: [], all: [] }
			: { accepted: signingSecrets(setup.credential, setup.testUrl), all: [] };
	return settingsFromParameters(setup.verification, parameterReader(setup.parameters), secrets);
}

function checkCase(c: Case): Verdict {
	const settings = c.withoutSettings ? undefined : settingsOf(c.setup);
	const facts: Evidence = {
		verification: c.setup.verification,
		...(settings === undefined
			? {}
			: { check: settings.check, secrets: settings.secrets, bodyFormat: settings.bodyFormat }),
		headers: c.request.headers,
		bodyBytes: c.request.bodyBytes,
		testUrl: c.setup.testUrl,
		nowSeconds: NOW,
	};
	const item = diagnose(c.refused, facts);
	const found = problems(item, facts, c.refused, {
		secrets: credentialSecrets(c.setup),
		settingsNames: checkHeaders(settings?.check),
	});
	const size = Buffer.byteLength(JSON.stringify(item));
	const outcome = `${c.refused.reason}: ${size <= 1024 ? 'up to 1 KiB' : size <= 1536 ? 'up to 1.5 KiB' : 'up to 2 KiB'}`;
	return {
		...(found.length === 0
			? { ok: true, outcome }
			: { ok: false, outcome, why: `${found.join('; ')}\n${JSON.stringify(item)}` }),
		dims: c.setup.dims,
	};
}

const cases = (verification: SchemeName): fc.Arbitrary<Case> =>
	setups(verification).chain((setup) =>
		fc
			.record({
				request: hostileRequest(settingsOf(setup).check),
				refused: refusal,
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
const TEXT_SETTINGS = [
	'signatureHeader',
	'timestampHeader',
	'sharedKeyHeader',
	'customSignatureHeader',
	'customTimestampHeader',
	'customIdHeader',
	'customSignedContent',
];

interface AnySettingsCase {
	verification: string;
	parameters: IDataObject;
	request: HostileRequest;
	refused: Refused;
	testUrl: boolean;
}

const anySettingsCases: fc.Arbitrary<AnySettingsCase> = fc.record({
	verification: fc.oneof(
		{ arbitrary: fc.constantFrom(...SCHEME_NAMES), weight: 4 },
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
function checkAnySettings(c: AnySettingsCase): Verdict {
	const known = (SCHEME_NAMES as string[]).includes(c.verification);
	const secrets = ['whsec_any', 'pk_previous'];
	const settings = known
		? settingsFromParameters(c.verification as SchemeName, parameterReader(c.parameters), {
				accepted: secrets,
				all: secrets,
			})
		: undefined;
	const facts: Evidence = {
		verification: c.verification,
		...(settings === undefined
			? {}
			: { check: settings.check, secrets: settings.secrets, bodyFormat: settings.bodyFormat }),
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
	return found.length === 0
		? { ok: true, outcome: `any settings: ${c.refused.reason}` }
		: { ok: false, outcome: 'any settings', why: `${found.join('; ')}\n${JSON.stringify(item)}` };
}

const settingsHoldCanary = (c: AnySettingsCase) =>
	JSON.stringify([c.verification, c.parameters]).toLowerCase().includes(CANARY);

/** A group per row of SCHEMES (the set-ups of settings.ts, both URLs), and one of settings of any text. */
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
