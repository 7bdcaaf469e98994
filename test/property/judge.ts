/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Judging what the trigger did with a request that is not a sender's own: a mutation of a genuine delivery, or a
 * replay built from captured ones (replays.ts). Both must keep the rule of oracle.ts, and every item started must be
 * one a sender signed: **a request in any shape never gets an identity that no genuine delivery had** (its
 * `webhookDelivery.id` and content are a genuine unit's), except where docs/trigger.md "Limits of each scheme" says
 * a scheme cannot protect something. No secret of the credential ever reaches the output.
 */
import { isDeepStrictEqual } from 'util';

import type { IDataObject } from 'n8n-workflow';

import type { Outcome } from '../../nodes/TenantApiTrigger/receive';
import { ADYEN_SIGNED_FIELDS, fieldText } from '../../sandbox/signing';

import { oneItemEach, signsItems } from './batches';
import type { Verdict } from './common';
import type { Expected, Unit } from './oracle';
import {
	credentialSecrets,
	expected,
	expectedUnits,
	holdsSecret,
	openBoundaries,
	sameOutcome,
	signatureFixedId,
} from './oracle';
import type { Replay } from './replays';
import type { Delivery } from './sender';
import type { Setup } from './settings';

const withoutUnsigned = (json: IDataObject) => {
	const delivery = { ...(json.webhookDelivery as IDataObject) };
	delete delivery.unsignedHeaders;
	delete delivery.unsignedQuery;
	return { ...json, webhookDelivery: delivery };
};

const idOf = (json: IDataObject) => (json.webhookDelivery as IDataObject).id;

/**
 * The units the sender signed in the genuine deliveries: the identities a replay may have. A signed item's is what a
 * delivery of that item alone gives, whatever its neighbours in the batch (one that cannot be read refuses the batch,
 * not the others alone).
 */
function genuineUnits(setup: Setup, genuine: Delivery[]): Unit[] {
	const unitsOf = (delivery: Delivery): Unit[] => {
		const units = expectedUnits(setup, delivery);
		return Array.isArray(units) ? units : [];
	};
	return genuine.flatMap((delivery) => {
		const units = unitsOf(delivery);
		return units.length > 0 || !signsItems(setup)
			? units
			: oneItemEach(setup, delivery).flatMap(unitsOf);
	});
}

/** Adyen's one entry, with only its item, beside which the body holds only `live`. */
function adyenEntry(json: IDataObject): IDataObject | undefined {
	const entries = json.notificationItems;
	const shaped =
		Object.keys(json).every((k) => ['live', 'notificationItems', 'webhookDelivery'].includes(k)) &&
		Array.isArray(entries) &&
		entries.length === 1;
	const entry = shaped ? (entries[0] as IDataObject) : undefined;
	return entry !== undefined && Object.keys(entry).join() === 'NotificationRequestItem'
		? (entry.NotificationRequestItem as IDataObject)
		: undefined;
}

const adyenSigned = (item: IDataObject | undefined) =>
	ADYEN_SIGNED_FIELDS.map((path) => fieldText(item, path));

/**
 * Where a started item comes from: a genuine unit exactly, or a documented limit of the scheme, each keeping the
 * genuine unit's id; undefined when it has an identity no genuine delivery had.
 */
function origin(
	setup: Setup,
	genuine: Delivery[],
	units: Unit[],
	item: IDataObject,
): string | undefined {
	if (units.some((unit) => isDeepStrictEqual(withoutUnsigned(item), withoutUnsigned(unit.json))))
		return 'as a genuine delivery started it';
	if (setup.verification === 'none' || setup.verification === 'secretHeader')
		return 'unsigned (nothing is signed), read one way';
	// The signed text fixes the id, even of a genuine delivery refused as it was cut (a reserved field name) and read as re-cut.
	if (
		genuine.some(
			(delivery) =>
				openBoundaries(setup, delivery) && signatureFixedId(setup, delivery) === idOf(item),
		)
	) {
		return "with the genuine delivery's id: form fields signed by Twilio's rule, re-cut (where the query, names and values meet, and field order, are not signed)";
	}
	const entry = adyenEntry(item);
	if (setup.verification === 'adyenPayments' && entry !== undefined) {
		const signed = adyenSigned(entry);
		const same = units.some(
			(unit) =>
				unit.id === idOf(item) && isDeepStrictEqual(adyenSigned(adyenEntry(unit.json)), signed),
		);
		if (same)
			return "with a genuine item's id and signed fields, other unsigned fields (only the eight listed fields are signed)";
	}
	return undefined;
}

/** Every started item comes from a genuine unit (see origin); the verdict names the class. */
function fromGenuine(
	setup: Setup,
	genuine: Delivery[],
	items: IDataObject[],
	label: string,
): Verdict {
	const units = genuineUnits(setup, genuine);
	const classes = items.map((item) => origin(setup, genuine, units, item));
	const fresh = classes.findIndex((c) => c === undefined);
	if (fresh !== -1)
		return {
			ok: false,
			outcome: `${label}started`,
			why: `item ${fresh} has an identity no genuine delivery had: ${JSON.stringify(items[fresh])}`,
		};
	return { ok: true, outcome: `${label}started, ${[...new Set(classes)].join('; ')}` };
}

const described = (outcome: Expected | Outcome) => JSON.stringify(outcome);

/**
 * A mutated request kept the rule when it was refused, acknowledged or answered as a handshake, or started the workflow with what the rules
 * give for it (the unsigned request data as this request carried it), every item a genuine unit or within a scheme's
 * documented limit.
 */
export function judge(setup: Setup, genuine: Delivery, sent: Delivery, got: Outcome): Verdict {
	if (got.action === 'refuse') return { ok: true, outcome: `refused ${got.status} ${got.reason}` };
	if (got.action === 'acknowledge') return { ok: true, outcome: 'acknowledged' };
	if (got.action === 'handshake')
		return { ok: true, outcome: `a handshake answered (${got.handshake})` };
	if (holdsSecret(credentialSecrets(setup), got.items))
		return { ok: false, outcome: 'started', why: 'a secret reached the output' };
	if (!sameOutcome(expected(setup, sent), got)) {
		const units = genuineUnits(setup, [genuine]);
		const asSigned = got.items.every((item) =>
			units.some((unit) => isDeepStrictEqual(withoutUnsigned(item), withoutUnsigned(unit.json))),
		);
		return {
			ok: false,
			outcome: 'started',
			why: asSigned
				? 'the unsigned request data is not as sent'
				: 'the workflow would see something that was not signed, or not read one way',
		};
	}
	return fromGenuine(setup, [genuine], got.items, '');
}

/**
 * The identity property: a replay does what the rules say for it (it is made of what a sender signed, so they decide
 * exactly), and every item it starts has the id and content of a unit of the genuine deliveries (`captureSetup`'s),
 * or it is refused, acknowledged or answered as a handshake. No secret reaches the output.
 */
export function judgeReplay(
	captureSetup: Setup,
	genuine: Delivery[],
	replay: Replay,
	got: Outcome,
): Verdict {
	const label = `${replay.label}: `;
	if (got.action === 'start' && holdsSecret(credentialSecrets(replay.setup), got.items))
		return { ok: false, outcome: `${label}started`, why: 'a secret reached the output' };
	const want = expected(replay.setup, replay.request);
	if (!sameOutcome(want, got))
		return {
			ok: false,
			outcome: `${label}${got.action}`,
			why: `expected ${described(want)}, got ${described(got)}`,
		};
	if (got.action === 'refuse') return { ok: true, outcome: `${label}refused ${got.reason}` };
	if (got.action === 'acknowledge') return { ok: true, outcome: `${label}acknowledged` };
	if (got.action === 'handshake') return { ok: true, outcome: `${label}a handshake answered` };
	return fromGenuine(captureSetup, genuine, got.items, label);
}
