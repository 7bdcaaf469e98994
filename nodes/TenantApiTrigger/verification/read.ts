import type { IDataObject } from 'n8n-workflow';

import type { BodyFailure, BodyFormat, ParsedBody } from './body';
import { mediaType, mediaTypeFits, parseBody } from './body';
import { itemAlone } from './items';
import type { DeliveryInput, VerificationConfig, VerificationReason, VerificationResult } from './verify';
import { headerValue, verifyDelivery } from './verify';

/**
 * What one signature covers, as the workflow gets it: the whole body for every scheme that signs the body (or its
 * fields) once, and one unit per item where each item carries its own signature (Adyen payments, Custom HMAC with the
 * signature inside items), as that item would read had it come alone (itemAlone).
 */
export interface SignedUnit {
	/** What the workflow gets. */
	object: IDataObject;
	/** What the signature covers of it: where the delivery id and the event type are read. */
	signed: IDataObject;
	/** Signed items only: the signed text of the item's id fields. */
	itemId?: string[];
}

/**
 * A delivery read as the workflow will see it, or why not, with the HTTP status to answer:
 * 401 not verified, 413 too large to verify, 415 a Content-Type that disagrees with the configured body format,
 * 400 a verified body that cannot be read in that format.
 */
export type DeliveryReading =
	| { ok: true; bodyFormat: BodyFormat; units: SignedUnit[]; verification: VerificationResult }
	| { ok: false; status: 401 | 413; reason: Exclude<VerificationReason, 'ok' | 'verification_disabled'> }
	| { ok: false; status: 415; reason: 'unsupported_media_type'; bodyFormat: BodyFormat; mediaType: string }
	| { ok: false; status: 400; reason: BodyFailure; bodyFormat: BodyFormat };

/**
 * Verifies a delivery, then reads its bytes once, in the format the configuration decides: the output, the delivery
 * id, the event type and every signed field all come from this one reading. Never throws.
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

/** The units of a verified body: one per signed item, else the body itself. */
function signedUnits(config: VerificationConfig, verification: VerificationResult, body: ParsedBody): SignedUnit[] {
	const { items } = verification;
	if (config.mode !== 'hmac' || items === undefined) return [{ object: body.object, signed: body.object }];
	const { scheme } = config;
	return items.map((item) => {
		const signed = itemAlone(scheme, body.object, item.view, false);
		const object = scheme.itemsOutput === 'body' ? itemAlone(scheme, body.object, item.entry, true) : signed;
		return { object, signed, itemId: item.id };
	});
}

function read(config: VerificationConfig, input: DeliveryInput): DeliveryReading {
	const verification = verifyDelivery(config, input);
	if (!verification.ok) return { ok: false, status: verification.reason === 'body_too_large' ? 413 : 401, reason: verification.reason as Exclude<VerificationReason, 'ok' | 'verification_disabled'> };
	const bodyFormat = verification.bodyFormat ?? 'json';
	const type = mismatchedMediaType(bodyFormat, input.headers);
	if (type !== undefined) return { ok: false, status: 415, reason: 'unsupported_media_type', bodyFormat, mediaType: type };
	let body = verification.body;
	if (body === undefined) {
		const parsed = parseBody(bodyFormat, input.rawBody);
		if (!parsed.ok) return { ok: false, status: 400, reason: parsed.reason, bodyFormat };
		body = parsed.body;
	}
	return { ok: true, bodyFormat, units: signedUnits(config, verification, body), verification };
}
