import type { IDataObject } from 'n8n-workflow';

import type { BodyFailure, BodyFormat, ParsedBody } from './body';
import { mediaType, mediaTypeFits, parseBody } from './body';
import type { DeliveryInput, VerificationConfig, VerificationReason, VerificationResult } from './verify';
import { headerValue, verifyDelivery } from './verify';

/**
 * A delivery read as the workflow will see it, or why not, with the HTTP status to answer:
 * 401 not verified, 413 too large to verify, 415 a Content-Type that disagrees with the configured body format,
 * 400 a verified body that cannot be read in that format.
 */
export type DeliveryReading =
	| { ok: true; body: ParsedBody; signed: IDataObject; verification: VerificationResult }
	| { ok: false; status: 401 | 413; reason: VerificationReason }
	| { ok: false; status: 415; reason: 'unsupported_media_type'; bodyFormat: BodyFormat; mediaType: string }
	| { ok: false; status: 400; reason: BodyFailure; bodyFormat: BodyFormat };

/**
 * Verifies a delivery, then reads its bytes once, in the format the configuration decides: the output, the
 * delivery id, the event type and every signed field all come from this one reading. Never throws.
 * `body.object` is what the workflow gets; `signed` what the signature covers, where the delivery id and the event
 * type are read: the same object, except for signed items (the items' signed fields alone; for Custom HMAC the
 * output is that too).
 */
export function readDelivery(config: VerificationConfig, input: DeliveryInput): DeliveryReading {
	try {
		return read(config, input);
	} catch {
		return { ok: false, status: 401, reason: 'internal_error' };
	}
}

/** The request's media type when it disagrees with the body format (undefined when it fits). */
export function mismatchedMediaType(format: BodyFormat, headers: DeliveryInput['headers']): string | undefined {
	const type = mediaType(headerValue(headers, 'content-type'));
	return mediaTypeFits(format, type) ? undefined : type;
}

function read(config: VerificationConfig, input: DeliveryInput): DeliveryReading {
	const verification = verifyDelivery(config, input);
	if (!verification.ok) return { ok: false, status: verification.reason === 'body_too_large' ? 413 : 401, reason: verification.reason };
	const bodyFormat = verification.bodyFormat ?? 'json';
	const type = mismatchedMediaType(bodyFormat, input.headers);
	if (type !== undefined) return { ok: false, status: 415, reason: 'unsupported_media_type', bodyFormat, mediaType: type };
	const { body, signedView } = verification;
	if (body !== undefined && signedView !== undefined) {
		const signedOnly = config.mode === 'hmac' && config.scheme.itemsOutput === 'signedFields';
		return { ok: true, body: signedOnly ? { format: 'json', object: signedView } : body, signed: signedView, verification };
	}
	if (body !== undefined) return { ok: true, body, signed: body.object, verification };
	const parsed = parseBody(bodyFormat, input.rawBody);
	return parsed.ok ? { ok: true, body: parsed.body, signed: parsed.body.object, verification } : { ok: false, status: 400, reason: parsed.reason, bodyFormat };
}
