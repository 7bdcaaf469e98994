import type { IDataObject } from 'n8n-workflow';

import type { BodyFailure, BodyFormat, ParsedBody } from './body';
import { mediaType, mediaTypeFits, parseBody } from './body';
import { itemAlone } from './items';
import type {
	DeliveryInput,
	Seen,
	SignatureFailure,
	SignaturePassed,
	VerificationConfig,
} from './verify';
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
 * A delivery read as the workflow will see it, or why not (refusals.ts says what the trigger answers for each reason):
 * a signature not verified; a Content-Type that disagrees with the configured body format; a verified body that
 * cannot be read in that format.
 */
export type Reading =
	| { ok: true; bodyFormat: BodyFormat; units: SignedUnit[]; check: SignaturePassed }
	| { ok: false; reason: SignatureFailure; seen: Seen }
	| {
			ok: false;
			reason: 'unsupported_media_type';
			bodyFormat: BodyFormat;
			mediaType: string;
			seen: Seen;
	  }
	| { ok: false; reason: BodyFailure; bodyFormat: BodyFormat; seen: Seen };

/** The request's media type when it disagrees with the body format (undefined when it fits). */
export function mismatchedMediaType(
	format: BodyFormat,
	headers: DeliveryInput['headers'],
): string | undefined {
	const type = mediaType(headerValue(headers, 'content-type'));
	return mediaTypeFits(format, type) ? undefined : type;
}

/** The units of a verified body: one per signed item, else the body itself. */
function signedUnits(
	config: VerificationConfig,
	check: SignaturePassed,
	body: ParsedBody,
): SignedUnit[] {
	const { items } = check;
	if (config.mode !== 'hmac' || items === undefined)
		return [{ object: body.object, signed: body.object }];
	const { scheme } = config;
	return items.map((item) => {
		const signed = itemAlone(scheme, body.object, item.view, false);
		const object =
			scheme.itemsOutput === 'body' ? itemAlone(scheme, body.object, item.entry, true) : signed;
		return { object, signed, itemId: item.id };
	});
}

/**
 * Verifies a delivery, then reads its bytes once, in the format the configuration decides: the output, the delivery
 * id, the event type and every signed field all come from this one reading.
 */
export function readDelivery(config: VerificationConfig, input: DeliveryInput): Reading {
	const check = verifyDelivery(config, input);
	const { seen } = check;
	if (!check.ok) return { ok: false, reason: check.reason, seen };
	const { bodyFormat } = check;
	const type = mismatchedMediaType(bodyFormat, input.headers);
	if (type !== undefined)
		return { ok: false, reason: 'unsupported_media_type', bodyFormat, mediaType: type, seen };
	let body = check.body;
	if (body === undefined) {
		const parsed = parseBody(bodyFormat, input.rawBody);
		if (!parsed.ok) return { ok: false, reason: parsed.reason, bodyFormat, seen };
		body = parsed.body;
	}
	return { ok: true, bodyFormat, units: signedUnits(config, check, body), check };
}
