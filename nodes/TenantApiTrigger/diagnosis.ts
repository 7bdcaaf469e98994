import type { IDataObject } from 'n8n-workflow';

import { SECRET_NAMES } from '../shared/webhookDelivery';

import { HANDSHAKES } from './answers';
import type { HeaderBag, Seen, VerificationConfig } from './verifier';
import {
	MAX_BODY_READ_BEFORE_VERIFYING,
	PRESETS,
	PRESET_NAMES,
	headerNames,
	headerValue,
	isPresetName,
	mediaType,
	parseTemplate,
	usableSecrets,
	usesPart,
} from './verifier';
import type { Refusal } from './receive';
import { secretsOf } from './receive';
import type { Findings } from './refusals';
import { MAX_LISTED, REFUSALS, SECRET_REASONS, shown } from './refusals';
import { verificationConfig } from './settings';
import type { VerificationName } from './verifications';
import {
	VERIFICATION_NAMES,
	isVerificationName,
	verificationOf,
	verificationsOfSender,
} from './verifications';

/** Everything a refusal can be explained from; never the body's content or a header's value. */
export interface Evidence {
	/** The Verification setting as saved (may be a value this version does not know). */
	verification: unknown;
	/** The verifier's configuration, when the settings could be read. */
	config?: VerificationConfig;
	headers: HeaderBag;
	rawBody?: Buffer;
	testUrl: boolean;
	nowSeconds: number;
}

/** Words that mark a header as one that carries a signature, a timestamp or a shared secret. */
const SIGNATURE_LIKE = /signature|hmac|token|secret|timestamp|webhook-id|svix-id/;

/** Header names the tables use: every preset's signature, timestamp and id headers, every Verification's sender headers. */
const TABLE_HEADERS: ReadonlySet<string> = new Set([
	...PRESET_NAMES.flatMap((name) =>
		[PRESETS[name].signatureHeader, PRESETS[name].timestampHeader, PRESETS[name].idHeader].flatMap(
			headerNames,
		),
	),
	...VERIFICATION_NAMES.flatMap((name) => verificationOf(name).senderHeaders),
]);

/** Media types the trigger reads or names in its answers (body.ts mediaTypeFits, receive.ts); `+json` types as one class. */
const KNOWN_MEDIA_TYPES = [
	'application/json',
	'text/plain',
	'application/x-www-form-urlencoded',
	'multipart/form-data',
];

/**
 * What a Verification proves about a delivery: that the sender knows the secret, that it signed the request (the
 * secret never travels), that it signed a timestamp (a captured delivery expires) or the URL (it cannot be sent
 * to another endpoint). A Verification is suggested only when it proves a signature and all the chosen one proves.
 */
type Proof = 'secret' | 'signature' | 'timestamp' | 'url';

function proofs(config: VerificationConfig): Proof[] {
	if (config.mode === 'none') return [];
	if (config.mode === 'secretHeader') return ['secret'];
	const parts = parseTemplate(config.scheme.signedContent) ?? [];
	const signed = (['timestamp', 'url'] as const).filter((part) => usesPart(parts, part));
	return ['secret', 'signature', ...signed];
}

/** What each Verification proves with its defaults (its preset, or the settings' defaults). */
const PROOFS_BY_DEFAULT = Object.fromEntries(
	VERIFICATION_NAMES.map((name) => [
		name,
		proofs(verificationConfig(name, (_setting, fallback) => fallback, [])),
	]),
) as Record<VerificationName, Proof[]>;

function provesAtLeast(candidate: VerificationName, chosen: Proof[]): boolean {
	const offered = PROOFS_BY_DEFAULT[candidate];
	return offered.includes('signature') && chosen.every((proof) => offered.includes(proof));
}

/** What the chosen Verification proves: its settings, else its defaults; undefined (nothing is suggested) when unknown. */
function chosenProofs(evidence: Evidence): Proof[] | undefined {
	if (evidence.config !== undefined) return proofs(evidence.config);
	return isVerificationName(evidence.verification)
		? PROOFS_BY_DEFAULT[evidence.verification]
		: undefined;
}

/** The request's media type when the trigger knows it, `none` without one, else `other` (the sender's text is never shown). */
function knownMediaType(headers: HeaderBag): string {
	const type = mediaType(headerValue(headers, 'content-type'));
	if (type === '') return 'none';
	if (type.startsWith('application/') && type.endsWith('+json')) return 'application/*+json';
	return KNOWN_MEDIA_TYPES.includes(type) ? type : 'other';
}

function expectedHeaders(config: VerificationConfig | undefined): string[] {
	if (config === undefined || config.mode === 'none') return [];
	if (config.mode === 'secretHeader') return headerNames(config.secretHeader);
	return config.scheme.signatureIn === 'items' ? [] : headerNames(config.scheme.signatureHeader);
}

/** The header names the settings configure: they are settings, so they may be shown. */
function configuredHeaders(config: VerificationConfig | undefined): string[] {
	if (config?.mode !== 'hmac') return expectedHeaders(config);
	const { scheme } = config;
	return [scheme.signatureHeader, scheme.timestampHeader, scheme.idHeader].flatMap(headerNames);
}

/** The Verifications the request points to: its headers' senders, else Adyen payments for signatures inside Adyen's items. */
function pointedTo(carried: string[], rawBody: Buffer | undefined): VerificationName[] {
	const byHeaders = verificationsOfSender(carried);
	if (byHeaders.length > 0) return byHeaders;
	const prefix = rawBody?.subarray(0, MAX_BODY_READ_BEFORE_VERIFYING);
	return prefix !== undefined &&
		prefix.includes('"hmacSignature"') &&
		prefix.includes('NotificationRequestItem')
		? ['adyenPayments']
		: [];
}

/**
 * The setting the request points to: another Verification that proves at least what the chosen one proves (a
 * sender's own header, or signatures inside Adyen's items), or, for the chosen one, the Signature Header its sender
 * uses (GitHub's on HMAC-SHA256 of the Body). Anyone can send any header: one that points to a Verification that
 * proves less suggests nothing, and the reason's own advice stands.
 */
function suggestion(evidence: Evidence, carried: string[], expected: string[]): string | undefined {
	const current = evidence.verification;
	const names = pointedTo(carried, evidence.rawBody);
	if (isVerificationName(current) && names.includes(current)) {
		const header = carried.find(
			(h) => verificationOf(current).senderHeaders.includes(h) && !expected.includes(h),
		);
		return header !== undefined && verificationOf(current).settings.includes('signatureHeader')
			? `Set Signature Header to ${header}: the request carries its signature there.`
			: undefined;
	}
	const chosen = chosenProofs(evidence);
	const stronger =
		chosen === undefined ? undefined : names.find((name) => provesAtLeast(name, chosen));
	return stronger === undefined
		? undefined
		: `Set Verification to ${verificationOf(stronger).name}: the request carries what that sender sends.`;
}

/** The Verifications whose senders' secrets begin the way this one does (the table's secretPrefix). */
function prefixOwners(secret: string): VerificationName[] {
	return VERIFICATION_NAMES.filter((name) => {
		const prefix = verificationOf(name).secretPrefix;
		return prefix !== undefined && secret.startsWith(prefix);
	});
}

/**
 * A secret that looks like the wrong kind for the setting (its text is never shown): an API key; a secret shaped like
 * another Verification's senders' (the table's secretPrefix); a key that is not hex where the preset's key is hex.
 */
function secretHint(verification: unknown, secrets: unknown[]): string | undefined {
	const [secret] = usableSecrets(secrets);
	if (secret === undefined || !isVerificationName(verification)) return undefined;
	if (/^(pk|sk|rk)_/.test(secret)) {
		return 'The Signing Secret looks like an API key (it starts with pk_, sk_ or rk_). The webhook has a secret of its own: the dashboard shows it when the Webhook URL is generated.';
	}
	const owners = prefixOwners(secret);
	if (owners.length > 0 && !owners.includes(verification) && verification !== 'customHmac') {
		const prefix = verificationOf(owners[0]).secretPrefix;
		return `The Signing Secret starts with ${prefix}, as ${owners.map((name) => verificationOf(name).name).join(' and ')} secrets do: if the sender is one of those, choose that Verification.`;
	}
	if (
		isPresetName(verification) &&
		PRESETS[verification].secretEncoding === 'hex' &&
		!/^([0-9a-f]{2})+$/i.test(secret)
	) {
		return `The key of ${verificationOf(verification).name} is hex (0-9, a-f): copy the HMAC key, not a password or an API key.`;
	}
	return undefined;
}

/** The request's header names (lower case, once each): those a preset or the settings use, and how many other signature-like ones. */
function signatureHeaders(
	headers: HeaderBag,
	config: VerificationConfig | undefined,
): { carried: string[]; others: number } {
	const known = new Set([...TABLE_HEADERS, ...configuredHeaders(config)]);
	const names = new Set(
		Object.entries(headers)
			.filter(([, value]) => value !== undefined)
			.map(([name]) => name.toLowerCase()),
	);
	const carried = [...names].filter((name) => known.has(name)).sort();
	const unknown = [...names].filter((name) => !known.has(name) && SIGNATURE_LIKE.test(name)).length;
	return { carried, others: unknown + Math.max(0, carried.length - MAX_LISTED) };
}

/** What the request showed: the evidence, and what the verifier saw of it (nothing when it did not run). */
function findingsOf(
	evidence: Evidence,
	seen: Seen | undefined,
): Findings & { secretHint?: string } {
	const { config, headers, rawBody, verification } = evidence;
	const expected = expectedHeaders(config);
	const { carried, others } = signatureHeaders(headers, config);
	const secrets = config === undefined ? [] : secretsOf(config);
	const tried = (seen?.secretsTried ?? []).map(
		(index) => SECRET_NAMES[index] ?? `secret ${index + 1}`,
	);
	return {
		verificationName: isVerificationName(verification)
			? verificationOf(verification).name
			: shown(String(verification)),
		expected,
		carried,
		others,
		contentType: knownMediaType(headers),
		bodyBytes: rawBody?.length ?? 0,
		secrets: tried,
		testUrl: evidence.testUrl,
		bodyFormat: config?.mode === 'hmac' ? config.scheme.bodyFormat : (config?.bodyFormat ?? 'json'),
		suggested: suggestion(evidence, carried, expected),
		skew: seen?.timestamp === undefined ? undefined : seen.timestamp - evidence.nowSeconds,
		tolerance: config?.mode === 'hmac' ? config.scheme.toleranceSeconds : undefined,
		secretHint: secretHint(verification, secrets),
	};
}

/**
 * The Refused output's item: what was checked, what was found, the one thing to change, in the trigger's own words
 * and the node's settings only (reason codes, counts, sizes, known media types and header names). It holds no
 * secret, no expected signature, no header value and nothing of the body but its size.
 */
export function diagnose(
	refusal: Pick<Refusal, 'status' | 'reason' | 'seen'>,
	evidence: Evidence,
): IDataObject {
	const findings = findingsOf(evidence, refusal.seen);
	const [found, change] = REFUSALS[refusal.reason].explain(findings);
	const handshake = Object.values(HANDSHAKES).find((candidate) =>
		candidate.looksLike(evidence.headers, evidence.rawBody),
	);
	const summary = handshake === undefined ? found : `${handshake.label} was refused. ${found}`;
	const action = handshake === undefined ? change : `${change} ${handshake.whileRefused}`;
	return {
		reason: refusal.reason,
		answered: refusal.status,
		summary,
		action,
		verification: findings.verificationName,
		...(handshake === undefined ? {} : { handshake: handshake.label }),
		url: evidence.testUrl ? 'Test URL' : 'Production URL',
		request: {
			contentType: findings.contentType,
			bodyBytes: findings.bodyBytes,
			signatureHeaders: findings.carried.slice(0, MAX_LISTED).map(shown),
			otherSignatureLikeHeaders: findings.others,
		},
		secretsTried: findings.secrets,
		...(findings.skew === undefined ? {} : { timestampSkewSeconds: findings.skew }),
		...(findings.secretHint === undefined || !SECRET_REASONS.includes(refusal.reason)
			? {}
			: { likelyCause: findings.secretHint }),
		refusedAt: new Date(evidence.nowSeconds * 1000).toISOString(),
	};
}
