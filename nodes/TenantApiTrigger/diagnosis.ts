/**
 * The Refused output's item: what was checked, what was found, and the one thing to change, in the
 * trigger's own words, the node's settings and header names that are plain tokens only. It holds no
 * secret, no expected signature, no header value and nothing of the body but its size.
 */
import type { IDataObject } from 'n8n-workflow';

import { holdsSpelling, secretSpellings } from '../shared/secretSpellings';
import { SECRET_NAMES } from '../shared/webhookDelivery';

import type { HeaderBag } from './headers';
import { headerMap, mediaType } from './headers';
import type { Refusal } from './receive';
import { MAX_LISTED, PLAIN_TOKEN, REFUSALS, SECRET_REASONS, shown, shownName } from './refusals';
import type { TriggerSettings, UnreadSettings } from './settings';
import { savedVerification, settingsFromParameters, usableSecret } from './settings';
import { signatureForm } from './signatureHeader';
import { parseSignedContent, usesPart } from './signedContent';
import type { Verification } from './verifications';
import {
	VERIFICATIONS,
	VERIFICATION_NAMES,
	expectedHeaders,
	headersRead,
	isVerificationName,
} from './verifications';

/** Everything a refusal is explained from; never the body's content or a header's value. */
export interface Evidence {
	/** The settings, or what the node could read of them. */
	settings: TriggerSettings | UnreadSettings;
	headers: HeaderBag;
	bodyBytes: number;
	testUrl: boolean;
	nowSeconds: number;
}

/** Words that mark a header as one that carries a signature, a timestamp or a shared secret. */
const SIGNATURE_LIKE = /signature|hmac|token|secret|timestamp|webhook-id/;

/** Each row's Verification with every setting at its default. */
const DEFAULT_VERIFICATIONS = VERIFICATION_NAMES.map(
	(name) => settingsFromParameters(name, (_parameter, fallback) => fallback).verification,
);
/** Header names the rows read by default. */
const ROW_HEADERS: ReadonlySet<string> = new Set(DEFAULT_VERIFICATIONS.flatMap(headersRead));

/**
 * What a Verification proves about a delivery: that the sender knows the secret, that it signed the
 * request (the secret never travels), a timestamp (a captured delivery expires) or the URL (it
 * cannot be sent elsewhere).
 */
function proofs(verification: Verification): string[] {
	if (verification.kind !== 'hmac') return verification.kind === 'none' ? [] : ['secret'];
	const template = parseSignedContent(verification.signedContent, 'json');
	const parts = template.ok ? template.parts : [];
	const signed = (['timestamp', 'url'] as const).filter((part) => usesPart(parts, part));
	return ['secret', 'signature', ...signed];
}

/**
 * Whether a Verification proves at least what the chosen one proves (anything, when none is
 * chosen). Anyone can send any header: one that points to a Verification that proves less suggests
 * nothing, and the reason's own advice stands.
 */
function provesAtLeast(offered: Verification, chosen: Verification | undefined): boolean {
	const proven = proofs(offered);
	return chosen === undefined || proofs(chosen).every((proof) => proven.includes(proof));
}

/** A Verification's form of signature: the chosen one's (its own settings) or a row's default. */
interface Form {
	verification: Verification;
	holds: (value: string) => boolean;
	chosen: boolean;
}

/** The rows whose signature has a form of its own (Custom HMAC's is what it is set to). */
const ROW_FORMS: Form[] = DEFAULT_VERIFICATIONS.flatMap((verification) =>
	verification.kind === 'hmac' && !VERIFICATIONS[verification.name].settings.includes('custom')
		? [{ verification, holds: signatureForm(verification), chosen: false }]
		: [],
);

/**
 * The forms a header is compared with: the chosen Verification's first, then the other rows' (every
 * row's when no HMAC is chosen, or the settings could not be read).
 */
function formsOf(chosen: Verification | undefined): Form[] {
	if (chosen?.kind !== 'hmac') return ROW_FORMS;
	const others = ROW_FORMS.filter((form) => form.verification.name !== chosen.name);
	return [{ verification: chosen, holds: signatureForm(chosen), chosen: true }, ...others];
}

/** What to change for a signature in a header the settings do not read. */
function elsewhereAdvice(form: Form, header: string | undefined): string {
	const where =
		header === undefined ? 'the header holding it (its name is not shown)' : `"${header}"`;
	const { name, settings } = VERIFICATIONS[form.verification.name];
	const own = expectedHeaders(
		DEFAULT_VERIFICATIONS.find((row) => row.name === form.verification.name),
	);
	const itsOwn = header !== undefined && own.includes(header);
	if (!settings.includes('signatureHeader') && !settings.includes('custom') && !itsOwn)
		return `Set Verification to Custom HMAC set up as ${name} signs, with Signature Header ${where}: it holds a signature in that form (${name} reads ${own.join(', ')} only).`;
	if (form.chosen)
		return `Set the Signature Header to ${where}: it holds a signature in the form the settings read.`;
	return itsOwn
		? `Set Verification to ${name}: ${where} holds a signature in its form.`
		: `Set Verification to ${name} and its Signature Header to ${where}: it holds a signature in that form.`;
}

/**
 * Another row whose own headers the request carries (a header only it reads by default) and that
 * proves at least what the chosen Verification proves.
 */
function suggestion(chosen: Verification | undefined, carried: string[]): string | undefined {
	if (chosen === undefined) return undefined;
	const configured = new Set(headersRead(chosen));
	const pointed = DEFAULT_VERIFICATIONS.find(
		(row) =>
			row.name !== chosen.name &&
			expectedHeaders(row).some((name) => !configured.has(name) && carried.includes(name)) &&
			proofs(row).includes('signature') &&
			provesAtLeast(row, chosen),
	);
	return (
		pointed &&
		`Set Verification to ${VERIFICATIONS[pointed.name].name}: the request carries what that scheme sends.`
	);
}

/**
 * The request's signature-like headers: the names shown (those a Verification or the settings
 * read, then other plain tokens holding no secret of the credential), how many more, and a
 * signature in a header the settings do not read (by name, one shown first) in the first form that
 * proves at least what the chosen Verification proves.
 */
function signatureHeaders({ settings, headers }: Evidence, chosen: Verification | undefined) {
	const read = new Set(headersRead(chosen));
	const known = new Set([...ROW_HEADERS, ...read]);
	const secrets = settings.credentialSecrets;
	const spellings = secrets && secretSpellings(secrets);
	const forms = formsOf(chosen);
	const like = [...headerMap(headers)]
		.flatMap(([name, value]) => {
			const held = read.has(name) ? [] : forms.filter((form) => form.holds(value));
			if (!known.has(name) && !SIGNATURE_LIKE.test(name) && held.length === 0) return [];
			const nameable = PLAIN_TOKEN.test(name) && !holdsSpelling(spellings, name);
			const shown = known.has(name) || (secrets !== undefined && nameable);
			return [{ name, held, known: known.has(name), shown }];
		})
		.sort((a, b) => Number(b.shown) - Number(a.shown) || (a.name < b.name ? -1 : 1));
	const names = [...like.filter((h) => h.known), ...like.filter((h) => h.shown && !h.known)];
	const form = forms.find(
		(candidate) =>
			(candidate.chosen || provesAtLeast(candidate.verification, chosen)) &&
			like.some((h) => h.held.includes(candidate)),
	);
	const holder = form && like.find((h) => h.held.includes(form));
	return {
		names: names.map((h) => h.name),
		others: like.length - Math.min(names.length, MAX_LISTED),
		elsewhere: form &&
			holder && { form, header: holder.shown ? shownName(holder.name) : undefined },
	};
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
 * A secret that looks like the wrong kind for the setting (its text is never shown): an API key; a
 * secret shaped like another Verification's (secretPrefix); text that is not hex for a hex key.
 */
function secretHint({ verification, acceptedSecrets }: TriggerSettings): string | undefined {
	const secret = acceptedSecrets.map(usableSecret).find((text) => text !== undefined);
	if (secret === undefined || verification.kind !== 'hmac') return undefined;
	if (/^(pk|sk|rk)_/.test(secret))
		return 'The Signing Secret looks like an API key (it starts with pk_, sk_ or rk_). The webhook has a secret of its own: the dashboard shows it when the Webhook URL is generated.';
	const owner = VERIFICATION_NAMES.map((name) => VERIFICATIONS[name]).find(
		(row) =>
			row.secretPrefix !== undefined &&
			secret.startsWith(row.secretPrefix) &&
			row !== VERIFICATIONS[verification.name],
	);
	if (owner !== undefined && verification.secretEncoding === 'text')
		return `The Signing Secret starts with ${owner.secretPrefix}, as ${owner.name} secrets do: if the sender follows that scheme, choose it.`;
	if (verification.secretEncoding === 'hex' && !/^([0-9a-f]{2})+$/i.test(secret))
		return 'The Secret Encoding is hex (0-9, a-f): copy the HMAC key, not a password or an API key.';
	return undefined;
}

/**
 * What a refused request showed, in the trigger's own words and the node's settings only, for
 * REFUSALS to explain: `expected`, the headers the settings read the signature (or shared key)
 * from; `carried`, the signature-like headers shown by name, `others` those not listed; `secrets`,
 * those tried, by name; `suggested`, the setting the request points to; `skew`, how far the signed
 * timestamp is ahead (+) or behind (-) n8n's clock.
 */
function findingsOf(refusal: Pick<Refusal, 'seen'>, evidence: Evidence) {
	const { settings, nowSeconds } = evidence;
	const read = 'failure' in settings ? undefined : settings;
	const chosen = read?.verification;
	const saved = savedVerification(settings);
	const { names, others, elsewhere } = signatureHeaders(evidence, chosen);
	const bodyFormat = read?.bodyFormat ?? 'json';
	const template = chosen?.kind === 'hmac' && parseSignedContent(chosen.signedContent, bodyFormat);
	const { timestamp, secretsTried = [] } = refusal.seen ?? {};
	return {
		verificationName: isVerificationName(saved) ? VERIFICATIONS[saved].name : shown(String(saved)),
		expected: expectedHeaders(chosen),
		carried: names,
		others,
		elsewhere,
		contentType: knownMediaType(evidence.headers),
		bodyFormat,
		secrets: secretsTried.map((index) => SECRET_NAMES[index] ?? `secret ${index + 1}`),
		suggested: elsewhere
			? elsewhereAdvice(elsewhere.form, elsewhere.header)
			: suggestion(chosen, names),
		...(template && !template.ok
			? { signedContentProblem: template.problem, removedFeature: template.removed }
			: {}),
		skew: timestamp === undefined ? undefined : timestamp - nowSeconds,
		tolerance: chosen?.kind === 'hmac' ? chosen.toleranceSeconds : undefined,
		hint: read && secretHint(read),
		bodyBytes: evidence.bodyBytes,
		testUrl: evidence.testUrl,
		nowSeconds,
	};
}

export type Findings = ReturnType<typeof findingsOf>;

/** The Refused output's item for a refusal. */
export function diagnose(
	refusal: Pick<Refusal, 'status' | 'reason' | 'seen'>,
	evidence: Evidence,
): IDataObject {
	const found = findingsOf(refusal, evidence);
	const [summary, action] = REFUSALS[refusal.reason].explain(found);
	const { elsewhere, skew, hint } = found;
	return {
		reason: refusal.reason,
		answered: refusal.status,
		summary,
		action,
		verification: found.verificationName,
		url: found.testUrl ? 'Test URL' : 'Production URL',
		request: {
			contentType: found.contentType,
			bodyBytes: found.bodyBytes,
			signatureHeaders: found.carried.slice(0, MAX_LISTED).map(shownName),
			otherSignatureLikeHeaders: found.others,
			...(elsewhere && {
				signatureElsewhere: {
					...(elsewhere.header === undefined ? {} : { header: elsewhere.header }),
					verification: VERIFICATIONS[elsewhere.form.verification.name].name,
				},
			}),
		},
		secretsTried: found.secrets,
		...(skew === undefined ? {} : { timestampSkewSeconds: skew }),
		...(hint && SECRET_REASONS.includes(refusal.reason) ? { likelyCause: hint } : {}),
		refusedAt: new Date(found.nowSeconds * 1000).toISOString(),
	};
}
