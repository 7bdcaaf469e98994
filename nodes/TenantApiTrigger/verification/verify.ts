import { createHash, createHmac } from 'crypto';

import { formFields, parseJsonBody, valueAtPath, valuesAtPath } from '../body';
import type { SchemeSpec } from './scheme';
import {
	MAX_SIGNATURE_HEADER_LENGTH,
	constantTimeEqual,
	constantTimeStringEqual,
	decodeSignature,
	parseSignatureHeader,
	secretKey,
} from './signature';
import type { TemplatePart, TemplateValues } from './template';
import { parseTemplate, renderParts, usesPart } from './template';
import { checkTimestamp } from './timestamp';

export type VerificationConfig =
	| { mode: 'none' }
	| { mode: 'secretHeader'; secrets: string[]; secretHeader: string }
	| { mode: 'hmac'; scheme: SchemeSpec; secrets: string[] };

export type VerificationReason =
	| 'ok'
	| 'verification_disabled'
	| 'unknown_mode'
	| 'invalid_scheme'
	| 'no_secret_configured'
	| 'invalid_secret'
	| 'missing_signature'
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
	| 'missing_secret_header'
	| 'secret_mismatch'
	| 'internal_error';

export interface VerificationResult {
	ok: boolean;
	reason: VerificationReason;
	/** Index into `secrets` of the secret that matched (0 = current, 1 = previous). */
	secretIndex?: number;
	/** The signed delivery id (`{id}`), as sent. */
	id?: string;
	/** The signed timestamp (`{timestamp}`), in unix seconds. */
	timestamp?: number;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface DeliveryInput {
	/** The exact request bytes. */
	rawBody: Buffer;
	headers: HeaderBag;
	/** Current time in unix seconds. */
	nowSeconds: number;
	/** The full URL the sender called, query string included (for `{url}` and a body hash parameter). */
	url?: string;
	/** Lower-case media type, e.g. `application/x-www-form-urlencoded` (for `{formFields}`). */
	mediaType?: string;
}

/** Longest delivery id accepted from a header. */
export const MAX_ID_LENGTH = 256;

/**
 * Case-insensitive header lookup. `names` may list alternatives separated by commas: the first one present
 * wins. Repeated headers are joined with ', ' the way Node joins them.
 */
export function headerValue(headers: HeaderBag, names: string): string | undefined {
	for (const name of names.split(',')) {
		const wanted = name.trim().toLowerCase();
		if (wanted === '') continue;
		for (const [key, value] of Object.entries(headers)) {
			if (key.toLowerCase() !== wanted || value === undefined) continue;
			return Array.isArray(value) ? value.join(', ') : String(value);
		}
	}
	return undefined;
}

export function usableSecrets(secrets: unknown[]): string[] {
	return secrets.filter((s): s is string => typeof s === 'string').map((s) => s.trim()).filter((s) => s !== '');
}

function fail(reason: VerificationReason): VerificationResult {
	return { ok: false, reason };
}

/** Twilio's form rule: names sorted, each name followed by its value (a repeated name: its distinct values, sorted). */
function sortedFormFields(rawBody: Buffer): string[] | undefined {
	const fields = formFields(rawBody);
	if (fields === undefined) return undefined;
	return [...fields.keys()].sort().flatMap((name) => {
		const values = fields.get(name) ?? [];
		// Hashing and sorting large values costs time: only a repeated name needs it.
		return (values.length === 1 ? values : [...new Set(values)].sort()).flatMap((value) => [name, value]);
	});
}

/** What the signature must cover besides the template: the body, through a hash in the URL when the template does not. */
function checkBodyCoverage(scheme: SchemeSpec, parts: TemplatePart[], input: DeliveryInput): VerificationReason | undefined {
	if (scheme.signatureIn === 'items' || usesPart(parts, 'body')) return undefined;
	if (usesPart(parts, 'formFields') && input.mediaType === 'application/x-www-form-urlencoded') return undefined;
	if (input.rawBody.length === 0) return undefined;
	const hash = scheme.bodyHashParameter && input.url ? new URL(input.url).searchParams.get(scheme.bodyHashParameter) : null;
	if (hash === null || !usesPart(parts, 'url')) return 'missing_body_hash';
	const actual = createHash('sha256').update(input.rawBody).digest('hex');
	return constantTimeStringEqual(hash.toLowerCase(), actual) ? undefined : 'body_hash_mismatch';
}

interface Signed {
	values: TemplateValues;
	signatures: string[];
}

/** Signatures and template values when the signature travels in a header; a reason when something is missing. */
function fromHeader(scheme: SchemeSpec, parts: TemplatePart[], input: DeliveryInput): Signed | VerificationReason {
	const header = headerValue(input.headers, scheme.signatureHeader);
	if (header === undefined || header.trim() === '') return 'missing_signature';
	if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return 'malformed_signature';
	const parsed = parseSignatureHeader(header, scheme);
	const values: TemplateValues = { body: input.rawBody };
	if (usesPart(parts, 'timestamp')) {
		const timestamp = (scheme.signatureFormat === 'keyValue' ? parsed.timestamp : headerValue(input.headers, scheme.timestampHeader))?.trim();
		if (timestamp === undefined || timestamp === '') return 'missing_timestamp';
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
	if (usesPart(parts, 'formFields')) {
		const form = input.mediaType === 'application/x-www-form-urlencoded' ? sortedFormFields(input.rawBody) : [];
		if (form === undefined) return 'unreadable_body';
		values.formFields = form;
	}
	return { values, signatures: parsed.signatures };
}

/** One signed unit per body item (Adyen payments: every NotificationRequestItem carries its own signature). */
function fromItems(scheme: SchemeSpec, input: DeliveryInput): Signed[] | VerificationReason {
	const parsed = parseJsonBody(input.rawBody);
	if (!parsed.ok) return 'unreadable_body';
	const items = valuesAtPath(parsed.body, scheme.itemsPath);
	if (items.length === 0) return 'missing_signature';
	const units: Signed[] = [];
	for (const item of items) {
		const signature = valueAtPath(item, scheme.itemSignaturePath);
		if (typeof signature !== 'string' || signature.trim() === '') return 'missing_signature';
		const field = (path: string) => {
			const value = valueAtPath(item, path);
			return value === undefined || value === null ? '' : String(value);
		};
		units.push({ values: { body: input.rawBody, item: field }, signatures: [signature.trim()] });
	}
	return units;
}

/** Index of the first key whose HMAC of the unit matches one of its signatures, or undefined. Compares every pair. */
function matchingKey(scheme: SchemeSpec, parts: TemplatePart[], keys: Array<Buffer | undefined>, unit: Signed): number | undefined {
	const candidates = unit.signatures
		.map((signature) => decodeSignature(signature, scheme.algorithm, scheme.signatureEncoding))
		.filter((bytes): bytes is Buffer => bytes !== undefined);
	if (candidates.length === 0) return -1;
	const content = renderParts(parts, unit.values);
	let matched: number | undefined;
	keys.forEach((key, index) => {
		if (key === undefined) return;
		const hmac = createHmac(scheme.algorithm, key);
		for (const part of content) hmac.update(part);
		const expected = hmac.digest();
		for (const candidate of candidates) {
			if (constantTimeEqual(candidate, expected) && matched === undefined) matched = index;
		}
	});
	return matched;
}

function verifyHmac(scheme: SchemeSpec, secrets: string[], input: DeliveryInput): VerificationResult {
	const parts = parseTemplate(scheme.signedContent);
	if (parts === undefined) return fail('invalid_scheme');
	const keys = secrets.map((secret) => secretKey(secret, scheme.secretEncoding));
	if (keys.every((key) => key === undefined)) return fail('invalid_secret');
	const units = scheme.signatureIn === 'items' ? fromItems(scheme, input) : fromHeader(scheme, parts, input);
	if (typeof units === 'string') return fail(units);
	let secretIndex: number | undefined;
	for (const unit of Array.isArray(units) ? units : [units]) {
		const matched = matchingKey(scheme, parts, keys, unit);
		if (matched === -1) return fail('malformed_signature');
		if (matched === undefined) return fail('signature_mismatch');
		secretIndex ??= matched;
	}
	const coverage = checkBodyCoverage(scheme, parts, input);
	if (coverage !== undefined) return fail(coverage);
	const first = Array.isArray(units) ? undefined : units.values;
	return {
		ok: true,
		reason: 'ok',
		secretIndex,
		...(first?.id === undefined ? {} : { id: first.id }),
		...(first?.timestamp === undefined ? {} : { timestamp: Number(first.timestamp) }),
	};
}

function verifySecretHeader(secretHeader: string, secrets: string[], input: DeliveryInput): VerificationResult {
	const sent = headerValue(input.headers, secretHeader);
	if (sent === undefined || sent.trim() === '') return fail('missing_secret_header');
	let matched: number | undefined;
	secrets.forEach((secret, index) => {
		if (constantTimeStringEqual(sent.trim(), secret) && matched === undefined) matched = index;
	});
	return matched === undefined ? fail('secret_mismatch') : { ok: true, reason: 'ok', secretIndex: matched };
}

/**
 * Verifies one delivery against the configuration. Never throws: every outcome is a reason code.
 * Nothing in the result contains a secret or an expected signature.
 */
export function verifyDelivery(config: VerificationConfig, input: DeliveryInput): VerificationResult {
	try {
		if (config.mode === 'none') return { ok: true, reason: 'verification_disabled' };
		if (config.mode !== 'hmac' && config.mode !== 'secretHeader') return fail('unknown_mode');
		const secrets = usableSecrets(config.secrets);
		if (secrets.length === 0) return fail('no_secret_configured');
		if (!Buffer.isBuffer(input.rawBody)) return fail('internal_error');
		if (config.mode === 'secretHeader') return verifySecretHeader(config.secretHeader, secrets, input);
		return verifyHmac(config.scheme, secrets, input);
	} catch {
		return fail('internal_error');
	}
}
