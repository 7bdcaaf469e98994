/**
 * Property-based model of the trigger's trust boundary: a group per Verification, each over the whole space of
 * its settings (settings.ts), genuine deliveries signed by the sender (sender.ts), mutations of them (mutations.ts)
 * and replays built from several of them (replays.ts), fed to the trigger's pure reading (receiveDelivery, with the
 * settings and secrets the node builds) and judged by the one oracle (oracle.ts, judge.ts): the workflow sees exactly
 * what was signed, read one way, or nothing, and a replay never gets an identity no genuine delivery had. Used by
 * test/unit/deliveryProperties.test.ts (a fixed seed) and by `npm run fuzz` (test/property/campaign.ts).
 */
import fc from 'fast-check';

import type { Outcome, ReceivedRequest } from '../../nodes/TenantApiTrigger/receive';
import { receiveDelivery } from '../../nodes/TenantApiTrigger/receive';
import {
	credentialSecrets as secretsOfCredential,
	settingsFromParameters,
	signingSecrets,
} from '../../nodes/TenantApiTrigger/settings';
import { signedUrlOf } from '../../nodes/TenantApiTrigger/url';
import { parameterReader } from '../harness/verifier';

import { text } from './bodies';
import type { PropertyGroup, Verdict } from './common';
import { caseProperty, fraction } from './common';
import { judge, judgeReplay } from './judge';
import type { Mutation } from './mutations';
import { applyMutation, mutation, mutationName } from './mutations';
import { credentialSecrets, expected, queryObject, sameOutcome, secretRefused } from './oracle';
import type { ReplayPlan } from './replays';
import { buildReplay, replayPlans } from './replays';
import type { Delivery } from './sender';
import { NOW, bodies, deliver, queries } from './sender';
import type { Setup } from './settings';
import { BASE_URL, VERIFICATIONS, setups } from './settings';

interface Case {
	setup: Setup;
	genuine: Delivery;
}

const REQUEST_PATH = '/webhook/5b0c7e1a/webhook';

/**
 * The trigger's reading of a request under a set-up, as the node wires it: the secrets the URL accepts, every secret
 * of the credential (none without verification, which selects no credential), the signed URL.
 */
export function receive(setup: Setup, delivery: Delivery): Outcome {
	const read = parameterReader(setup.parameters);
	const [accepted, all] =
		setup.verification === 'none'
			? [[], []]
			: [signingSecrets(setup.credential, setup.testUrl), secretsOfCredential(setup.credential)];
	const settings = settingsFromParameters(setup.verification, read, accepted, all);
	const request: ReceivedRequest = {
		rawBody: delivery.body,
		headers: delivery.headers,
		query: queryObject(delivery.query),
		url: signedUrlOf(BASE_URL, setup.parameters.signedUrl, REQUEST_PATH + delivery.query),
		nowSeconds: NOW,
	};
	return receiveDelivery(settings, request);
}

/** Message ids (built once: fast-check compiles a pattern each time one is made). */
const messageId = fc.stringMatching(/^msg_[a-z0-9]{1,8}$/);

const cases = (verification: Setup['verification']): fc.Arbitrary<Case> =>
	setups(verification).chain((setup) =>
		fc
			.record({ body: bodies(setup), query: queries, id: messageId })
			.map(({ body, query, id }) => ({ setup, genuine: deliver(setup, body, query, id) })),
	);

const withDims = (
	verdict: Verdict,
	setup: Setup,
	extra: Array<[string, string]> = [],
): Verdict => ({ ...verdict, dims: [...setup.dims, ...extra] });

/** What the trigger did with a genuine delivery, against the documented rules. */
function genuineVerdict(setup: Setup, delivery: Delivery): Verdict {
	const want = expected(setup, delivery);
	const got = receive(setup, delivery);
	const outcome =
		got.action === 'refuse'
			? `refused ${got.status} ${got.reason}`
			: {
					start: 'started as signed',
					acknowledge: 'acknowledged',
					handshake: 'a handshake answered',
				}[got.action];
	return sameOutcome(want, got)
		? { ok: true, outcome }
		: {
				ok: false,
				outcome,
				why: `genuine: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
			};
}

/** A genuine delivery does exactly what the documented rules say: started with the body as read independently, or refused / acknowledged where they say so. */
function checkGenuine(c: Case): Verdict {
	return withDims(genuineVerdict(c.setup, c.genuine), c.setup);
}

/**
 * A mutated delivery is refused, acknowledged, or read as the genuine one (or within a scheme's documented limit).
 * Mutations that copy a secret take one of the credential's, chosen by `secretAt`.
 */
function checkMutation(c: Case, m: Mutation, secretAt: number): Verdict {
	const genuine = genuineVerdict(c.setup, c.genuine);
	if (!genuine.ok) return withDims(genuine, c.setup);
	const secrets = credentialSecrets(c.setup);
	const sent = applyMutation(
		c.genuine,
		m,
		secrets[Math.floor(secretAt * secrets.length)] ?? 'no-secret',
	);
	return withDims(judge(c.setup, c.genuine, sent, receive(c.setup, sent)), c.setup, [
		['mutation', mutationName(m)],
	]);
}

/** Several genuine deliveries of one set-up and sender (2 or 3, different bodies), and a replay to build from them. */
interface Captures {
	setup: Setup;
	captures: Delivery[];
	plan: ReplayPlan;
}

const bodyKey = (body: Buffer | object) =>
	Buffer.isBuffer(body) ? body.toString('latin1') : JSON.stringify(body);

/** A capture is a delivery its URL accepted: the set-up sent to the URL that takes the secret it signs with. */
function sentWhereAccepted(setup: Setup): Setup {
	if (secretRefused(setup) === undefined) return setup;
	const testUrl = !setup.testUrl;
	return {
		...setup,
		testUrl,
		dims: setup.dims.map(([dimension, value]): [string, string] => [
			dimension,
			dimension === 'url' ? (testUrl ? 'test' : 'production') : value,
		]),
	};
}

const captured = (verification: Setup['verification']): fc.Arbitrary<Captures> =>
	setups(verification)
		.map(sentWhereAccepted)
		.chain((setup) =>
			fc
				.uniqueArray(fc.record({ body: bodies(setup), query: queries, id: messageId }), {
					minLength: 2,
					maxLength: 3,
					selector: ({ body }) => bodyKey(body),
				})
				.map((list) => list.map(({ body, query, id }) => deliver(setup, body, query, id)))
				.chain((captures) =>
					replayPlans(setup, captures).map((plan) => ({ setup, captures, plan })),
				),
		);

/** The identity property: each capture does what the rules say, and the replay built from them never gets an identity none of them had. */
function checkReplay(c: Captures): Verdict {
	for (const capture of c.captures) {
		const genuine = genuineVerdict(c.setup, capture);
		if (!genuine.ok) return withDims(genuine, c.setup);
	}
	const replay = buildReplay(c.setup, c.captures, c.plan, credentialSecrets(c.setup));
	return withDims(
		judgeReplay(c.setup, c.captures, replay, receive(replay.setup, replay.request)),
		c.setup,
		[
			['replay', c.plan.kind],
			['replay variant', replay.label],
		],
	);
}

/** Any request at all: the trigger answers without throwing, with a well-formed outcome. */
const anyRequest = fc.record({
	body: fc.oneof(
		fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
		text.map((t) => Buffer.from(t)),
	),
	headers: fc.dictionary(
		fc.constantFrom(
			'content-type',
			'x-signature',
			'stripe-signature',
			'webhook-id',
			'webhook-timestamp',
			'webhook-signature',
			'x-twilio-signature',
			'x-slack-signature',
			'x-slack-request-timestamp',
			'paddle-signature',
			'hmacsignature',
			'x-square-hmacsha256-signature',
			'x-webhook-secret',
			'x-timestamp',
			'x-custom-signature',
		),
		fc.oneof(
			text,
			fc.array(text, { maxLength: 2 }),
			fc.constantFrom('t=1700000000,v1=00', 'v1,AAAA', 'sha256=00', 'a'.repeat(3000)),
		),
	),
	query: fc.oneof(
		fc.constant(''),
		text.map((t) => `?${t}`),
	),
});

function checkNeverThrows(setup: Setup, request: Delivery): Verdict {
	try {
		const got = receive(setup, request);
		const wellFormed =
			got.action === 'start'
				? got.items.length > 0 && got.items.every((item) => typeof item === 'object')
				: got.action === 'refuse'
					? [400, 401, 413, 415].includes(got.status)
					: true;
		const verb = {
			refuse: 'refused',
			start: 'started',
			acknowledge: 'acknowledged',
			handshake: 'answered as a handshake',
		}[got.action];
		return withDims(
			wellFormed
				? { ok: true, outcome: `arbitrary request ${verb}` }
				: { ok: false, outcome: got.action, why: 'malformed outcome' },
			setup,
		);
	} catch (error) {
		return withDims(
			{ ok: false, outcome: 'threw', why: (error as Error).stack ?? String(error) },
			setup,
		);
	}
}

/** A group per Verification: mutations of genuine deliveries, genuine ones, replays of them, arbitrary requests, over all its settings. */
export function deliveryGroups(): PropertyGroup[] {
	return VERIFICATIONS.map((verification) => {
		const generated = cases(verification);
		return {
			key: verification,
			label: verification,
			properties: [
				caseProperty(
					'mutated deliveries',
					0.6,
					fc.tuple(generated, mutation, fraction),
					([c, m, secretAt]: [Case, Mutation, number]) => checkMutation(c, m, secretAt),
				),
				caseProperty('genuine deliveries', 0.15, generated, checkGenuine),
				caseProperty('replayed deliveries', 0.15, captured(verification), checkReplay),
				caseProperty(
					'arbitrary requests',
					0.1,
					fc.tuple(setups(verification), anyRequest),
					([setup, request]: [Setup, Delivery]) => checkNeverThrows(setup, request),
				),
			],
		};
	});
}
