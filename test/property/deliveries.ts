/**
 * The property-based model of the trigger's trust boundary: a group per row of VERIFICATIONS over all of its settings
 * (settings.ts): genuine deliveries (sender.ts, bodies.ts), an attacker's edits (mutations.ts), replays built from
 * several captures (replays.ts) and any request, each received as the node wires the trigger (trigger.ts) and judged
 * (judge.ts). Run by test/unit/deliveryProperties.test.ts (a fixed seed) and `npm run fuzz` (campaign.ts).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';

import { bodies, text } from './bodies';
import type { PropertyGroup, Verdict } from './common';
import { caseProperty } from './common';
import { settingDims } from './coverage';
import { judge } from './judge';
import type { Mutation } from './mutations';
import { applyMutation, mutationName, mutations } from './mutations';
import { credentialSecrets, expected, received } from './oracle';
import type { ReplayPlan } from './replays';
import { buildReplay, replayPlans } from './replays';
import type { Delivery, Genuine } from './sender';
import { NOW, choices, deliver } from './sender';
import type { Setup } from './settings';
import { VERIFICATIONS, setups } from './settings';
import { spellingParts } from './transport';
import { trigger } from './trigger';

interface Case {
	setup: Setup;
	genuine: Genuine;
}

const cases = (verification: VerificationName): fc.Arbitrary<Case> =>
	setups(verification).chain((setup) =>
		choices(setup.format, bodies(setup.format), setup.sender).map((c) => ({
			setup,
			genuine: deliver(setup, c),
		})),
	);

/** The case's dims: the set-up's settings (from its parameters, and as generated), how the request travelled. */
function dimsOf(
	setup: Setup,
	request: Delivery,
	extra: Array<[string, string]> = [],
): Array<[string, string]> {
	return [
		...settingDims(setup),
		...setup.dims.map(([d, v]): [string, string] => [`${setup.verification}: ${d}`, v]),
		['transport', request.transport],
		...extra,
	];
}

/** A request built from captures, judged. */
function judged(
	setup: Setup,
	captures: Genuine[],
	request: Delivery,
	extra: Array<[string, string]>,
): Verdict {
	const seen = received(request);
	const verdict = judge(setup, captures, seen, trigger(setup, seen));
	return { ...verdict, dims: dimsOf(setup, request, extra) };
}

/** A genuine delivery does exactly what the documented behaviour says (a faulty sender's is refused). */
function checkGenuine({ setup, genuine }: Case): Verdict {
	const verdict = judged(setup, [genuine], genuine.request, [['sender fault', genuine.fault]]);
	return { ...verdict, outcome: `genuine: ${verdict.outcome}` };
}

/**
 * The secrets an edit put where the output shows them when started (Include Headers, Include Query Parameters): the
 * place and each part of the spelling, as dims.
 */
function secretsShown(setup: Setup, edits: Mutation[]): Array<[string, string]> {
	const { includeHeaders, includeQuery } = (setup.parameters.options ?? {}) as IDataObject;
	return edits.flatMap((m): Array<[string, string]> => {
		if (m.kind !== 'secret') return [];
		const shown = m.place.startsWith('query') ? includeQuery : includeHeaders;
		if (shown !== true || setup.verification === 'none') return [];
		return [
			['secret sent where the item shows it', `place: ${m.place}`],
			...spellingParts(m.spelling).map((part): [string, string] => [
				'secret sent where the item shows it',
				part,
			]),
		];
	});
}

/** An attacker's edits (one or two) of a captured delivery, judged against the capture. */
function checkMutation({ setup, genuine }: Case, edits: Mutation[]): Verdict {
	const secrets = credentialSecrets(setup);
	const request = edits.reduce((sent, m) => applyMutation(sent, m, secrets), genuine.request);
	const names = edits.map(mutationName);
	const verdict = judged(setup, [genuine], request, [
		['sender fault', genuine.fault],
		...names.map((name): [string, string] => ['mutation', name]),
	]);
	const started = verdict.ok && verdict.outcome.endsWith('started');
	return {
		...verdict,
		outcome: `mutated: ${verdict.outcome}`,
		dims: [...(verdict.dims ?? []), ...(started ? secretsShown(setup, edits) : [])],
	};
}

// ---- replays ----

interface Captures {
	setup: Setup;
	captures: Genuine[];
	plan: ReplayPlan;
}

/**
 * Two or three genuine deliveries of one set-up (different message ids) and a replay plan. Their bodies differ, or
 * now and then they share one body and differ only in what else is signed (a header, the URL, the timestamp).
 */
const captured = (verification: VerificationName): fc.Arbitrary<Captures> =>
	setups(verification).chain((setup) =>
		fc
			.tuple(
				fc.uniqueArray(choices(setup.format, bodies(setup.format), setup.sender), {
					minLength: 2,
					maxLength: 3,
					selector: (c) => c.body.toString('latin1'),
				}),
				fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, fc.constant(true)),
			)
			.map(([list, oneBody]) =>
				list.map((c, i) =>
					deliver(setup, {
						...c,
						...(oneBody ? { body: list[0].body, contentType: list[0].contentType } : {}),
						id: `${c.id}${'_'.repeat(i)}`.slice(-256),
					}),
				),
			)
			.chain((captures) => replayPlans(setup).map((plan) => ({ setup, captures, plan }))),
	);

/** Two started captures with one body: their ids differ exactly when something else signed does. */
const ONE_BODY = ['one body, the same id', 'one body, other ids'] as const;

/**
 * Rule 3 over the captures: each is received as its sender sent it (what the model says), and two of them share an id
 * exactly when their signed id, named fields or signed content but the timestamp are the same. Also says whether two
 * started captures shared one body (and then whether their ids differed).
 */
function sameIdsOnlyForTheSame(
	setup: Setup,
	captures: Genuine[],
): { broken?: Verdict; oneBody?: (typeof ONE_BODY)[number] } {
	const started: Array<{ id: string; key: string; body: string }> = [];
	for (const genuine of captures) {
		const request = received(genuine.request);
		const got = trigger(setup, request);
		const verdict = judge(setup, [genuine], request, got);
		if (!verdict.ok) return { broken: { ...verdict, why: `a capture: ${verdict.why}` } };
		const [model] = expected(setup, request, genuine.fault === 'none' ? 'readable' : 'unreadable');
		if (got.decision.action === 'start' && model.action === 'start')
			started.push({
				id: String((got.decision.item.webhookDelivery as { id: unknown }).id),
				key: model.identity.key,
				body: (genuine.request.body as Buffer).toString('latin1'),
			});
	}
	let oneBody: (typeof ONE_BODY)[number] | undefined;
	for (const a of started)
		for (const b of started) {
			if (a === b) continue;
			if ((a.id === b.id) !== (a.key === b.key))
				return {
					broken: {
						ok: false,
						outcome: 'captures',
						why: `rule 3: ids ${a.id} and ${b.id} for deliveries ${a.key === b.key ? 'that are the same' : 'that differ'}`,
					},
				};
			if (a.body === b.body && oneBody !== ONE_BODY[1]) oneBody = ONE_BODY[a.id === b.id ? 0 : 1];
		}
	return { oneBody };
}

function checkReplay(c: Captures): Verdict {
	const { broken, oneBody } = sameIdsOnlyForTheSame(c.setup, c.captures);
	if (broken !== undefined) return { ...broken, dims: dimsOf(c.setup, c.captures[0].request) };
	const replay = buildReplay(c.setup, c.captures, c.plan, credentialSecrets(c.setup));
	const verdict = judged(c.setup, c.captures, replay.request, [
		['replay', c.plan.kind],
		['replay variant', replay.label],
		...(oneBody === undefined
			? []
			: [[`${c.setup.verification}: captures`, oneBody] as [string, string]]),
	]);
	return { ...verdict, outcome: `${c.plan.kind}: ${verdict.outcome}` };
}

// ---- any request ----

const ANY_HEADERS =
	`content-type x-signature x-timestamp webhook-id webhook-timestamp webhook-signature
	svix-signature x-webhook-secret x-alias-first x-tenant authorization`.split(/\s+/);

const anyRequest: fc.Arbitrary<Delivery> = fc.record({
	body: fc.oneof(
		fc.uint8Array({ maxLength: 64 }).map((a): Buffer | undefined => Buffer.from(a)),
		text.map((t): Buffer | undefined => Buffer.from(t)),
		fc.constant(undefined),
	),
	lines: fc.array(
		fc.tuple(
			fc.oneof(fc.constantFrom(...ANY_HEADERS), fc.stringMatching(/^[a-zA-Z-]{1,12}$/)),
			fc.oneof(
				text,
				fc.constantFrom(
					't=1700000000,v1=00',
					'v1,AAAA',
					'sha256=00',
					'1700000000',
					'a'.repeat(3000),
				),
			),
		),
		{ maxLength: 6 },
	),
	query: fc.oneof(
		fc.constant(''),
		text.map((t) => `?${encodeURIComponent(t.replace(/[\ud800-\udfff]/g, ''))}`),
	),
	transport: fc.constantFrom('node' as const, 'direct' as const),
	testUrl: fc.boolean(),
	receivedAt: fc.constantFrom(NOW, NOW + 301),
});

/** Any request at all: an answer (never a throw) the model allows, with no secret in it. */
function checkAnyRequest(setup: Setup, request: Delivery): Verdict {
	const verdict = judged(setup, [], request, []);
	return { ...verdict, outcome: `any request: ${verdict.outcome}` };
}

/** A group per row of VERIFICATIONS: its genuine deliveries, edits of them, replays of them, and any request. */
export function deliveryGroups(): PropertyGroup[] {
	return VERIFICATIONS.map((verification) => {
		const generated = cases(verification);
		return {
			key: verification,
			label: verification,
			properties: [
				caseProperty(
					'mutated deliveries',
					0.45,
					fc.tuple(generated, mutations),
					([c, edits]: [Case, Mutation[]]) => checkMutation(c, edits),
				),
				caseProperty('genuine deliveries', 0.2, generated, checkGenuine),
				caseProperty('replayed deliveries', 0.25, captured(verification), checkReplay),
				caseProperty(
					'arbitrary requests',
					0.1,
					fc.tuple(setups(verification), anyRequest),
					([setup, request]: [Setup, Delivery]) => checkAnyRequest(setup, request),
				),
			],
		};
	});
}
