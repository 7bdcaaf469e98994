/**
 * The judge of one request (a genuine delivery, a captured one moved by an attacker, any request): held to the model
 * (oracle.ts) and to the four rules of the trust boundary, each checked on its own:
 * 1. The workflow sees exactly what was signed, read one way, or nothing: under an HMAC scheme a started item comes
 *    from a genuine delivery whose bytes and every signed part the request carries unchanged, its body the
 *    independent reading (reading.ts) in the Body Format. Secret in Header and None sign nothing: there the body is
 *    the reading of the bytes received, in the Body Format, never per Content-Type.
 * 2. A captured delivery replayed in any shape never gets an id no genuine delivery had.
 * 3. Ids follow the rule (oracle.ts identity): two genuine deliveries share one only when what is signed but the
 *    timestamp is the same (deliveries.ts checks pairs of captures).
 * 4. No secret of the credential reaches an output item, Verified or Refused, in any spelling or letter case.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Verdict } from './common';
import type { ModelDecision, Received } from './oracle';
import {
	credentialSecrets,
	expected,
	headerText,
	identity,
	readSignedContent,
	received,
} from './oracle';
import { readAs, sameValue } from './reading';
import { secretFinder, texts } from './secretReadings';
import type { Genuine } from './sender';
import type { Setup } from './settings';
import type { Answer } from './trigger';

const outcomeOf = (decision: Answer['decision']) =>
	decision.action === 'refuse'
		? `refused ${decision.status} ${decision.reason}`
		: decision.action === 'start'
			? 'started'
			: 'acknowledged';

const withoutDelivery = (item: IDataObject) => {
	const body = { ...item };
	delete body.webhookDelivery;
	return body;
};

/** Whether the trigger's decision is one the model allows. */
function allowed(decision: Answer['decision'], model: ModelDecision): boolean {
	if (decision.action !== model.action) return false;
	if (decision.action === 'refuse' && model.action === 'refuse')
		return model.reasons.includes(decision.reason);
	if (decision.action === 'start' && model.action === 'start')
		return sameValue(decision.item, model.item);
	return true;
}

/**
 * The signature header's state for the model: the one a genuine sender wrote for exactly this signed content (the
 * trigger must read it, unless that sender was faulty), or another.
 */
function signatureState(setup: Setup, captures: Genuine[], request: Received) {
	const reading = readSignedContent(setup, request);
	if (reading === undefined) return 'readable' as const;
	const header = headerText(request.headers, setup.meaning.signatureHeaders);
	const same = captures.find(
		(genuine) =>
			genuine.signed?.text.equals(reading.text) === true &&
			headerText(received(genuine.request).headers, setup.meaning.signatureHeaders) === header,
	);
	if (same === undefined) return 'unknown' as const;
	// Only a signature written in a form the setting does not read is unreadable; a sender's other faults (a
	// timestamp in milliseconds, an id too long) are in signed parts that a re-split of the same text may mend.
	return same.fault === 'a signature form the setting does not read'
		? ('unreadable' as const)
		: ('readable' as const);
}

/** Rule 4: whether an item holds a secret, in any spelling (secretReadings.ts), in any of its names and texts. */
function holdsASecret(setup: Setup, item: IDataObject | undefined): boolean {
	return item !== undefined && texts(item).some(secretFinder(credentialSecrets(setup)));
}

const SIGNED_PARTS = ['timestamp', 'id', 'url', 'header'] as const;

/** Rules 1 to 3 for a started item under an HMAC scheme: the genuine delivery it comes from, unchanged, or why none. */
function signedOrigin(
	setup: Setup,
	captures: Genuine[],
	request: Received,
	item: IDataObject,
): string | undefined {
	const reading = readSignedContent(setup, request);
	if (reading === undefined) return 'no bytes to have verified';
	const origin = captures.find(
		(genuine) =>
			genuine.fault === 'none' &&
			genuine.signed !== undefined &&
			genuine.signed.values.body.equals(reading.values.body) &&
			SIGNED_PARTS.every((part) => genuine.signed?.values[part] === reading.values[part]),
	);
	if (origin === undefined)
		return 'rule 1: started, but its bytes or a signed part (timestamp, id, URL, header) are not what a sender signed';
	const {
		body,
		id: signedId,
		header,
		url,
	} = (origin.signed as NonNullable<Genuine['signed']>).values;
	const read = readAs(setup.format, body);
	if (!read.ok || !sameValue(withoutDelivery(item), read.object))
		return 'rule 1: the body is not the independent reading of the signed bytes';
	const genuineId = identity(setup, body, read.object, {
		id: signedId === undefined ? undefined : { value: signedId, name: '' },
		header: header === undefined ? undefined : { value: header, name: '' },
		url,
	}).id;
	const id = (item.webhookDelivery as IDataObject).id;
	return id === genuineId
		? undefined
		: `rule 2: id ${JSON.stringify(id)}, which its genuine delivery (${JSON.stringify(genuineId)}) did not have`;
}

/** Rules 1 and 3 under Secret in Header and None: the body as read from the bytes received, the id by the rule. */
function unsignedOrigin(setup: Setup, request: Received, item: IDataObject): string | undefined {
	const read = readAs(setup.format, request.body as Buffer);
	if (!read.ok || !sameValue(withoutDelivery(item), read.object))
		return 'rule 1: the body is not the independent reading of the bytes received';
	const id = (item.webhookDelivery as IDataObject).id;
	const ruled = identity(setup, request.body as Buffer, read.object).id;
	return id === ruled
		? undefined
		: `rule 3: id ${JSON.stringify(id)}, not ${JSON.stringify(ruled)} by the rule`;
}

/** The verdict on what the trigger did with `request`, a case built from `captures` (genuine deliveries of the set-up). */
export function judge(
	setup: Setup,
	captures: Genuine[],
	request: Received,
	answer: Answer,
): Verdict {
	const { decision } = answer;
	const outcome = outcomeOf(decision);
	const broken = (why: string): Verdict => ({ ok: false, outcome, why });
	const shown = decision.action === 'start' ? decision.item : answer.refused;
	if (holdsASecret(setup, shown))
		return broken(
			`rule 4: a secret of the credential reached the output: ${JSON.stringify(shown)}`,
		);
	if (decision.action === 'start') {
		const origin =
			setup.sender.kind === 'hmac'
				? signedOrigin(setup, captures, request, decision.item)
				: unsignedOrigin(setup, request, decision.item);
		if (origin !== undefined) return broken(`${origin}: ${JSON.stringify(decision.item)}`);
	}
	const models = expected(setup, request, signatureState(setup, captures, request));
	if (!models.some((model) => allowed(decision, model)))
		return broken(
			`not what the documented behaviour allows: expected ${models
				.map((model) => JSON.stringify(model.action === 'start' ? model.item : model))
				.join(' or ')}, got ${JSON.stringify(decision)}`,
		);
	return {
		ok: true,
		outcome: models.length > 1 ? `${outcome} (a signature header no sender wrote)` : outcome,
	};
}
