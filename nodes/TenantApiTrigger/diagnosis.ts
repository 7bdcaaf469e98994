/**
 * The Refused output's item: what was checked, what was found, and the one thing to change, in the
 * trigger's own words and the node's settings only. It holds no secret, no expected signature, no
 * header value and nothing of the body but its size.
 */
import type { IDataObject } from 'n8n-workflow';

import { SECRET_NAMES } from '../shared/webhookDelivery';

import type { Seen } from './authenticate';
import type { BodyFormat } from './body';
import type { HeaderBag } from './headers';
import { headerNames, mediaType, usableSecrets } from './headers';
import type { Refusal } from './receive';
import type { Findings } from './refusals';
import { MAX_LISTED, REFUSALS, SECRET_REASONS, shown } from './refusals';
import type { Check, SchemeName } from './schemes';
import { SCHEME_NAMES, defaultCheck, isSchemeName, schemeOf } from './schemes';
import { parseSignedContent, usesPart } from './signedContent';

/** Everything a refusal can be explained from; never the body's content or a header's value. */
export interface Evidence {
	/** The Verification setting as saved (may be a value this version does not offer). */
	verification: unknown;
	/** The check and the settings' secrets and body format, when the settings could be read. */
	check?: Check;
	secrets?: unknown[];
	bodyFormat?: BodyFormat;
	headers: HeaderBag;
	bodyBytes: number;
	testUrl: boolean;
	nowSeconds: number;
}

/** Words that mark a header as one that carries a signature, a timestamp or a shared secret. */
const SIGNATURE_LIKE = /signature|hmac|token|secret|timestamp|webhook-id/;

/** The header names a check reads its signature (or shared key) from. */
function expectedHeaders(check: Check | undefined): string[] {
	if (check === undefined || check.kind === 'none') return [];
	return headerNames(check.kind === 'secretHeader' ? check.header : check.signing.signatureHeader);
}

/** Every header name a check reads. */
function checkHeaders(check: Check | undefined): string[] {
	if (check?.kind !== 'hmac') return expectedHeaders(check);
	const { signing } = check;
	return [signing.signatureHeader, signing.timestampHeader, signing.idHeader].flatMap(headerNames);
}

/** Header names the schemes read by default. */
const SCHEME_HEADERS: ReadonlySet<string> = new Set(
	SCHEME_NAMES.flatMap((name) => checkHeaders(defaultCheck(name))),
);

/**
 * What a check proves about a delivery: that the sender knows the secret, that it signed the
 * request (the secret never travels), a timestamp (a captured delivery expires) or the URL (it
 * cannot be sent elsewhere).
 */
type Proof = 'secret' | 'signature' | 'timestamp' | 'url';

function proofs(check: Check): Proof[] {
	if (check.kind === 'none') return [];
	if (check.kind === 'secretHeader') return ['secret'];
	const template = parseSignedContent(check.signing.signedContent, 'json');
	const parts = template.ok ? template.parts : [];
	const signed = (['timestamp', 'url'] as const).filter((part) => usesPart(parts, part));
	return ['secret', 'signature', ...signed];
}

/**
 * The request's media type when the trigger knows it, `none` without one, else `other` (its text is
 * never shown).
 */
function knownMediaType(headers: HeaderBag): string {
	const type = mediaType(headers);
	if (type === '') return 'none';
	if (type.startsWith('application/') && type.endsWith('+json')) return 'application/*+json';
	const known = ['application/json', 'text/plain', 'application/x-www-form-urlencoded'];
	return [...known, 'multipart/form-data'].includes(type) ? type : 'other';
}

/**
 * Another scheme whose own headers the request carries (a header only it reads by default) and that
 * proves at least what the chosen check proves. Anyone can send any header: one that points to a
 * scheme that proves less suggests nothing, and the reason's own advice stands.
 */
function suggestion(evidence: Evidence, carried: string[]): string | undefined {
	if (evidence.check === undefined) return undefined;
	const chosen = proofs(evidence.check);
	const configured = new Set(checkHeaders(evidence.check));
	const pointed = SCHEME_NAMES.find((name: SchemeName) => {
		const check = defaultCheck(name);
		const own = expectedHeaders(check).filter((header) => !configured.has(header));
		const offered = proofs(check);
		return (
			name !== evidence.verification &&
			own.some((header) => carried.includes(header)) &&
			offered.includes('signature') &&
			chosen.every((proof) => offered.includes(proof))
		);
	});
	return pointed === undefined
		? undefined
		: `Set Verification to ${schemeOf(pointed).name}: the request carries what that scheme sends.`;
}

/**
 * A secret that looks like the wrong kind for the setting (its text is never shown): an API key; a
 * secret shaped like another scheme's (secretPrefix); text that is not hex where the key is hex.
 */
function secretHint(evidence: Evidence): string | undefined {
	const [secret] = usableSecrets(evidence.secrets ?? []);
	const { check, verification } = evidence;
	if (secret === undefined || check?.kind !== 'hmac') return undefined;
	if (/^(pk|sk|rk)_/.test(secret))
		return 'The Signing Secret looks like an API key (it starts with pk_, sk_ or rk_). The webhook has a secret of its own: the dashboard shows it when the Webhook URL is generated.';
	const owner = SCHEME_NAMES.find((name) => {
		const prefix = schemeOf(name).secretPrefix;
		return prefix !== undefined && secret.startsWith(prefix) && name !== verification;
	});
	if (owner !== undefined && check.signing.secretEncoding === 'text')
		return `The Signing Secret starts with ${schemeOf(owner).secretPrefix}, as ${schemeOf(owner).name} secrets do: if the sender follows that scheme, choose it.`;
	if (check.signing.secretEncoding === 'hex' && !/^([0-9a-f]{2})+$/i.test(secret))
		return 'The Secret Encoding is hex (0-9, a-f): copy the HMAC key, not a password or an API key.';
	return undefined;
}

/**
 * The request's header names (lower case, once each): those a scheme or the settings read, and how
 * many more look like signatures.
 */
function signatureHeaders(headers: HeaderBag, check: Check | undefined) {
	const known = new Set([...SCHEME_HEADERS, ...checkHeaders(check)]);
	const names = new Set(
		Object.entries(headers)
			.filter(([, value]) => value !== undefined)
			.map(([name]) => name.toLowerCase()),
	);
	const carried = [...names].filter((name) => known.has(name)).sort();
	const unknown = [...names].filter((name) => !known.has(name) && SIGNATURE_LIKE.test(name)).length;
	return { carried, others: unknown + Math.max(0, carried.length - MAX_LISTED) };
}

function findingsOf(evidence: Evidence, seen: Seen | undefined): Findings {
	const { check, headers, verification } = evidence;
	const { carried, others } = signatureHeaders(headers, check);
	const template =
		check?.kind === 'hmac'
			? parseSignedContent(check.signing.signedContent, evidence.bodyFormat ?? 'json')
			: undefined;
	return {
		verificationName: isSchemeName(verification)
			? schemeOf(verification).name
			: shown(String(verification)),
		expected: expectedHeaders(check),
		carried,
		others,
		contentType: knownMediaType(headers),
		bodyBytes: evidence.bodyBytes,
		secrets: (seen?.secretsTried ?? []).map(
			(index) => SECRET_NAMES[index] ?? `secret ${index + 1}`,
		),
		testUrl: evidence.testUrl,
		bodyFormat: evidence.bodyFormat ?? 'json',
		suggested: suggestion(evidence, carried),
		...(template?.ok === false
			? { signedContentProblem: template.problem, removedFeature: template.removed }
			: {}),
		skew: seen?.timestamp === undefined ? undefined : seen.timestamp - evidence.nowSeconds,
		tolerance: check?.kind === 'hmac' ? check.signing.toleranceSeconds : undefined,
	};
}

/** The Refused output's item for a refusal. */
export function diagnose(
	refusal: Pick<Refusal, 'status' | 'reason' | 'seen'>,
	evidence: Evidence,
): IDataObject {
	const findings = findingsOf(evidence, refusal.seen);
	const [summary, action] = REFUSALS[refusal.reason].explain(findings);
	const hint = SECRET_REASONS.includes(refusal.reason) ? secretHint(evidence) : undefined;
	return {
		reason: refusal.reason,
		answered: refusal.status,
		summary,
		action,
		verification: findings.verificationName,
		url: evidence.testUrl ? 'Test URL' : 'Production URL',
		request: {
			contentType: findings.contentType,
			bodyBytes: findings.bodyBytes,
			signatureHeaders: findings.carried.slice(0, MAX_LISTED).map(shown),
			otherSignatureLikeHeaders: findings.others,
		},
		secretsTried: findings.secrets,
		...(findings.skew === undefined ? {} : { timestampSkewSeconds: findings.skew }),
		...(hint === undefined ? {} : { likelyCause: hint }),
		refusedAt: new Date(evidence.nowSeconds * 1000).toISOString(),
	};
}
