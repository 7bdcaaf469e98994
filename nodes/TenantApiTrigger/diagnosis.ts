/**
 * The Refused output's item: what was checked, what was found, and the one thing to change, in the
 * trigger's own words, the node's settings and header names that are plain tokens only. It holds no
 * secret, no expected signature, no header value and nothing of the body but its size.
 */
import type { IDataObject } from 'n8n-workflow';

import { holdsSpelling, secretSpellings } from '../shared/secretSpellings';
import { SECRET_NAMES } from '../shared/webhookDelivery';

import type { Seen } from './authenticate';
import type { BodyFormat } from './body';
import type { HeaderBag } from './headers';
import { headerNames, mediaType, usableSecrets } from './headers';
import type { Refusal } from './receive';
import type { Findings } from './refusals';
import { MAX_LISTED, PLAIN_TOKEN, REFUSALS, SECRET_REASONS, shown, shownName } from './refusals';
import type { Check, SchemeName, SchemeSetting } from './schemes';
import { SCHEME_NAMES, defaultCheck, isSchemeName, schemeOf } from './schemes';
import { signatureForm } from './signatureHeader';
import { parseSignedContent, usesPart } from './signedContent';

/** Everything a refusal can be explained from; never the body's content or a header's value. */
export interface Evidence {
	/** The Verification setting as saved (may be a value this version does not offer). */
	verification: unknown;
	/** The check and the settings' secrets and body format, when the settings could be read. */
	check?: Check;
	secrets?: unknown[];
	/**
	 * Every secret of the credential, when it was read: a header name holding one is never shown
	 * (without them, only the names a scheme or the settings use are).
	 */
	credentialSecrets?: unknown[];
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
 * Whether a check proves at least what the chosen one proves (anything, when none is chosen).
 * Anyone can send any header: one that points to a scheme that proves less suggests nothing, and
 * the reason's own advice stands.
 */
function provesAtLeast(offered: Check, chosen: Check | undefined): boolean {
	const proven = proofs(offered);
	return chosen === undefined || proofs(chosen).every((proof) => proven.includes(proof));
}

/**
 * Another scheme whose own headers the request carries (a header only it reads by default) and that
 * proves at least what the chosen check proves.
 */
function suggestion(evidence: Evidence, carried: string[]): string | undefined {
	if (evidence.check === undefined) return undefined;
	const configured = new Set(checkHeaders(evidence.check));
	const pointed = SCHEME_NAMES.find((name: SchemeName) => {
		const check = defaultCheck(name);
		const own = expectedHeaders(check).filter((header) => !configured.has(header));
		return (
			name !== evidence.verification &&
			own.some((header) => carried.includes(header)) &&
			proofs(check).includes('signature') &&
			provesAtLeast(check, evidence.check)
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
 * A Verification's form of signature: the chosen check's (its own settings) or a row's default
 * (`check`).
 */
interface Form {
	verification: SchemeName;
	holds: (value: string) => boolean;
	chosen: boolean;
	check: Check;
}

/** The rows whose signature has a form of their own (Custom HMAC's is what it is set to). */
const ROW_FORMS: Form[] = SCHEME_NAMES.flatMap((verification) => {
	const check = defaultCheck(verification);
	return check.kind === 'hmac' && !schemeOf(verification).settings.includes('custom')
		? [{ verification, holds: signatureForm(check.signing), chosen: false, check }]
		: [];
});

/**
 * The forms a header is compared with: the chosen check's first, then the other rows' (every row's
 * when no HMAC is chosen, or the settings could not be read).
 */
function formsOf({ check, verification }: Evidence): Form[] {
	if (check?.kind !== 'hmac' || !isSchemeName(verification)) return ROW_FORMS;
	const chosen: Form = { verification, holds: signatureForm(check.signing), chosen: true, check };
	return [chosen, ...ROW_FORMS.filter((form) => form.verification !== verification)];
}

/** The settings that show a Signature Header. */
const SIGNATURE_HEADER_SETTINGS: SchemeSetting[] = ['signatureHeader', 'custom'];
const readsAnyHeader = (name: SchemeName) =>
	SIGNATURE_HEADER_SETTINGS.some((setting) => schemeOf(name).settings.includes(setting));

/** A header the settings do not read, holding a signature in a form a Verification reads. */
interface Elsewhere {
	/** Its name, when shown. */
	header?: string;
	form: Form;
}

/** What to change for a signature found elsewhere: the Signature Header, or the Verification. */
function elsewhereAdvice({ header, form }: Elsewhere): string {
	const where =
		header === undefined ? 'the header holding it (its name is not shown)' : `"${header}"`;
	const name = schemeOf(form.verification).name;
	const own = expectedHeaders(defaultCheck(form.verification));
	if (!readsAnyHeader(form.verification) && !(header !== undefined && own.includes(header)))
		return `Set Verification to Custom HMAC set up as ${name} signs, with Signature Header ${where}: it holds a signature in that form (${name} reads ${own.join(', ')} only).`;
	if (form.chosen)
		return `Set the Signature Header to ${where}: it holds a signature in the form the settings read.`;
	return header !== undefined && own.includes(header)
		? `Set Verification to ${name}: ${where} holds a signature in its form.`
		: `Set Verification to ${name} and its Signature Header to ${where}: it holds a signature in that form.`;
}

/**
 * The request's signature-like headers (lower case, once each): those a scheme or the settings use
 * (`known`), the names shown (`carried`: those, then other plain tokens holding no secret of the
 * credential), how many more, and a signature in a header the settings do not read. One pass over
 * the headers, whatever their number.
 */
function signatureHeaders(evidence: Evidence) {
	const read = new Set(checkHeaders(evidence.check));
	const known = new Set([...SCHEME_HEADERS, ...read]);
	const spellings =
		evidence.credentialSecrets && secretSpellings(usableSecrets(evidence.credentialSecrets));
	const shownByName = (name: string) =>
		evidence.credentialSecrets !== undefined &&
		PLAIN_TOKEN.test(name) &&
		!holdsSpelling(spellings, name);
	const forms = formsOf(evidence);
	const seen = new Set<string>();
	const carried: string[] = [];
	const plain: string[] = [];
	/** Per form, the first header holding it: by name order, one shown first. */
	const holders = new Map<Form, { name: string; shown: boolean }>();
	let signatureLike = 0;
	for (const [raw, value] of Object.entries(evidence.headers)) {
		const name = raw.toLowerCase();
		if (value === undefined || seen.has(name)) continue;
		seen.add(name);
		// A repeated header as Node joins it.
		const text = Array.isArray(value) ? value.join(', ') : String(value);
		const held = read.has(name) ? [] : forms.filter((form) => form.holds(text));
		if (!known.has(name) && !SIGNATURE_LIKE.test(name) && held.length === 0) continue;
		signatureLike += 1;
		const shown = known.has(name) || shownByName(name);
		if (known.has(name)) carried.push(name);
		else if (shown) plain.push(name);
		for (const form of held) {
			const holder = holders.get(form);
			if (
				holder === undefined ||
				(shown && !holder.shown) ||
				(shown === holder.shown && name < holder.name)
			)
				holders.set(form, { name, shown });
		}
	}
	const named = [...carried.sort(), ...plain.sort()];
	const advised = forms.find(
		(form) => holders.has(form) && (form.chosen || provesAtLeast(form.check, evidence.check)),
	);
	const holder = advised && holders.get(advised);
	return {
		known: carried,
		carried: named,
		others: signatureLike - Math.min(named.length, MAX_LISTED),
		elsewhere:
			advised === undefined || holder === undefined
				? undefined
				: { ...(holder.shown ? { header: shownName(holder.name) } : {}), form: advised },
	};
}

function findingsOf(evidence: Evidence, seen: Seen | undefined): Findings {
	const { check, headers, verification } = evidence;
	const { known, carried, others, elsewhere } = signatureHeaders(evidence);
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
		suggested: elsewhere === undefined ? suggestion(evidence, known) : elsewhereAdvice(elsewhere),
		...(elsewhere === undefined
			? {}
			: {
					signatureElsewhere: {
						...(elsewhere.header === undefined ? {} : { header: elsewhere.header }),
						verification: schemeOf(elsewhere.form.verification).name,
					},
				}),
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
			signatureHeaders: findings.carried.slice(0, MAX_LISTED).map(shownName),
			otherSignatureLikeHeaders: findings.others,
			...(findings.signatureElsewhere === undefined
				? {}
				: { signatureElsewhere: findings.signatureElsewhere }),
		},
		secretsTried: findings.secrets,
		...(findings.skew === undefined ? {} : { timestampSkewSeconds: findings.skew }),
		...(hint === undefined ? {} : { likelyCause: hint }),
		refusedAt: new Date(evidence.nowSeconds * 1000).toISOString(),
	};
}
