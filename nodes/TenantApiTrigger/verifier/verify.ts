import { createHash, createHmac } from 'crypto';

import type { BodyFormat, ParsedBody } from './body';
import { completeReading, parseBody } from './body';
import type { SignedItemFields } from './firstItem';
import { signedItemFields } from './firstItem';
import type { ItemsFailure, SignedItem } from './items';
import { bodyItems, itemBoundaries, itemIdFields, readItem } from './items';
import type { SchemeSpec } from './scheme';
import type { ParsedSignatureHeader } from './signature';
import {
	MAX_SIGNATURE_HEADER_LENGTH,
	constantTimeEqual,
	constantTimeStringEqual,
	decodeSignature,
	parseSignatureHeader,
	secretKey,
} from './signature';
import type { TemplatePart, TemplateValues } from './template';
import { parseTemplate, partsSplitOneWay, renderParts, usesPart } from './template';
import { checkTimestamp, parseTimestamp } from './timestamp';

/**
 * `secrets` in order of preference (current, previous) as configured: blank or non-text entries are skipped but keep
 * their place, so `secretIndex` in the result always points into this list. `bodyFormat` (JSON by default) is how
 * the body is read in the modes without a scheme; a scheme has its own.
 */
export type VerificationConfig =
	| { mode: 'none'; bodyFormat?: BodyFormat }
	| { mode: 'secretHeader'; secrets: unknown[]; secretHeader: string; bodyFormat?: BodyFormat }
	| { mode: 'hmac'; scheme: SchemeSpec; secrets: unknown[] };

/** Why a delivery's signature is not verified (or cannot be checked). */
export type SignatureFailure =
	| ItemsFailure
	| 'unknown_mode'
	| 'invalid_scheme'
	| 'no_secret_configured'
	| 'invalid_secret'
	| 'malformed_signature'
	| 'signature_mismatch'
	| 'missing_timestamp'
	| 'invalid_timestamp'
	| 'timestamp_out_of_window'
	| 'missing_id'
	| 'missing_url'
	| 'missing_body_hash'
	| 'body_hash_mismatch'
	| 'unreadable_body'
	| 'body_too_large'
	| 'missing_secret_header'
	| 'secret_mismatch';

/** What the verifier read of a request, whatever came of it: what a refusal is explained from (diagnosis.ts). */
export interface Seen {
	/** The timestamp the scheme signs, in unix seconds, when the request carried one that reads as a time. */
	timestamp?: number;
	/** The configured secrets the signature is checked against, as indexes into `secrets`. */
	secretsTried: number[];
}

/** A verified signature: what it covers. */
export interface SignaturePassed {
	ok: true;
	reason: 'ok' | 'verification_disabled';
	/** How the body is read (the configuration decides; for Twilio, whether the signed URL carries the body hash). */
	bodyFormat: BodyFormat;
	seen: Seen;
	/** Index into the configured `secrets` of the secret that matched (the trigger: 0 = current, 1 = previous). */
	secretIndex?: number;
	/** The signed delivery id (`{id}`), as sent. */
	id?: string;
	/** The signed timestamp (`{timestamp}`), in unix seconds. */
	timestamp?: number;
	/** Signed items only: every item, each verified on its own. */
	items?: SignedItem[];
	/** Signed items only: the item fields each item's id is made of. */
	itemIdFields?: string[];
	/** The body, when verifying had to read it (form fields, signed items): read once, reused by the caller. */
	body?: ParsedBody;
	/**
	 * The SHA-256 (hex) of the signed text, when the signature covers form fields without marking where each ends
	 * (`{formFields}`, Twilio's rule) and nothing else covers the body: bytes can move from one field to another under
	 * the same signature, so no field can name the delivery; the signed text can.
	 */
	signedTextSha256?: string;
}

export interface SignatureFailed {
	ok: false;
	reason: SignatureFailure;
	seen: Seen;
}

export type SignatureCheck = SignaturePassed | SignatureFailed;

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface DeliveryInput {
	/** The exact request bytes. */
	rawBody: Buffer;
	headers: HeaderBag;
	/** Current time in unix seconds. */
	nowSeconds: number;
	/** The full URL the sender called, query string included (for `{url}` and a body hash parameter). */
	url?: string;
}

/** Longest delivery id accepted from a header. */
export const MAX_ID_LENGTH = 256;

/**
 * Largest body read before its signature is checked (form fields signed one by one, signed items inside a JSON
 * body): reading costs CPU, and a request nobody signed must cost little. Twilio's and Adyen's are a few KiB.
 */
export const MAX_BODY_READ_BEFORE_VERIFYING = 128 * 1024;

/** The header names of a setting that may list several, separated by commas (lower case, blanks dropped). */
export function headerNames(names: string): string[] {
	return names
		.split(',')
		.map((name) => name.trim().toLowerCase())
		.filter((name) => name !== '');
}

/**
 * Case-insensitive header lookup. `names` may list alternatives separated by commas: the first one present
 * wins. Repeated headers are joined with ', ' the way Node joins them.
 */
export function headerValue(headers: HeaderBag, names: string): string | undefined {
	for (const wanted of headerNames(names)) {
		for (const [key, value] of Object.entries(headers)) {
			if (key.toLowerCase() !== wanted || value === undefined) continue;
			return Array.isArray(value) ? value.join(', ') : String(value);
		}
	}
	return undefined;
}

/** A configured secret as it is used: trimmed text, or undefined when it is blank or not text. */
function usableSecret(secret: unknown): string | undefined {
	return typeof secret === 'string' && secret.trim() !== '' ? secret.trim() : undefined;
}

/** The secrets that can be used (trimmed), blank and non-text entries left out. */
export function usableSecrets(secrets: unknown[]): string[] {
	return secrets.map(usableSecret).filter((s): s is string => s !== undefined);
}

/** The body hash the signed URL carries (`bodySHA256=…`), or null; undefined when the URL cannot be read. */
function bodyHashInUrl(scheme: SchemeSpec, url: string | undefined): string | null | undefined {
	if (scheme.bodyHashParameter === '' || url === undefined) return null;
	try {
		return new URL(url).searchParams.get(scheme.bodyHashParameter);
	} catch {
		return undefined;
	}
}

/** How a delivery's body is read under a configuration. */
export function deliveryFormat(config: VerificationConfig, url: string | undefined): BodyFormat {
	if (config.mode !== 'hmac') return config.bodyFormat ?? 'json';
	const format = config.scheme.bodyFormat;
	if (format !== 'formUnlessBodyHash') return format;
	const hash = bodyHashInUrl(config.scheme, url);
	return typeof hash === 'string' ? 'json' : 'form';
}

/**
 * The body hash is checked whenever the signed URL carries one; and it is required when the signature covers
 * neither the body nor (for a form) its fields, so that nothing unsigned reaches the workflow.
 */
function checkBodyCoverage(
	scheme: SchemeSpec,
	parts: TemplatePart[],
	input: DeliveryInput,
	format: BodyFormat,
	hash: string | null | undefined,
): SignatureFailure | undefined {
	if (hash === undefined) return 'missing_url';
	if (hash !== null) {
		const actual = createHash('sha256').update(input.rawBody).digest('hex');
		if (!constantTimeStringEqual(hash.toLowerCase(), actual)) return 'body_hash_mismatch';
		return undefined;
	}
	if (scheme.signatureIn === 'items' || usesPart(parts, 'body')) return undefined;
	if (format === 'form' && usesPart(parts, 'formFields')) return undefined;
	return 'missing_body_hash';
}

/** Twilio's form rule: names sorted, each name followed by its value; a repeated name, its values sorted (form.ts). */
function sortedFormFields(body: ParsedBody): string[] | SignatureFailure {
	if (body.format !== 'form') return [];
	const signed = body.form.inSignedOrder();
	// The sender signs each distinct value once: a repeated name=value pair would be unsigned extra data.
	return signed === undefined ? 'unreadable_body' : [signed];
}

/**
 * The body read in `format` before the signature is checked, when verifying needs it (capped: see the constant). JSON
 * numbers are exact in `exactAt` only, what the check reads first; completeReading does the rest once it holds.
 */
function readBeforeVerifying(
	input: DeliveryInput,
	format: BodyFormat,
	exactAt?: SignedItemFields,
): ParsedBody | SignatureFailure {
	if (input.rawBody.length > MAX_BODY_READ_BEFORE_VERIFYING) return 'body_too_large';
	const parsed = parseBody(format, input.rawBody, exactAt);
	return parsed.ok ? parsed.body : 'unreadable_body';
}

/** A unit to check: the values its signed text is made of, and the signatures it carries. */
interface Candidate {
	values: TemplateValues;
	signatures: Buffer[];
}

/** The signatures a unit carries, decoded; a reason when none is a digest of the scheme's algorithm and encoding. */
function decodedSignatures(scheme: SchemeSpec, signatures: string[]): Buffer[] | SignatureFailure {
	const decoded = signatures
		.map((signature) => decodeSignature(signature, scheme.algorithm, scheme.signatureEncoding))
		.filter((bytes): bytes is Buffer => bytes !== undefined);
	return decoded.length === 0 ? 'malformed_signature' : decoded;
}

/** The timestamp text a scheme signs: among the signature header's key=value pairs, or in its own header. */
function signedTimestampText(
	scheme: SchemeSpec,
	headers: HeaderBag,
	signatureHeader: ParsedSignatureHeader | undefined,
): string | undefined {
	return scheme.signatureFormat === 'keyValue'
		? signatureHeader?.timestamp
		: headerValue(headers, scheme.timestampHeader);
}

/** The signed unit when the signature travels in a header: cheap checks first, the body read last. */
function fromHeader(
	scheme: SchemeSpec,
	parts: TemplatePart[],
	input: DeliveryInput,
	format: BodyFormat,
	seen: Seen,
): { unit: Candidate; body?: ParsedBody } | SignatureFailure {
	const header = headerValue(input.headers, scheme.signatureHeader);
	if (header === undefined || header.trim() === '') return 'missing_signature';
	if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return 'malformed_signature';
	const parsed = parseSignatureHeader(header, scheme);
	const signatures = decodedSignatures(scheme, parsed.signatures);
	if (!Array.isArray(signatures)) return signatures;
	const values: TemplateValues = { body: input.rawBody };
	if (usesPart(parts, 'timestamp')) {
		const timestamp = signedTimestampText(scheme, input.headers, parsed)?.trim();
		if (timestamp === undefined || timestamp === '') return 'missing_timestamp';
		seen.timestamp = parseTimestamp(timestamp);
		const window = checkTimestamp(timestamp, input.nowSeconds, scheme.toleranceSeconds);
		if (window !== 'ok') return window;
		values.timestamp = timestamp;
	}
	if (usesPart(parts, 'id')) {
		const id = headerValue(input.headers, scheme.idHeader)?.trim();
		if (id === undefined || id === '' || id.length > MAX_ID_LENGTH) return 'missing_id';
		values.id = id;
	}
	if (usesPart(parts, 'url')) {
		if (!input.url) return 'missing_url';
		values.url = input.url;
	}
	if (!usesPart(parts, 'formFields') || format !== 'form') return { unit: { values, signatures } };
	const body = readBeforeVerifying(input, format);
	if (typeof body === 'string') return body;
	const fields = sortedFormFields(body);
	if (typeof fields === 'string') return fields;
	values.formFields = fields;
	return { unit: { values, signatures }, body };
}

/** Index of the first key whose HMAC of the unit matches one of its signatures, or undefined. Compares every pair. */
function matchingKey(
	scheme: SchemeSpec,
	parts: TemplatePart[],
	keys: Array<Buffer | undefined>,
	unit: Candidate,
): number | undefined {
	const content = renderParts(parts, unit.values);
	let matched: number | undefined;
	keys.forEach((key, index) => {
		if (key === undefined) return;
		const hmac = createHmac(scheme.algorithm, key);
		for (const part of content) hmac.update(part);
		const expected = hmac.digest();
		for (const candidate of unit.signatures) {
			if (constantTimeEqual(candidate, expected) && matched === undefined) matched = index;
		}
	});
	return matched;
}

/** What a matching signature covers: the secret that matched, the signed header values, the body when it was read. */
interface Match {
	secretIndex: number;
	values?: TemplateValues;
	body?: ParsedBody;
	items?: SignedItem[];
	itemIdFields?: string[];
}

function verifyHeaderSignature(
	scheme: SchemeSpec,
	parts: TemplatePart[],
	keys: Array<Buffer | undefined>,
	input: DeliveryInput,
	format: BodyFormat,
	seen: Seen,
): Match | SignatureFailure {
	if (usesPart(parts, 'item') || !partsSplitOneWay(parts, format)) return 'invalid_scheme';
	const signed = fromHeader(scheme, parts, input, format, seen);
	if (typeof signed === 'string') return signed;
	const secretIndex = matchingKey(scheme, parts, keys, signed.unit);
	if (secretIndex === undefined) return 'signature_mismatch';
	return { secretIndex, values: signed.unit.values, body: signed.body };
}

/**
 * Every body item carries its own signature (Adyen payments). Each is checked as soon as it is read, so a body nobody
 * signed costs its parse and one item.
 */
function verifyItemSignatures(
	scheme: SchemeSpec,
	parts: TemplatePart[],
	keys: Array<Buffer | undefined>,
	input: DeliveryInput,
	format: BodyFormat,
): Match | SignatureFailure {
	const boundaries = itemBoundaries(parts);
	// Signed items sign their fields and literal text, nothing from the headers, the URL or the whole body.
	if (
		format !== 'json' ||
		boundaries === undefined ||
		parts.some((part) => part.kind !== 'item' && part.kind !== 'literal')
	)
		return 'invalid_scheme';
	const body = readBeforeVerifying(
		input,
		format,
		signedItemFields(scheme.itemsPath, [scheme.itemSignaturePath, ...boundaries.keys()]),
	);
	if (typeof body === 'string') return body;
	const entries = bodyItems(scheme, body.object);
	if (typeof entries === 'string') return entries;
	const idFields = itemIdFields(scheme, boundaries);
	const items: SignedItem[] = [];
	let secretIndex: number | undefined;
	for (const entry of entries) {
		const item = readItem(scheme, boundaries, idFields, entry);
		if (typeof item === 'string') return item;
		const signatures = decodedSignatures(scheme, [item.signature]);
		if (!Array.isArray(signatures)) return signatures;
		const matched = matchingKey(scheme, parts, keys, {
			values: { body: input.rawBody, item: (path) => item.fields.get(path) ?? '' },
			signatures,
		});
		if (matched === undefined) return 'signature_mismatch';
		secretIndex ??= matched;
		// Read exactly so far: the first item's signed fields. Once one holds, every number (the next items' too).
		if (items.length === 0) completeReading(body, input.rawBody);
		items.push(item);
	}
	return { secretIndex: secretIndex ?? 0, body, items, itemIdFields: idFields };
}

/** A passed check without what was seen (verifyDelivery adds it), or why not. */
type Outcome = Omit<SignaturePassed, 'seen'> | SignatureFailure;

function verifyHmac(
	scheme: SchemeSpec,
	secrets: Array<string | undefined>,
	input: DeliveryInput,
	seen: Seen,
): Outcome {
	const parts = parseTemplate(scheme.signedContent);
	if (parts === undefined) return 'invalid_scheme';
	const keys = secrets.map((secret) =>
		secret === undefined ? undefined : secretKey(secret, scheme.secretEncoding),
	);
	seen.secretsTried = indexesOfDefined(keys);
	if (seen.secretsTried.length === 0) return 'invalid_secret';
	const format = deliveryFormat({ mode: 'hmac', scheme, secrets }, input.url);
	const matched =
		scheme.signatureIn === 'items'
			? verifyItemSignatures(scheme, parts, keys, input, format)
			: verifyHeaderSignature(scheme, parts, keys, input, format, seen);
	if (typeof matched === 'string') return matched;
	// Only a signed URL's body hash counts: a hash in a URL the signature does not cover is anyone's.
	const signedHash = usesPart(parts, 'url') ? bodyHashInUrl(scheme, input.url) : null;
	const coverage = checkBodyCoverage(scheme, parts, input, format, signedHash);
	if (coverage !== undefined) return coverage;
	const { values, body, items, itemIdFields } = matched;
	// Twilio's rule signs each name followed by its value, nothing between: where one field ends is not signed.
	const unbounded =
		format === 'form' &&
		usesPart(parts, 'formFields') &&
		!usesPart(parts, 'body') &&
		signedHash === null;
	return {
		ok: true,
		reason: 'ok',
		bodyFormat: format,
		secretIndex: matched.secretIndex,
		...(values?.id === undefined ? {} : { id: values.id }),
		...(values?.timestamp === undefined ? {} : { timestamp: Number(values.timestamp) }),
		...(items === undefined ? {} : { items, itemIdFields }),
		...(unbounded && values !== undefined
			? { signedTextSha256: sha256Of(renderParts(parts, values)) }
			: {}),
		...(body === undefined ? {} : { body }),
	};
}

/** The indexes of the entries that are set. */
function indexesOfDefined(entries: unknown[]): number[] {
	return entries.flatMap((entry, index) => (entry === undefined ? [] : [index]));
}

function sha256Of(parts: Array<Buffer | string>): string {
	const hash = createHash('sha256');
	for (const part of parts) hash.update(part);
	return hash.digest('hex');
}

function verifySecretHeader(
	config: Extract<VerificationConfig, { mode: 'secretHeader' }>,
	secrets: Array<string | undefined>,
	input: DeliveryInput,
): Outcome {
	const sent = headerValue(input.headers, config.secretHeader);
	if (sent === undefined || sent.trim() === '') return 'missing_secret_header';
	let matched: number | undefined;
	secrets.forEach((secret, index) => {
		if (
			secret !== undefined &&
			constantTimeStringEqual(sent.trim(), secret) &&
			matched === undefined
		)
			matched = index;
	});
	return matched === undefined
		? 'secret_mismatch'
		: {
				ok: true,
				reason: 'ok',
				secretIndex: matched,
				bodyFormat: deliveryFormat(config, input.url),
			};
}

function verify(config: VerificationConfig, input: DeliveryInput, seen: Seen): Outcome {
	if (config.mode === 'none')
		return {
			ok: true,
			reason: 'verification_disabled',
			bodyFormat: deliveryFormat(config, input.url),
		};
	if (config.mode !== 'hmac' && config.mode !== 'secretHeader') return 'unknown_mode';
	const secrets = config.secrets.map(usableSecret);
	seen.secretsTried = indexesOfDefined(secrets);
	if (seen.secretsTried.length === 0) return 'no_secret_configured';
	return config.mode === 'secretHeader'
		? verifySecretHeader(config, secrets, input)
		: verifyHmac(config.scheme, secrets, input, seen);
}

/**
 * Verifies one delivery against the configuration: every outcome is a reason code, with what the verifier saw.
 * Nothing in the result contains a secret or an expected signature. It checks the signature only: readDelivery
 * (read.ts) also checks the Content-Type and reads the body, and is what a receiver should call.
 */
export function verifyDelivery(config: VerificationConfig, input: DeliveryInput): SignatureCheck {
	const seen: Seen = { secretsTried: [] };
	const outcome = verify(config, input, seen);
	return typeof outcome === 'string' ? { ok: false, reason: outcome, seen } : { ...outcome, seen };
}
