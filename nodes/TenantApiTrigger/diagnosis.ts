import type { IDataObject } from 'n8n-workflow';

import { SECRET_NAMES } from '../shared/webhookDelivery';

import { HANDSHAKES } from './answers';
import type { HeaderBag, VerificationConfig } from './verification';
import {
	MAX_BODY_READ_BEFORE_VERIFYING,
	PRESETS,
	PRESET_NAMES,
	headerNames,
	headerValue,
	mediaType,
	parseSignatureHeader,
	parseTemplate,
	parseTimestamp,
	signedTimestampText,
	usableSecrets,
	usesPart,
} from './verification';
import type { Refusal } from './receive';
import { secretsOf } from './receive';
import { verificationConfig } from './settings';
import type { VerificationName } from './verifications';
import { VERIFICATION_NAMES, isVerificationName, verificationOf, verificationsOfSender } from './verifications';

/** Everything a refusal can be explained from; never the body's content or a header's value. */
export interface RefusalFacts {
	/** The Verification setting as saved (may be a value this version does not know). */
	verification: unknown;
	/** The verifier's configuration, when the settings could be read. */
	config?: VerificationConfig;
	headers: HeaderBag;
	rawBody?: Buffer;
	testUrl: boolean;
	nowSeconds: number;
}

/**
 * The size of the item, bounded by construction (docs/trigger.md "When a delivery is refused": at most 2 KiB):
 * nothing the sender wrote is shown, a list shows at most MAX_LISTED names, and a setting's text at most
 * MAX_SHOWN_CHARS printable ASCII characters.
 */
const MAX_LISTED = 6;
const MAX_SHOWN_CHARS = 40;

/** Words that mark a header as one that carries a signature, a timestamp or a shared secret. */
const SIGNATURE_LIKE = /signature|hmac|token|secret|timestamp|webhook-id|svix-id/;

/** Header names the tables use: every preset's signature, timestamp and id headers, every Verification's sender headers. */
const TABLE_HEADERS: ReadonlySet<string> = new Set([
	...PRESET_NAMES.flatMap((name) => [PRESETS[name].signatureHeader, PRESETS[name].timestampHeader, PRESETS[name].idHeader].flatMap(headerNames)),
	...VERIFICATION_NAMES.flatMap((name) => verificationOf(name).senderHeaders),
]);

/** Media types the trigger reads or names in its answers (body.ts mediaTypeFits, receive.ts); `+json` types as one class. */
const KNOWN_MEDIA_TYPES = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'];

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
	VERIFICATION_NAMES.map((name) => [name, proofs(verificationConfig(name, (_setting, fallback) => fallback, []))]),
) as Record<VerificationName, Proof[]>;

function provesAtLeast(candidate: VerificationName, chosen: Proof[]): boolean {
	const offered = PROOFS_BY_DEFAULT[candidate];
	return offered.includes('signature') && chosen.every((proof) => offered.includes(proof));
}

/** What the chosen Verification proves: its settings, else its defaults; undefined (nothing is suggested) when unknown. */
function chosenProofs(facts: RefusalFacts): Proof[] | undefined {
	if (facts.config !== undefined) return proofs(facts.config);
	return isVerificationName(facts.verification) ? PROOFS_BY_DEFAULT[facts.verification] : undefined;
}

/** What a refused request showed: the facts a diagnosis is written from, in the trigger's own words. */
interface Seen {
	verificationName: string;
	/** The header(s) the setting reads the signature from. */
	expected: string[];
	/** Headers of the request whose names a preset or the settings use (lower case), sorted. */
	carried: string[];
	/** Signature-like headers not listed (a name no preset or setting uses, or beyond the first MAX_LISTED): only counted. */
	others: number;
	contentType: string;
	bodyBytes: number;
	secrets: string[];
	/** The setting the request points to (suggestion()). */
	suggested?: string;
	/** Seconds the signed timestamp is ahead (+) or behind (-) n8n's clock, when it could be read. */
	skew?: number;
	tolerance?: number;
	/** A secret that looks like the wrong kind. */
	secretHint?: string;
}

/** A setting's text as shown: printable ASCII (quotes and backslashes replaced), cut at MAX_SHOWN_CHARS. */
function shown(text: string): string {
	const printable = text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?');
	return printable.length > MAX_SHOWN_CHARS ? `${printable.slice(0, MAX_SHOWN_CHARS - 1)}…` : printable;
}

const quoted = (names: string[]) => names.map((name) => `"${shown(name)}"`);

/** Names of a setting, at most MAX_LISTED of them. */
function list(names: string[]): string {
	if (names.length === 0) return 'none';
	const more = names.length > MAX_LISTED ? [`${names.length - MAX_LISTED} more`] : [];
	return [...quoted(names.slice(0, MAX_LISTED)), ...more].join(', ');
}

/** The signature-like headers a request carried: the names a preset or the settings use, the others counted. */
function carriedList(seen: Seen): string {
	const named = quoted(seen.carried.slice(0, MAX_LISTED));
	if (seen.others === 0) return named.length === 0 ? 'none' : named.join(', ');
	const others = `${seen.others} other${seen.others === 1 ? '' : 's'}`;
	return named.length === 0 ? `${others}, none of them named by a preset or the settings` : [...named, `and ${others}`].join(', ');
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

/** The signed timestamp as the scheme reads it, against n8n's clock. */
function timestampSkew(config: VerificationConfig | undefined, headers: HeaderBag, nowSeconds: number): number | undefined {
	if (config?.mode !== 'hmac') return undefined;
	const { scheme } = config;
	const signature = headerValue(headers, scheme.signatureHeader);
	const text = signedTimestampText(scheme, headers, signature === undefined ? undefined : parseSignatureHeader(signature, scheme));
	const seconds = text === undefined ? undefined : parseTimestamp(text);
	return seconds === undefined ? undefined : seconds - nowSeconds;
}

/** The Verifications the request points to: its headers' senders, else Adyen payments for signatures inside Adyen's items. */
function pointedTo(carried: string[], rawBody: Buffer | undefined): VerificationName[] {
	const byHeaders = verificationsOfSender(carried);
	if (byHeaders.length > 0) return byHeaders;
	const prefix = rawBody?.subarray(0, MAX_BODY_READ_BEFORE_VERIFYING);
	return prefix !== undefined && prefix.includes('"hmacSignature"') && prefix.includes('NotificationRequestItem') ? ['adyenPayments'] : [];
}

/**
 * The setting the request points to: another Verification that proves at least what the chosen one proves (a
 * sender's own header, or signatures inside Adyen's items), or, for the chosen one, the Signature Header its sender
 * uses (GitHub's on HMAC-SHA256 of the Body). Anyone can send any header: one that points to a Verification that
 * proves less suggests nothing, and the reason's own advice stands.
 */
function suggestion(facts: RefusalFacts, carried: string[], expected: string[]): string | undefined {
	const current = facts.verification;
	const names = pointedTo(carried, facts.rawBody);
	if (isVerificationName(current) && names.includes(current)) {
		const header = carried.find((h) => verificationOf(current).senderHeaders.includes(h) && !expected.includes(h));
		return header !== undefined && verificationOf(current).settings.includes('signatureHeader') ? `Set Signature Header to ${header}: the request carries its signature there.` : undefined;
	}
	const chosen = chosenProofs(facts);
	const stronger = chosen === undefined ? undefined : names.find((name) => provesAtLeast(name, chosen));
	return stronger === undefined ? undefined : `Set Verification to ${verificationOf(stronger).name}: the request carries what that sender sends.`;
}

/** A secret that looks like the wrong kind for the setting (its text is never shown). */
function secretHint(verification: unknown, secrets: unknown[]): string | undefined {
	const [secret] = usableSecrets(secrets);
	if (secret === undefined) return undefined;
	if (/^(pk|sk|rk)_/.test(secret)) {
		return 'The Signing Secret looks like an API key (it starts with pk_, sk_ or rk_). The webhook has a secret of its own: the dashboard shows it when the Webhook URL is generated.';
	}
	if (secret.startsWith('whsec_') && verification !== 'standardWebhooks' && verification !== 'stripe' && verification !== 'customHmac') {
		return 'The Signing Secret starts with whsec_, as Standard Webhooks (Svix) and Stripe secrets do: if the sender is one of those, choose that Verification.';
	}
	if ((verification === 'adyenPayments' || verification === 'adyenPlatform') && !/^([0-9a-f]{2})+$/i.test(secret)) {
		return "Adyen's HMAC key is hex (0-9, a-f): copy the HMAC key, not a password or an API key.";
	}
	return undefined;
}

/** The request's header names (lower case, once each): those a preset or the settings use, and how many other signature-like ones. */
function signatureHeaders(headers: HeaderBag, config: VerificationConfig | undefined): { carried: string[]; others: number } {
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

function see(facts: RefusalFacts): Seen {
	const { config, headers, rawBody, verification } = facts;
	const expected = expectedHeaders(config);
	const { carried, others } = signatureHeaders(headers, config);
	const secrets = config === undefined ? [] : secretsOf(config);
	const tried = secrets.flatMap((secret, index) => (usableSecrets([secret]).length > 0 ? [SECRET_NAMES[index] ?? `secret ${index + 1}`] : []));
	return {
		verificationName: isVerificationName(verification) ? verificationOf(verification).name : shown(String(verification)),
		expected,
		carried,
		others,
		contentType: knownMediaType(headers),
		bodyBytes: rawBody?.length ?? 0,
		secrets: tried,
		suggested: suggestion(facts, carried, expected),
		skew: timestampSkew(config, headers, facts.nowSeconds),
		tolerance: config?.mode === 'hmac' ? config.scheme.toleranceSeconds : undefined,
		secretHint: secretHint(verification, secrets),
	};
}

type Explanation = [summary: string, action: string];

/** Which secret to change when the signature does not match: at the Test URL, its own secret once set, or the one to set. */
function signatureMismatchAction(seen: Seen, facts: RefusalFacts): string {
	if (!facts.testUrl) return 'Put the secret the sender signs this webhook with into the credential\'s Signing Secret (after "Rotate API Key", the new one).';
	if (seen.secrets.includes('test')) {
		return 'Once a Test URL Signing Secret is set, the Test URL accepts it alone (a delivery signed for the Production URL is refused here): deliver from the webhook registered for the Test URL, or clear that secret to test with the production ones.';
	}
	return "Put the secret of the webhook registered for the Test URL into the credential's Test URL Signing Secret (a webhook for the Test URL has its own).";
}

/** Refusals a wrong kind of secret explains. */
const SECRET_REASONS = ['signature_mismatch', 'invalid_secret', 'secret_mismatch', 'malformed_signature'];

const chooseSuggested = (seen: Seen, otherwise: string) => seen.suggested ?? otherwise;
const secretsPhrase = (seen: Seen) => (seen.secrets.length === 0 ? 'no secret' : `the ${seen.secrets.join(' and the ')} secret${seen.secrets.length > 1 ? 's' : ''}`);

/** What was checked, what was found, and the one thing to change, for each refusal reason. */
const EXPLAIN: Record<string, (seen: Seen, facts: RefusalFacts) => Explanation> = {
	missing_signature: (seen) => [
		`No signature: the request carries none of the headers ${seen.verificationName} reads (${list(seen.expected)}). Signature-like headers it carries: ${carriedList(seen)}.`,
		chooseSuggested(seen, 'Check which header the sender signs in and set the Signature Header (or the Verification) to match.'),
	],
	malformed_signature: (seen) => [
		`The signature header (${list(seen.expected)}) does not hold a signature in the form ${seen.verificationName} expects (algorithm, hex or base64, prefix or label).`,
		chooseSuggested(seen, 'Check that the Verification matches what the sender sends.'),
	],
	signature_mismatch: (seen, facts) => [
		`The signature does not match the ${seen.bodyBytes}-byte body signed with ${secretsPhrase(seen)}.`,
		seen.suggested ?? signatureMismatchAction(seen, facts),
	],
	missing_timestamp: (seen) => [`The signed timestamp is missing: ${seen.verificationName} needs it beside the signature.`, chooseSuggested(seen, 'Check that the Verification matches the sender (and the Timestamp Header).')],
	invalid_timestamp: () => ['The signed timestamp is not unix seconds.', 'Check that the sender sends unix seconds in the timestamp (not milliseconds or a date).'],
	timestamp_out_of_window: (seen) => [
		seen.skew === undefined
			? `The signed timestamp is further than ${seen.tolerance ?? 'the tolerance of'} s from n8n's clock.`
			: `The signed timestamp is ${Math.abs(seen.skew)} s ${seen.skew < 0 ? 'behind' : 'ahead of'} n8n's clock; the tolerance is ${seen.tolerance} s.`,
		"A fresh delivery this far off means a clock is wrong: correct n8n's (or the sender's) clock. An old delivery sent again is refused on purpose.",
	],
	missing_id: () => ['The signed delivery id header is missing, or longer than 256 characters.', 'Check that the sender is a Standard Webhooks sender (or set the ID Header).'],
	missing_url: () => ['The URL the sender signed is not known to the trigger.', 'Set Signed URL to the URL registered at the sender.'],
	body_hash_mismatch: () => ['The body does not match the hash in the signed URL (bodySHA256).', 'Deliveries must arrive with the body the sender hashed: check for a proxy that rewrites bodies.'],
	missing_body_hash: () => ['The signature covers neither the body nor its form fields, and the signed URL carries no body hash.', 'Add {body} to Signed Content, or set the Body Hash Query Parameter the sender uses.'],
	unreadable_body: (seen) => [`The ${seen.bodyBytes}-byte body could not be read to find what is signed (not JSON, or form fields the sender never sends).`, chooseSuggested(seen, 'Check the Verification and the Body Format.')],
	body_too_large: (seen) => [`The body is ${seen.bodyBytes} bytes, over the ${MAX_BODY_READ_BEFORE_VERIFYING} bytes this scheme reads before checking its signature.`, 'Senders of this scheme send small deliveries: check that the Verification matches the sender.'],
	unexpected_field: () => ['The body holds data beside the signed items, which their signatures do not cover.', 'Check the Items Path (Custom HMAC) or that the sender is Adyen.'],
	malformed_items: () => ['An entry of the items list is not an item of the shape the scheme signs.', 'Check the Items Path (Custom HMAC) or that the sender is Adyen.'],
	invalid_item_field: () => ["A signed field of an item has another JSON type than the scheme's, or holds the text that separates the signed fields.", 'Check Signed Content against what the sender signs.'],
	duplicate_item: () => [
		'Two signed items of the delivery name the same event (the same item twice, or items whose delivery ids are equal).',
		'A sender never sends an event twice in one delivery: if Delivery ID Fields name a field two events share, choose fields that name one event; otherwise this delivery was altered.',
	],
	missing_secret_header: (seen) => [`The header carrying the shared key (${list(seen.expected)}) is missing. Signature-like headers present: ${carriedList(seen)}.`, chooseSuggested(seen, 'Set Header Carrying the Shared Key to the header the sender uses.')],
	secret_mismatch: (seen) => [`The shared key in ${list(seen.expected)} is not ${secretsPhrase(seen)}.`, 'Put the key the sender sends into the credential\'s Signing Secret.'],
	no_secret_configured: () => ['The Tenant Webhook API credential holds no Signing Secret.', 'Paste the webhook secret into the credential.'],
	no_credential_selected: () => ['No Tenant Webhook API credential is selected.', 'Select (or create) the credential in the trigger.'],
	invalid_secret: (seen) => [`The Signing Secret is not valid for ${seen.verificationName} (Standard Webhooks: whsec_ and base64; Adyen: hex).`, 'Copy the secret exactly as the sender shows it.'],
	invalid_scheme: () => ['The Custom HMAC settings cannot be checked: Signed Content names an unknown placeholder, or puts two of them side by side where bytes could move from one to the other, or signed items use other placeholders.', 'Fix Signed Content (a separator between placeholders).'],
	unknown_verification: (seen) => [`The Verification "${seen.verificationName}" is not one this version of the package knows (saved by a newer version?).`, 'Choose a Verification in the trigger.'],
	credential_unavailable: () => ["n8n could not read the credential right now (its database is busy); the sender was answered 503 and retries.", 'Nothing to change if it passes; in queue mode, raise DB_POSTGRESDB_POOL_SIZE on webhook processors.'],
	raw_body_unavailable: () => ['The request is multipart/form-data: n8n parses it before the trigger runs and keeps no bytes, so nothing can be verified.', 'Senders of signed webhooks post JSON or form fields: check the sender.'],
	unsupported_media_type: (seen, facts) => [
		`The signature is valid, but the Content-Type is ${seen.contentType}, which the Body Format (${facts.config?.mode === 'hmac' ? facts.config.scheme.bodyFormat : (facts.config?.bodyFormat ?? 'json')}) does not read.`,
		'Set Body Format to what the sender posts (Form Fields for application/x-www-form-urlencoded, JSON otherwise).',
	],
	empty_body: () => ['The signature is valid, but the body is empty.', 'Check the sender: it sent no data.'],
	not_utf8: () => ['The signature is valid, but the body is not UTF-8.', 'Check the sender: JSON and form fields are UTF-8.'],
	invalid_json: () => ['The signature is valid, but the body is not JSON.', 'Set Body Format to Form Fields if the sender posts form fields.'],
	not_an_object: () => ['The signature is valid, but the body is a JSON list, text or number, not an object.', 'Check the sender: the trigger reads one JSON object per delivery.'],
	invalid_form: () => ['The signature is valid, but the form fields cannot be read (a field without a name, or more than 1,000).', 'Check the sender.'],
	reserved_field: () => ['The signature is valid, but the body has a top-level webhookDelivery field, the name the trigger gives the delivery\'s identity.', 'Rename that field at the sender.'],
	unprotected_id: () => [
		"Delivery ID Fields are set, but the signature does not say where a form field ends (Twilio's rule, or {formFields} without {body}), so a replay could re-cut any field into a new id.",
		'Clear Delivery ID Fields: such a delivery is named by the SHA-256 of its signed text, which no re-cut changes. With Custom HMAC, signing {id} (ID Header) or {body} lets fields name it.',
	],
	internal_error: () => ['n8n did not hand the trigger the request or its settings.', 'Deliver again; if it repeats, check the n8n log.'],
};

/**
 * The Refused output's item: what was checked, what was found, the one thing to change, in the trigger's own words
 * and the node's settings only (reason codes, counts, sizes, known media types and header names). It holds no
 * secret, no expected signature, no header value and nothing of the body but its size.
 */
export function diagnose(refusal: Pick<Refusal, 'status' | 'reason'>, facts: RefusalFacts): IDataObject {
	const seen = see(facts);
	const explain = EXPLAIN[refusal.reason] ?? EXPLAIN.internal_error;
	const [found, change] = explain(seen, facts);
	const handshake = Object.values(HANDSHAKES).find((candidate) => candidate.looksLike(facts.headers, facts.rawBody));
	const summary = handshake === undefined ? found : `${handshake.label} was refused. ${found}`;
	const action = handshake === undefined ? change : `${change} ${handshake.whileRefused}`;
	return {
		reason: refusal.reason,
		answered: refusal.status,
		summary,
		action,
		verification: seen.verificationName,
		...(handshake === undefined ? {} : { handshake: handshake.label }),
		url: facts.testUrl ? 'Test URL' : 'Production URL',
		request: {
			contentType: seen.contentType,
			bodyBytes: seen.bodyBytes,
			signatureHeaders: seen.carried.slice(0, MAX_LISTED).map(shown),
			otherSignatureLikeHeaders: seen.others,
		},
		secretsTried: seen.secrets,
		...(seen.skew === undefined ? {} : { timestampSkewSeconds: seen.skew }),
		...(seen.secretHint === undefined || !SECRET_REASONS.includes(refusal.reason) ? {} : { likelyCause: seen.secretHint }),
		refusedAt: new Date(facts.nowSeconds * 1000).toISOString(),
	};
}
