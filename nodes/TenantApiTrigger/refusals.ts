import { WEBHOOK_DELIVERY_FIELD } from '../shared/webhookDelivery';

import type { AuthenticationFailure } from './authenticate';
import type { BodyFailure, BodyFormat } from './body';
import type { Findings } from './diagnosis';
import type { SettingsFailure } from './settings';
import { REMOVED_FEATURES } from './signedContent';

/**
 * Every reason the trigger refuses a request for, one entry each in REFUSALS, which says the status
 * and message the sender gets and what the Refused output explains (diagnosis.ts); the compiler
 * holds the table to this list.
 */
export type RefusalReason =
	| AuthenticationFailure
	| BodyFailure
	| SettingsFailure
	| 'unsupported_media_type'
	| 'reserved_field';

type Explanation = [summary: string, action: string];

/** The statuses a refusal is answered with. */
export type RefusalStatus = 400 | 401 | 415 | 503;

/** One row of the table. */
interface RefusalEntry {
	/** The status the sender gets (default: 401). */
	status?: RefusalStatus;
	/** What the sender is told (default: "Invalid signature": nothing that helps a forger). */
	answer?: (format: BodyFormat) => string;
	/** What was checked, what was found, and the one thing to change. */
	explain: (found: Findings) => Explanation;
}

/**
 * The size of the Refused item is bounded by construction (docs/trigger.md "When a delivery is
 * refused": at most 2 KiB): nothing the sender wrote is shown but header names that are plain
 * tokens, a list shows at most MAX_LISTED names, and a setting's text at most MAX_SHOWN_CHARS
 * printable ASCII characters.
 */
export const MAX_LISTED = 5;
const MAX_SHOWN_CHARS = 40;

/**
 * A header name shown whole: letters, digits and `-`, at most 64 characters (names arrive in lower
 * case). Any other name a sender writes is only counted.
 */
export const PLAIN_TOKEN = /^[a-z0-9-]{1,64}$/;

/**
 * A setting's text as shown: printable ASCII (quotes and backslashes replaced), cut at
 * MAX_SHOWN_CHARS.
 */
export function shown(text: string): string {
	const printable = text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?');
	return printable.length > MAX_SHOWN_CHARS
		? `${printable.slice(0, MAX_SHOWN_CHARS - 1)}…`
		: printable;
}

/** A header name as shown: a plain token whole, any other as a setting's text. */
export const shownName = (name: string) => (PLAIN_TOKEN.test(name) ? name : shown(name));

const quoted = (names: string[]) => names.map((name) => `"${shownName(name)}"`);

/** Names of a setting, at most MAX_LISTED of them. */
function list(names: string[]): string {
	if (names.length === 0) return 'none';
	const more = names.length > MAX_LISTED ? [`${names.length - MAX_LISTED} more`] : [];
	return [...quoted(names.slice(0, MAX_LISTED)), ...more].join(', ');
}

/** The signature-like headers a request carried: those shown by name, the others counted. */
function carriedList(found: Findings): string {
	const named = quoted(found.carried.slice(0, MAX_LISTED));
	if (found.others === 0) return named.length === 0 ? 'none' : named.join(', ');
	const others = `${found.others} other${found.others === 1 ? '' : 's'} (names not shown)`;
	return named.length === 0 ? others : [...named, `and ${others}`].join(', ');
}

/**
 * Which secret to change when the signature does not match: at the Test URL, its own secret once
 * set, or the one to set.
 */
function signatureMismatchAction(found: Findings): string {
	if (!found.testUrl)
		return 'Put the secret the sender signs this webhook with into the credential\'s Signing Secret (after "Rotate API Key", the new one).';
	if (found.secrets.includes('test')) {
		return 'Once a Test URL Signing Secret is set, the Test URL accepts it alone (a delivery signed for the Production URL is refused here): deliver from the webhook registered for the Test URL, or clear that secret to test with the production ones.';
	}
	return "Put the secret of the webhook registered for the Test URL into the credential's Test URL Signing Secret (a webhook for the Test URL has its own).";
}

const secretsPhrase = (found: Findings) =>
	found.secrets.length === 0
		? 'no secret'
		: `the ${found.secrets.join(' and the ')} secret${found.secrets.length > 1 ? 's' : ''}`;

const MEDIA_TYPE_OF: Record<BodyFormat, string> = {
	json: 'application/json',
	form: 'application/x-www-form-urlencoded',
};
const bodyShape = (format: BodyFormat) =>
	format === 'form'
		? 'Body must be form fields with names (at most 1,000)'
		: 'Body must be a JSON object';
/** A 503: the sender delivers again. */
const retryLater = () => 'Temporarily unable to verify the delivery';

/** Every refusal: its status, what the sender is told, and what the Refused output says. */
export const REFUSALS: Record<RefusalReason, RefusalEntry> = {
	missing_signature: {
		explain: (found) => [
			`No signature: the request carries none of the headers ${found.verificationName} reads (${list(found.expected)}). Signature-like headers it carries: ${carriedList(found)}.`,
			found.suggested ??
				'Check which header the sender signs in and set the Signature Header (or the Verification) to match.',
		],
	},
	malformed_signature: {
		explain: (found) => [
			`The signature header (${list(found.expected)}) does not hold a signature in the form ${found.verificationName} expects (algorithm, hex or base64, prefix or label).`,
			found.suggested ?? 'Check that the Verification matches what the sender sends.',
		],
	},
	signature_mismatch: {
		explain: (found) => [
			`The signature does not match the ${found.bodyBytes}-byte body signed with ${secretsPhrase(found)}.`,
			found.suggested ?? signatureMismatchAction(found),
		],
	},
	missing_timestamp: {
		explain: (found) => [
			`The signed timestamp is missing: ${found.verificationName} needs it beside the signature.`,
			found.suggested ??
				'Check that the Verification matches the sender (and the Timestamp Header).',
		],
	},
	invalid_timestamp: {
		explain: () => [
			'The signed timestamp is not unix seconds.',
			'Check that the sender sends unix seconds in the timestamp (not milliseconds or a date).',
		],
	},
	timestamp_out_of_window: {
		explain: (found) => [
			found.skew === undefined
				? `The signed timestamp is further than ${found.tolerance ?? 'the tolerance of'} s from n8n's clock.`
				: `The signed timestamp is ${Math.abs(found.skew)} s ${found.skew < 0 ? 'behind' : 'ahead of'} n8n's clock; the tolerance is ${found.tolerance} s.`,
			"A fresh delivery this far off means a clock is wrong: correct n8n's (or the sender's) clock. An old delivery sent again is refused on purpose.",
		],
	},
	missing_id: {
		explain: () => [
			'The signed delivery ID header is missing, empty, padded with spaces or longer than 256 characters.',
			'Check that the sender is a Standard Webhooks sender (Custom HMAC: set the ID Header).',
		],
	},
	missing_url: {
		explain: () => [
			'The URL the sender signed is not known to the trigger.',
			'Set Signed URL to the URL registered at the sender.',
		],
	},
	missing_signed_header: {
		explain: () => [
			'A header that Signed Content names ({header.…}) is missing, empty or padded with spaces.',
			'Check that Signed Content names the header the sender signs.',
		],
	},
	invalid_signed_content: {
		explain: (found) =>
			found.removedFeature === undefined
				? [
						`Signed Content cannot be checked: ${found.signedContentProblem ?? 'it is not a template the trigger reads'}. Otherwise a captured delivery could be split another way under the same signature.`,
						'Fix Signed Content: {body} last, text between placeholders, at most one of {ID}, {URL} and {header.…}.',
					]
				: [
						`Signed Content cannot be checked: ${REMOVED_FEATURES[found.removedFeature].problem}, as it let a captured delivery be re-cut into other content under the same signature. Every delivery is refused until it is changed.`,
						REMOVED_FEATURES[found.removedFeature].instead,
					],
	},
	missing_secret_header: {
		explain: (found) => [
			`The header carrying the shared key (${list(found.expected)}) is missing. Signature-like headers present: ${carriedList(found)}.`,
			found.suggested ?? 'Set Header Carrying the Shared Key to the header the sender uses.',
		],
	},
	secret_mismatch: {
		explain: (found) => [
			`The shared key in ${list(found.expected)} is not ${secretsPhrase(found)}.`,
			"Put the key the sender sends into the credential's Signing Secret.",
		],
	},
	no_secret_configured: {
		explain: () => [
			'The Tenant Webhook API credential holds no Signing Secret.',
			'Paste the webhook secret into the credential.',
		],
	},
	no_credential_selected: {
		explain: () => [
			'No Tenant Webhook API credential is selected.',
			'Select (or create) the credential in the trigger.',
		],
	},
	invalid_secret: {
		explain: (found) => [
			`The Signing Secret is not valid for ${found.verificationName} (Standard Webhooks: whsec_ and base64; a hex or base64 Secret Encoding: hex or base64).`,
			'Copy the secret exactly as the sender shows it.',
		],
	},
	unknown_verification: {
		explain: (found) => [
			`The Verification "${found.verificationName}" is not one this version offers: a removed scheme (one named after another service, or a signature over form fields or inside body items; see the CHANGELOG), or one saved by a newer version. Every delivery is refused until it is changed.`,
			found.suggested ??
				'Choose a Verification in the trigger: HMAC of the Body when the sender signs the body alone, Custom HMAC when it also signs a timestamp, an ID, the URL or a header.',
		],
	},
	credential_unavailable: {
		status: 503,
		answer: retryLater,
		explain: () => [
			'n8n could not read the credential right now (its database is busy); the sender was answered 503 and retries.',
			'Nothing to change if it passes; in queue mode, raise DB_POSTGRESDB_POOL_SIZE on webhook processors.',
		],
	},
	raw_body_unavailable: {
		explain: () => [
			'n8n kept no bytes of this request (it parses multipart/form-data itself before the trigger runs), so nothing can be verified.',
			'Senders of signed webhooks post JSON or form fields: check the sender.',
		],
	},
	unsupported_media_type: {
		status: 415,
		answer: (format) =>
			`Unsupported content type: this trigger reads ${MEDIA_TYPE_OF[format]} bodies (Body Format)`,
		explain: (found) => [
			`The Content-Type is ${found.contentType}, which the Body Format (${found.bodyFormat}) does not read.`,
			'Set Body Format to what the sender posts (Form Fields for application/x-www-form-urlencoded, JSON otherwise).',
		],
	},
	empty_body: {
		status: 400,
		answer: () => 'Empty body',
		explain: () => [
			'The signature is valid, but the body is empty.',
			'Check the sender: it sent no data.',
		],
	},
	not_utf8: {
		status: 400,
		answer: (format) =>
			format === 'form' ? 'Body must be UTF-8 form fields' : 'Body must be UTF-8 JSON',
		explain: () => [
			'The signature is valid, but the body is not UTF-8.',
			'Check the sender: JSON and form fields are UTF-8.',
		],
	},
	invalid_json: {
		status: 400,
		answer: bodyShape,
		explain: () => [
			'The signature is valid, but the body is not JSON.',
			'Set Body Format to Form Fields if the sender posts form fields.',
		],
	},
	not_an_object: {
		status: 400,
		answer: bodyShape,
		explain: () => [
			'The signature is valid, but the body is a JSON list, text or number, not an object.',
			'Check the sender: the trigger reads one JSON object per delivery.',
		],
	},
	invalid_form: {
		status: 400,
		answer: bodyShape,
		explain: () => [
			'The signature is valid, but the form fields cannot be read (a field without a name, an escape that is not UTF-8, or more than 1,000 fields).',
			'Check the sender.',
		],
	},
	reserved_field: {
		status: 400,
		answer: () => `Body must not have a top-level ${WEBHOOK_DELIVERY_FIELD} field`,
		explain: () => [
			"The signature is valid, but the body has a top-level webhookDelivery field, the name the trigger gives the delivery's identity.",
			'Rename that field at the sender.',
		],
	},
	internal_error: {
		status: 503,
		answer: retryLater,
		explain: () => [
			'The trigger could not finish with this request: n8n did not hand it the request or its settings, or reading the body ran out of memory or stack. The sender was answered 503 and delivers again.',
			'Nothing to change if it passes; if it repeats for one delivery, tell us its size and Content-Type.',
		],
	},
};

/** Refusals a wrong kind of secret explains (diagnosis.ts adds its likely cause). */
export const SECRET_REASONS: RefusalReason[] = [
	'signature_mismatch',
	'invalid_secret',
	'secret_mismatch',
	'malformed_signature',
];

/** The answer a refusal sends: its status and message. */
export function refusalAnswer(
	reason: RefusalReason,
	format: BodyFormat = 'json',
): { status: RefusalStatus; message: string } {
	const { status = 401, answer } = REFUSALS[reason];
	return { status, message: answer === undefined ? 'Invalid signature' : answer(format) };
}
