/**
 * Replays an attacker can build from several captured genuine deliveries of one set-up, without the secret:
 * - plain: the same bytes again, with fresh unsigned id headers and query parameters (and now and then one holding a
 *   secret of the credential), every Verification;
 * - other URL: a production capture sent to the Test URL (with and without a Test URL Signing Secret), and a Test URL
 *   capture sent to the Production URL, every Verification;
 * - merged, split, cut down, reordered: signed items (Adyen payments, Custom HMAC with the signature inside items)
 *   of several captures in one body, one item alone, some of them, in another order;
 * - re-cut: form fields signed without boundaries (Twilio-Style, Custom `{formFields}`): bytes moved between the
 *   query, field names and values, fields split, merged or reordered, the signed text kept.
 * judge.ts holds each to the identity rule.
 */
import fc from 'fast-check';

import { entriesOf, signsItems, withEntries } from './batches';
import { fraction } from './common';
import { openBoundaries, signedPairs, signedText } from './oracle';
import type { Delivery } from './sender';
import { withParameter } from './sender';
import type { Setup } from './settings';

const ITEM_REPLAYS = ['merged', 'split', 'cut down', 'reordered'] as const;
type ItemReplay = (typeof ITEM_REPLAYS)[number];
export const REPLAY_KINDS = ['plain', 'other URL', ...ITEM_REPLAYS, 're-cut'] as const;
type ReplayKind = (typeof REPLAY_KINDS)[number];
type Recut =
	| 'boundary moved'
	| 'field split'
	| 'fields merged'
	| 'query into a field'
	| 'field into the query'
	| 'fields reordered';

/** A replay built from captured deliveries, as an attacker holding them can send it. */
export interface Replay {
	/** The set-up it is received under: the captures', or the same at the other URL. */
	setup: Setup;
	request: Delivery;
	/** Its kind and variant, for the coverage report. */
	label: string;
}

/** How to build one replay from any captures: positions, so that it applies whatever they hold. */
export interface ReplayPlan {
	kind: ReplayKind;
	recut: Recut;
	at: [number, number, number];
	/** Adds a header and a query parameter holding a secret of the credential (plain replays). */
	withSecret: boolean;
}

/** Id headers no set-up signs: a replay may set them to anything (docs: Delivery identity, 5). */
const UNSIGNED_ID_HEADERS = [
	'x-github-delivery',
	'x-shopify-webhook-id',
	'i-twilio-idempotency-token',
	'x-request-id',
];

const pick = <T>(list: T[], at: number): T => list[Math.floor(at * list.length)];
const signs = (setup: Setup, placeholder: string) =>
	setup.sender.kind === 'custom' &&
	setup.sender.spec.template.some((p) => 'placeholder' in p && p.placeholder === placeholder);
/** Whether the signature covers the URL, query string included (Square, Twilio, Custom `{url}`). */
const signsUrl = (setup: Setup) =>
	setup.verification === 'twilio' || setup.verification === 'square' || signs(setup, 'url');

/** The replays that apply to captures of a set-up (re-cuts where the signature leaves their field boundaries open). */
function replayKinds(setup: Setup, captures: Delivery[]): ReplayKind[] {
	const open = captures.some((capture) => openBoundaries(setup, capture));
	return REPLAY_KINDS.filter((kind) =>
		kind === 're-cut'
			? open
			: (ITEM_REPLAYS as readonly string[]).includes(kind)
				? signsItems(setup)
				: true,
	);
}

/** The replays of a shape only some schemes allow weigh twice those every Verification gets. */
const kindOf = (kinds: ReplayKind[]) =>
	fc.oneof(
		...kinds.map((kind) => ({
			arbitrary: fc.constant(kind),
			weight: kind === 'plain' || kind === 'other URL' ? 1 : 2,
		})),
	);

export const replayPlans = (setup: Setup, captures: Delivery[]): fc.Arbitrary<ReplayPlan> =>
	fc.record({
		kind: kindOf(replayKinds(setup, captures)),
		recut: fc.constantFrom(...RECUTS),
		at: fc.tuple(fraction, fraction, fraction),
		withSecret: fc.boolean(),
	});

// ---- plain, other URL ----

function plain(setup: Setup, capture: Delivery, plan: ReplayPlan, secrets: string[]): Replay {
	const secret = secrets.length > 0 && plan.withSecret ? pick(secrets, plan.at[2]) : undefined;
	// An unsigned id header: a fresh one, or the id header of a Custom template that does not sign {id}.
	const idHeaders = [
		...UNSIGNED_ID_HEADERS,
		...(setup.sender.kind === 'custom' && !signs(setup, 'id') ? [setup.sender.spec.idHeader] : []),
	];
	const headers = {
		...capture.headers,
		[pick(idHeaders, plan.at[1])]: `evt_fresh_${Math.floor(plan.at[0] * 1000)}`,
		...(secret === undefined ? {} : { 'x-forwarded-note': `token ${secret}` }),
	};
	let query = capture.query;
	if (!signsUrl(setup)) {
		query = withParameter(withParameter(query, 'id', 'evt_fresh'), 'event', 'payout.approved');
		if (secret !== undefined) query = withParameter(query, 'token', encodeURIComponent(secret));
	}
	return {
		setup,
		request: { body: capture.body, headers, query },
		label: `plain${secret === undefined ? '' : ', a secret in a header and the query'}`,
	};
}

function otherUrl(setup: Setup, capture: Delivery): Replay {
	const testSecret =
		setup.verification === 'none'
			? 'no credential'
			: setup.credential.testSigningSecret.trim() !== ''
				? 'test secret set'
				: 'no test secret';
	const label = setup.testUrl
		? `a Test URL capture at the Production URL (${testSecret})`
		: `a production capture at the Test URL (${testSecret})`;
	return { setup: { ...setup, testUrl: !setup.testUrl }, request: capture, label };
}

// ---- signed items ----

const rotated = <T>(list: T[], by: number) => [...list.slice(by), ...list.slice(0, by)];

function itemReplay(
	setup: Setup,
	captures: Delivery[],
	kind: ItemReplay,
	at: ReplayPlan['at'],
): Replay {
	const lists = captures.map((capture) => entriesOf(setup, capture));
	if (kind === 'merged') {
		const all = lists.flat();
		const merged = rotated(all, Math.floor(at[0] * all.length));
		// Now and then one item twice: two items naming the same event.
		const twice = at[1] < 0.25;
		if (twice) merged.push(pick(all, at[2]));
		return {
			setup,
			request: withEntries(setup, captures[0], merged),
			label: `merged${twice ? ', an item twice' : ''}`,
		};
	}
	// A batch of several items where there is one.
	const batches = captures
		.map((capture, i) => ({ capture, entries: lists[i] }))
		.filter(({ entries }) => entries.length > 1);
	const { capture, entries } =
		batches.length > 0 ? pick(batches, at[0]) : { capture: captures[0], entries: lists[0] };
	const n = entries.length;
	if (kind === 'split')
		return {
			setup,
			request: withEntries(setup, capture, [pick(entries, at[1])]),
			label: `split: one of ${n} item(s)`,
		};
	if (kind === 'reordered') {
		const reordered =
			at[2] < 0.5 ? [...entries].reverse() : rotated(entries, 1 + Math.floor(at[1] * (n - 1)));
		return {
			setup,
			request: withEntries(setup, capture, reordered),
			label: `reordered: ${n} item(s)`,
		};
	}
	// Cut down: a subset of the items, in order, neither none nor all (all where there is one).
	const mask = n < 2 ? 1 : 1 + Math.floor(at[1] * (2 ** n - 2));
	return {
		setup,
		request: withEntries(
			setup,
			capture,
			entries.filter((_, i) => (mask >> i) & 1),
		),
		label: `cut down: ${n} item(s)`,
	};
}

// ---- re-cuts ----

/** Characters that can move from a field name into a query string as they are (no escape changes them). */
const URL_SAFE = /^[A-Za-z0-9\-._~!$'()*+,;=:@/]*$/;

type Fields = { pairs: Array<[string, string]>; query: string };
/** A capture's fields in signed order, its query, the field a re-cut starts at, and positions. */
type RecutInput = Fields & { i: number; at: ReplayPlan['at'] };

const spliced = (
	{ pairs, i }: RecutInput,
	count: number,
	...replacement: Array<[string, string]>
) => [...pairs.slice(0, i), ...replacement, ...pairs.slice(i + count)];

/** Each re-cut: the fields and query it makes (undefined where it does not apply), before the check that the signed text is kept. */
const RECUT_OF: Record<Recut, (input: RecutInput) => Fields | undefined> = {
	'boundary moved': (input) => {
		const joined = input.pairs[input.i].join('');
		const cut = 1 + Math.floor(input.at[1] * Math.max(joined.length - 1, 1));
		return {
			pairs: spliced(input, 1, [joined.slice(0, cut), joined.slice(cut)]),
			query: input.query,
		};
	},
	'field split': (input) => {
		const [name, value] = input.pairs[input.i];
		const start = Math.floor(input.at[1] * value.length);
		const end = start + 1 + Math.floor(input.at[2] * (value.length - start - 1));
		return value.length === 0
			? undefined
			: {
					pairs: spliced(
						input,
						1,
						[name, value.slice(0, start)],
						[value.slice(start, end), value.slice(end)],
					),
					query: input.query,
				};
	},
	'fields merged': (input) => {
		const [[name, value], next] = [input.pairs[input.i], input.pairs[input.i + 1]];
		return next === undefined
			? undefined
			: { pairs: spliced(input, 2, [name, value + next[0] + next[1]]), query: input.query };
	},
	'query into a field': ({ pairs: [[first, value], ...rest], query, at }) => {
		const moved = query.slice(-(1 + Math.floor(at[1] * Math.min(4, query.length - 1))));
		return query.length < 2
			? undefined
			: { pairs: [[moved + first, value], ...rest], query: query.slice(0, -moved.length) };
	},
	'field into the query': ({ pairs: [[first, value], ...rest], query, at }) => {
		const moved = first.slice(0, 1 + Math.floor(at[1] * Math.min(4, first.length - 1)));
		return query === '' || first.length < 2 || !URL_SAFE.test(moved)
			? undefined
			: { pairs: [[first.slice(moved.length), value], ...rest], query: query + moved };
	},
	'fields reordered': ({ pairs, query, at }) => ({
		pairs: rotated(pairs, 1 + Math.floor(at[1] * Math.max(pairs.length - 1, 1))),
		query,
	}),
};

const RECUTS = Object.keys(RECUT_OF) as Recut[];

/** A re-cut's fields and query; a new name cut from a value keeps its place in the sorted order most often after the last field. */
function recutParts(capture: Delivery, op: Recut, at: ReplayPlan['at']): Fields | undefined {
	const pairs = signedPairs(capture.body);
	if (pairs.length === 0) return undefined;
	return RECUT_OF[op]({
		pairs,
		query: capture.query,
		i: op === 'field split' ? pairs.length - 1 : Math.floor(at[0] * pairs.length),
		at,
	});
}

/** Fields the trigger reads one way: every one named, no pair repeated. */
const readable = (pairs: Array<[string, string]>) =>
	pairs.every(([name]) => name !== '') &&
	new Set(pairs.map((p) => JSON.stringify(p))).size === pairs.length;

/** The capture re-cut by `op` (else by the next re-cut that applies), the signed text kept; the capture itself when none applies. */
function recut(setup: Setup, capture: Delivery, plan: ReplayPlan): Replay {
	const original = signedText(setup, capture);
	const start = RECUTS.indexOf(plan.recut);
	for (const op of [...RECUTS.slice(start), ...RECUTS.slice(0, start)]) {
		const parts = recutParts(capture, op, plan.at);
		if (parts === undefined || !readable(parts.pairs)) continue;
		const request = {
			...capture,
			body: Buffer.from(new URLSearchParams(parts.pairs).toString()),
			query: parts.query,
		};
		const changed = !request.body.equals(capture.body) || request.query !== capture.query;
		if (changed && signedText(setup, request).equals(original))
			return { setup, request, label: `re-cut: ${op}` };
	}
	return { setup, request: capture, label: 're-cut: none applies, sent as captured' };
}

/** The replay a plan builds from the captures; `secrets` are the credential's (a plain replay may carry one). */
export function buildReplay(
	setup: Setup,
	captures: Delivery[],
	plan: ReplayPlan,
	secrets: string[],
): Replay {
	const capture = pick(captures, plan.at[0]);
	if (plan.kind === 'plain') return plain(setup, capture, plan, secrets);
	if (plan.kind === 'other URL') return otherUrl(setup, capture);
	if (plan.kind === 're-cut') return recut(setup, capture, plan);
	return itemReplay(setup, captures, plan.kind, plan.at);
}
