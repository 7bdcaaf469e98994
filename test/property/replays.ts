/**
 * Requests an attacker builds from captured genuine deliveries of one set-up, without the secret (REPLAY_KINDS):
 * moved in time or to the other URL; with another capture's signature, signed part or body; the signed text re-split
 * into the template's parts every other way it splits; with an unsigned id or a secret beside it. judge.ts holds
 * each to the model and the rules.
 */
import fc from 'fast-check';

import { entryAt, fraction } from './common';
import { urlBase } from './oracle';
import type { Delivery, Genuine } from './sender';
import { NOW } from './sender';
import type { HmacSender, Setup } from './settings';
import type { Part } from './templates';
import { parseTemplate } from './templates';
import type { HeaderLines } from './transport';
import { sendable } from './transport';

export interface ReplayPlan {
	kind: ReplayKind;
	at: [number, number, number];
}

interface Replay {
	request: Delivery;
	label: string;
}

/** Replays that need a signature to work on weigh more under HMAC schemes. */
export const replayPlans = (setup: Setup): fc.Arbitrary<ReplayPlan> =>
	fc.record({
		kind: fc.oneof(
			...REPLAY_KINDS.map((kind) => ({
				arbitrary: fc.constant(kind),
				weight: kind === 'bytes moved between signed parts' && setup.sender.kind === 'hmac' ? 4 : 1,
			})),
		),
		at: fc.tuple(fraction, fraction, fraction),
	});

const replaceLine = (lines: HeaderLines, name: string, value: string): HeaderLines =>
	lines.map(([n, v]) => [n, n.toLowerCase() === name ? value : v]);

const lineValue = (lines: HeaderLines, name: string) =>
	lines.find(([n]) => n.toLowerCase() === name)?.[1];

/** A request as the attacker can send it: through n8n's server when HTTP can carry its lines, else directly. */
function deliverable(request: Delivery): Delivery {
	const padded = request.lines.some(([, value]) => value !== value.replace(/^[ \t]+|[ \t]+$/g, ''));
	return request.lines.every(sendable) && !padded ? request : { ...request, transport: 'direct' };
}

// ---- time ----

/** Arrival times around the window's edges, relative to the signed timestamp (or the sending time). */
function later(setup: Setup, genuine: Genuine, at: number, sign: number): Replay {
	const sentAt = Number(genuine.signed?.values.timestamp ?? NOW);
	const tolerance = Math.floor(setup.meaning.tolerance);
	const deltas: Array<[number, string]> = [
		[tolerance, 'at the edge of the window'],
		[tolerance + 1, 'just past the window'],
		[1, 'a second later'],
		[3600, 'an hour later'],
		[400 * 86_400, 'a year later'],
	];
	const [delta, label] = entryAt(deltas, at);
	return {
		request: { ...genuine.request, receivedAt: Math.max(0, sentAt + sign * delta) },
		label: `${label}${sign < 0 ? ' (earlier)' : ''}`,
	};
}

// ---- several captures ----

function signatureHeaderName(setup: Setup, request: Delivery): string | undefined {
	return setup.meaning.signatureHeaders.find(
		(name) => lineValue(request.lines, name) !== undefined,
	);
}

function theirSignature(setup: Setup, mine: Genuine, theirs: Genuine): Replay {
	const name = signatureHeaderName(setup, mine.request);
	const value = name === undefined ? undefined : lineValue(theirs.request.lines, name);
	if (name === undefined || value === undefined)
		return { request: mine.request, label: 'no signature header to swap' };
	return {
		request: { ...mine.request, lines: replaceLine(mine.request.lines, name, value) },
		label: "another delivery's signature",
	};
}

function twoSignatures(setup: Setup, mine: Genuine, theirs: Genuine): Replay {
	const { sender } = setup;
	const name = signatureHeaderName(setup, mine.request);
	if (sender.kind !== 'hmac' || name === undefined)
		return { request: mine.request, label: 'no signature header' };
	const [a, b] = [lineValue(mine.request.lines, name), lineValue(theirs.request.lines, name)];
	const joiner =
		sender.format === 'keyValue'
			? sender.pairSeparator
			: sender.format === 'versioned'
				? ' '
				: ', ';
	return {
		request: { ...mine.request, lines: replaceLine(mine.request.lines, name, `${b}${joiner}${a}`) },
		label: 'both signatures in one header',
	};
}

/** The header each signed part travels in (the timestamp in the signature header for key=value signatures). */
function partHeaders(sender: HmacSender): Array<[string, string]> {
	const signed = sender.template.find((piece) => 'header' in piece);
	return [
		...(sender.format === 'keyValue'
			? []
			: ([['timestamp', sender.timestampHeader]] as Array<[string, string]>)),
		['id', sender.idHeader],
		...(signed !== undefined && 'header' in signed
			? ([['header', signed.header]] as Array<[string, string]>)
			: []),
	];
}

function theirPart(setup: Setup, mine: Genuine, theirs: Genuine, at: number): Replay {
	const { sender } = setup;
	if (sender.kind !== 'hmac')
		return { request: mine.request, label: 'nothing signed apart from the body' };
	const present = partHeaders(sender).filter(
		([, name]) => lineValue(theirs.request.lines, name) !== undefined,
	);
	if (present.length === 0)
		return { request: mine.request, label: 'no signed part apart from the body' };
	const [part, name] = entryAt(present, at);
	const value = lineValue(theirs.request.lines, name) as string;
	const lines: HeaderLines =
		lineValue(mine.request.lines, name) === undefined
			? [...mine.request.lines, [name, value]]
			: replaceLine(mine.request.lines, name, value);
	return { request: { ...mine.request, lines }, label: `another delivery's ${part}` };
}

// ---- bytes moved between signed parts ----

type Split = Partial<Record<'body' | 'timestamp' | 'id' | 'url' | 'header', string>>;

const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** Every way (up to a bound) the signed text splits into the template's parts: each part's bytes, as Latin-1 text. */
function splits(parts: Part[], signed: string): Split[] {
	const found: Split[] = [];
	let steps = 0;
	const walk = (i: number, position: number, values: Split) => {
		steps += 1;
		if (found.length >= 48 || steps > 20_000) return;
		if (i === parts.length) {
			if (position === signed.length) found.push(values);
			return;
		}
		const part = parts[i];
		if (part.kind === 'literal') {
			const literal = latin1(part.text);
			if (signed.startsWith(literal, position)) walk(i + 1, position + literal.length, values);
			return;
		}
		const next = parts[i + 1];
		const last = i === parts.length - 1;
		for (
			let end = last ? signed.length : position;
			end <= Math.min(signed.length, position + 400);
			end += 1
		) {
			if (next?.kind === 'literal' && !signed.startsWith(latin1(next.text), end)) continue;
			const value = signed.slice(position, end);
			const before = values[part.kind];
			if (before === undefined || before === value)
				walk(i + 1, end, { ...values, [part.kind]: value });
		}
	};
	walk(0, 0, {});
	return found;
}

/** A part's bytes as the text a header carries, or undefined when they are not UTF-8. */
function asText(bytes: string | undefined): string | undefined {
	if (bytes === undefined) return undefined;
	const buffer = Buffer.from(bytes, 'latin1');
	const decoded = buffer.toString('utf8');
	return Buffer.from(decoded, 'utf8').equals(buffer) ? decoded : undefined;
}

/** Whether a split could pass the checks of its parts (the attacker tries those first): unix seconds, no blank id. */
const plausible = (split: Split) =>
	(split.timestamp === undefined || /^\d{1,12}$/.test(split.timestamp)) &&
	split.id !== '' &&
	split.header !== '';

/** The request a split makes of a capture: the body, headers and query carrying its parts; undefined when none can. */
function splitRequest(
	setup: Setup,
	sender: HmacSender,
	genuine: Genuine,
	split: Split,
): Delivery | undefined {
	const { request } = genuine;
	let lines = request.lines;
	let query = request.query;
	const signature = signatureHeaderName(setup, request);
	for (const [part, name] of [
		['timestamp', sender.timestampHeader],
		['id', sender.idHeader],
		...partHeaders(sender).filter(([p]) => p === 'header'),
	] as Array<[keyof Split, string]>) {
		if (split[part] === undefined) continue;
		const value = asText(split[part]);
		if (value === undefined || /[\r\n\0]/.test(value)) return undefined;
		if (part === 'timestamp' && sender.format === 'keyValue' && signature !== undefined) {
			const header = lineValue(lines, signature) as string;
			const old = genuine.signed?.values.timestamp ?? '';
			lines = replaceLine(
				lines,
				signature,
				header.replace(`${sender.timestampKey}=${old}`, `${sender.timestampKey}=${value}`),
			);
		} else lines = replaceLine(lines, name, value);
	}
	if (split.url !== undefined) {
		const base = urlBase(setup, request.testUrl);
		const rest = split.url.slice(base.length);
		// The query of a request target: visible ASCII, no fragment.
		if (!split.url.startsWith(base) || !/^(\?[\x21-\x22\x24-\x7e]*)?$/.test(rest)) return undefined;
		query = rest;
	}
	return deliverable({ ...request, lines, query, body: Buffer.from(split.body ?? '', 'latin1') });
}

function moved(setup: Setup, genuine: Genuine, at: number): Replay {
	const { sender } = setup;
	const parts = parseTemplate(setup.meaning.template);
	if (sender.kind !== 'hmac' || genuine.signed === undefined || parts === undefined)
		return { request: genuine.request, label: 'no signed parts: sent as captured' };
	const original = genuine.signed.values;
	const others = splits(parts, genuine.signed.text.toString('latin1')).filter(
		(split) =>
			split.body !== original.body.toString('latin1') ||
			(['timestamp', 'id', 'url', 'header'] as const).some(
				(p) => split[p] !== undefined && asText(split[p]) !== original[p],
			),
	);
	const ordered = [...others.filter(plausible), ...others.filter((split) => !plausible(split))];
	const start = Math.floor(at * Math.max(1, ordered.filter(plausible).length || ordered.length));
	for (const split of [...ordered.slice(start), ...ordered.slice(0, start)]) {
		const request = splitRequest(setup, sender, genuine, split);
		if (request === undefined) continue;
		const changed = (['timestamp', 'id', 'url', 'header'] as const).filter(
			(p) => split[p] !== undefined && asText(split[p]) !== original[p],
		);
		return { request, label: `bytes moved between the body and ${changed.join(', ') || 'itself'}` };
	}
	return { request: genuine.request, label: 'no other split: sent as captured' };
}

// ---- unsigned additions ----

function freshId(setup: Setup, genuine: Genuine, at: number): Replay {
	const { sender } = setup;
	const signsId = setup.meaning.template.toLowerCase().replace(/\s/g, '').includes('{id}');
	const names = [
		'x-request-id',
		'idempotency-key',
		...(sender.kind === 'hmac' && !signsId ? [sender.idHeader] : []),
		...(signsId ? [] : setup.meaning.idHeaders),
	];
	const name = entryAt(names, at);
	const lines: HeaderLines = [
		...genuine.request.lines.filter(([n]) => n.toLowerCase() !== name),
		[name, `evt_fresh_${Math.floor(at * 1000)}`],
	];
	return { request: deliverable({ ...genuine.request, lines }), label: `a fresh ${name}` };
}

function withSecret(genuine: Genuine, secrets: string[]): Replay {
	if (secrets.length === 0) return { request: genuine.request, label: 'no secret to add' };
	const { request } = genuine;
	// Every secret of the credential, each in values of its own (those this URL does not accept too).
	// Unencoded in the query, as a careless sender writes it: n8n's parser reads a `+` in it as a space.
	const query = secrets.map((secret, i) => `sig${i}=${secret.toLowerCase()}`).join('&');
	return {
		request: deliverable({
			...request,
			lines: [
				...request.lines,
				...secrets.flatMap(
					(secret, i): HeaderLines => [
						[`x-debug-secret-${i}`, secret.toUpperCase()],
						// A proxy's copy of a URL that held it, encoded again on the way.
						[`x-original-url-${i}`, `/hook?sig=${encodeURIComponent(encodeURIComponent(secret))}`],
					],
				),
			],
			query: `${request.query === '' ? '?' : `${request.query}&`}${query}`,
		}),
		label: 'the secrets in headers and the query',
	};
}

interface Parts {
	setup: Setup;
	mine: Genuine;
	theirs: Genuine;
	secrets: string[];
	at: [number, number, number];
}

/** Each kind of replay: whether it keeps what was signed (deliveryProperties.test.ts: it must start a workflow now
 * and then), and how it is built from a capture (`mine`) and another (`theirs`). */
const REPLAYS = {
	'as captured': [true, ({ mine }) => ({ request: mine.request, label: 'as captured' })],
	'at the other URL': [
		true,
		({ mine }) => ({
			request: { ...mine.request, testUrl: !mine.request.testUrl },
			label: `a ${mine.request.testUrl ? 'Test URL capture in production' : 'production capture at the Test URL'}`,
		}),
	],
	'later or earlier': [
		true,
		({ setup, mine, at }) => later(setup, mine, at[1], at[2] < 0.8 ? 1 : -1),
	],
	"another delivery's signature": [
		false,
		({ setup, mine, theirs }) => theirSignature(setup, mine, theirs),
	],
	"another delivery's signed part": [
		false,
		({ setup, mine, theirs, at }) => theirPart(setup, mine, theirs, at[1]),
	],
	"another delivery's body": [
		false,
		({ mine, theirs }) => ({
			request: { ...mine.request, body: theirs.request.body },
			label: "another delivery's body",
		}),
	],
	'two signatures': [false, ({ setup, mine, theirs }) => twoSignatures(setup, mine, theirs)],
	'bytes moved between signed parts': [false, ({ setup, mine, at }) => moved(setup, mine, at[1])],
	'a fresh unsigned id': [true, ({ setup, mine, at }) => freshId(setup, mine, at[1])],
	'a secret beside it': [true, ({ mine, secrets }) => withSecret(mine, secrets)],
} satisfies Record<string, [keeps: boolean, build: (parts: Parts) => Replay]>;

type ReplayKind = keyof typeof REPLAYS;
const REPLAY_KINDS = Object.keys(REPLAYS) as ReplayKind[];
export const KEEPING_KINDS = REPLAY_KINDS.filter((kind) => REPLAYS[kind][0]);

/** The replay a plan builds from the captures; `secrets` are the credential's. */
export function buildReplay(
	setup: Setup,
	captures: Genuine[],
	plan: ReplayPlan,
	secrets: string[],
): Replay {
	const mine = entryAt(captures, plan.at[0]);
	const theirs = captures[(captures.indexOf(mine) + 1) % captures.length];
	return REPLAYS[plan.kind][1]({ setup, mine, theirs, secrets, at: plan.at });
}
