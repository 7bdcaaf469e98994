/**
 * Mutations of a genuine delivery: bytes; the Content-Type; JSON values changed, retyped, wrapped, dropped, added,
 * renamed, moved, shadowed by look-alike `a.b` keys, re-serialized, at every level (top, nested, inside signed items,
 * numbers swapped for ones JavaScript cannot hold); signed items repeated, reordered, unsigned or retyped; form
 * fields re-encoded, reordered, repeated, split differently or nameless; headers dropped, replaced, repeated, added
 * (some carrying a secret), timestamps shifted; query parameters added (named like body fields, or carrying a
 * secret), dropped, or bytes moved between the query and the body.
 */
import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';

import {
	cloneJson,
	jsonText,
	jsonValue,
	losslessObject,
	setOwn,
	text,
	whatwgPairs,
} from './bodies';
import { fraction } from './common';
import type { Delivery } from './sender';
import { withParameter } from './sender';

type JsonOp =
	| 'set'
	| 'retype'
	| 'wrap'
	| 'literalTwin'
	| 'literalTwinKeepSigned'
	| 'reserialize'
	| 'dropKey'
	| 'addKey'
	| 'renameKey'
	| 'moveKey'
	| 'addTopLevel'
	| 'bigNumber'
	| ItemOp;
/** Edits of signed items: their list, and their fields. */
type ItemOp = 'duplicateItem' | 'reverseItems' | 'unsignedItem' | 'retypeLeaf';
type FormOp = 'reencode' | 'reorder' | 'duplicatePair' | 'emptyName' | 'moveBoundary';

export type Mutation =
	| { kind: 'bytes'; edits: Array<{ op: 'flip' | 'insert' | 'delete'; at: number; byte: number }> }
	| { kind: 'splice'; at: number; length: number; text: string }
	| { kind: 'contentType'; value: string }
	| { kind: 'json'; op: JsonOp; at: number; at2: number; value: unknown; name: string }
	| { kind: 'form'; op: FormOp; at: number; text: string }
	| {
			kind: 'header';
			op: 'drop' | 'replace' | 'repeat' | 'shiftTimestamp' | 'add' | 'addSecret';
			at: number;
			text: string;
			shift: number;
	  }
	| {
			kind: 'query';
			op: 'add' | 'addSecret' | 'drop' | 'toBody' | 'fromBody';
			at: number;
			text: string;
	  };

const FORM_TYPE = 'application/x-www-form-urlencoded';
const CONTENT_TYPES = [
	'application/json',
	FORM_TYPE,
	'text/plain',
	'',
	'multipart/form-data; boundary=x',
	'Application/X-WWW-Form-Urlencoded; charset=utf-8',
	'application/json; charset=latin1',
	'application/vnd.api+json',
];
/** Names that mean something to the trigger, to n8n or to a workflow. */
const NAMES = [
	'event',
	'id',
	'type',
	'event_id',
	'webhookDelivery',
	'webhookQuery',
	'webhookHeaders',
	'unsignedHeaders',
	'payout',
	'live',
	'notificationItems',
	'approved',
	'__proto__',
	'a.b',
	'bodySHA256',
];

const name = fc.oneof(fc.constantFrom(...NAMES), fc.string({ minLength: 1, maxLength: 5 }));
const byteEdits = fc.record({
	kind: fc.constant('bytes' as const),
	edits: fc.array(
		fc.record({
			op: fc.constantFrom('flip' as const, 'insert' as const, 'delete' as const),
			at: fraction,
			byte: fc.integer({ min: 0, max: 255 }),
		}),
		{ minLength: 1, maxLength: 3 },
	),
});
const splice = fc.record({
	kind: fc.constant('splice' as const),
	at: fraction,
	length: fc.integer({ min: 0, max: 8 }),
	text,
});
const contentType = fc.record({
	kind: fc.constant('contentType' as const),
	value: fc.constantFrom(...CONTENT_TYPES),
});
const JSON_OPS: JsonOp[] = [
	'set',
	'retype',
	'wrap',
	'literalTwin',
	'literalTwinKeepSigned',
	'reserialize',
	'dropKey',
	'addKey',
	'renameKey',
	'moveKey',
	'addTopLevel',
	'bigNumber',
];
const ITEM_OPS: ItemOp[] = ['duplicateItem', 'reverseItems', 'unsignedItem', 'retypeLeaf'];
const jsonEdit = fc.record({
	kind: fc.constant('json' as const),
	op: fc.constantFrom<JsonOp>(...JSON_OPS, ...ITEM_OPS),
	at: fraction,
	at2: fraction,
	value: jsonValue,
	name,
});
const formEdit = fc.record({
	kind: fc.constant('form' as const),
	op: fc.constantFrom<FormOp>('reencode', 'reorder', 'duplicatePair', 'emptyName', 'moveBoundary'),
	at: fraction,
	text,
});
const headerEdit = fc.record({
	kind: fc.constant('header' as const),
	op: fc.constantFrom(
		'drop' as const,
		'replace' as const,
		'repeat' as const,
		'shiftTimestamp' as const,
		'add' as const,
		'addSecret' as const,
	),
	at: fraction,
	text,
	shift: fc.integer({ min: -400, max: 400 }),
});
const queryEdit = fc.record({
	kind: fc.constant('query' as const),
	op: fc.constantFrom(
		'add' as const,
		'addSecret' as const,
		'drop' as const,
		'toBody' as const,
		'fromBody' as const,
	),
	at: fraction,
	text,
});

/** Structural edits weigh more than byte edits, most of which only make the body unreadable. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
	{ arbitrary: byteEdits, weight: 2 },
	{ arbitrary: splice, weight: 1 },
	{ arbitrary: contentType, weight: 2 },
	{ arbitrary: jsonEdit, weight: 5 },
	{ arbitrary: formEdit, weight: 2 },
	{ arbitrary: headerEdit, weight: 2 },
	{ arbitrary: queryEdit, weight: 2 },
);

/** Numbers JavaScript cannot hold as they are written. */
const UNHELD_NUMBERS = [
	'9007199254740993',
	'12345678901234567891',
	'1e400',
	'0.10000000000000001',
	'-1e-400',
];

const pick = <T>(list: T[], at: number): T | undefined =>
	list.length === 0 ? undefined : list[Math.floor(at * list.length)];

function editBytes(
	body: Buffer,
	edits: Array<{ op: 'flip' | 'insert' | 'delete'; at: number; byte: number }>,
): Buffer {
	let bytes = Buffer.from(body);
	for (const { op, at, byte } of edits) {
		const i = Math.floor(at * (bytes.length + (op === 'insert' ? 1 : 0)));
		if (op === 'insert')
			bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([byte]), bytes.subarray(i)]);
		else if (bytes.length === 0) continue;
		else if (op === 'delete') bytes = Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]);
		else bytes[i] = bytes[i] ^ (byte || 1);
	}
	return bytes;
}

type Path = Array<string | number>;
type Container = Record<string | number, unknown>;

const isContainer = (value: unknown): value is Container =>
	value !== null && typeof value === 'object' && !(value instanceof LosslessNumber);

/** Every path to a value in a JSON value (containers included), root excluded. */
function paths(value: unknown, prefix: Path = []): Path[] {
	if (!isContainer(value)) return [];
	const entries = Array.isArray(value)
		? value.map((v, i) => [i, v] as const)
		: Object.entries(value);
	return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

function containerAt(root: unknown, path: Path): Container | undefined {
	let current = root;
	for (const k of path) current = isContainer(current) ? current[k] : undefined;
	return isContainer(current) ? current : undefined;
}

/** Every object in a JSON value (the root first). */
const objects = (root: unknown): Container[] =>
	[root, ...paths(root).map((p) => containerAt(root, p))].filter(
		(c): c is Container => c !== undefined && !Array.isArray(c),
	);

function retype(value: unknown): unknown {
	if (value instanceof LosslessNumber) return value.value;
	// A JSON number's grammar (no leading zero): LosslessNumber takes nothing else.
	if (typeof value === 'string')
		return /^-?(0|[1-9]\d*)(\.\d+)?$/.test(value)
			? new LosslessNumber(value)
			: value === 'true'
				? true
				: [value];
	if (typeof value === 'boolean') return String(value);
	if (value === null) return '';
	return [value];
}

/** Lists in the body that hold objects: where signed items live. */
const itemLists = (root: unknown): unknown[][] =>
	[root, ...paths(root).map((p) => containerAt(root, p))].filter(
		(c): c is unknown[] => Array.isArray(c) && c.some(isContainer),
	);

function editItems(root: unknown, op: ItemOp, at: number, value: unknown): boolean {
	const list = pick(itemLists(root), at);
	if (list === undefined) return false;
	const i = Math.floor(at * list.length);
	if (op === 'duplicateItem') list.splice(i, 0, list[i]);
	else if (op === 'reverseItems') list.reverse();
	else if (op === 'unsignedItem')
		list.splice(
			i,
			0,
			cloneJson(jsonText(list[i] ?? {}).replace(/"(hmacSignature|sig)":"[^"]*"/g, '"$1":"AAAA"')),
		);
	else {
		const leaves = paths(list[i]).filter(
			(p) => !isContainer(containerAt(list[i], p.slice(0, -1))?.[p[p.length - 1]]),
		);
		const leaf = pick(leaves, value === null ? 0 : at);
		const parent = leaf && containerAt(list[i], leaf.slice(0, -1));
		if (!leaf || !parent) return false;
		setOwn(parent, leaf[leaf.length - 1], retype(parent[leaf[leaf.length - 1]]));
	}
	return true;
}

/** A structural edit of a JSON body, serialized again (numbers as they were); undefined when it does not apply. */
function editJson(body: Buffer, m: Extract<Mutation, { kind: 'json' }>): Buffer | undefined {
	const { op, at, at2, value, name: key } = m;
	const root = losslessObject(body);
	if (root === undefined) return undefined;
	if (op === 'reserialize') return Buffer.from(jsonText(root, 1 + Math.floor(at * 3)));
	if ((ITEM_OPS as string[]).includes(op))
		return editItems(root, op as ItemOp, at, value) ? Buffer.from(jsonText(root)) : undefined;
	if (op === 'addTopLevel') {
		setOwn(root, key, value);
		return Buffer.from(jsonText(root));
	}
	const target = pick(paths(root), at);
	if (target === undefined) return undefined;
	const parent = containerAt(root, target.slice(0, -1));
	const last = target[target.length - 1];
	if (parent === undefined) return undefined;
	const current = parent[last];
	if (op === 'set') setOwn(parent, last, value);
	else if (op === 'retype') setOwn(parent, last, retype(current));
	else if (op === 'wrap') setOwn(parent, last, [current]);
	else if (op === 'bigNumber')
		setOwn(parent, last, new LosslessNumber(pick(UNHELD_NUMBERS, at2) as string));
	else if (op === 'dropKey' && Array.isArray(parent)) parent.splice(Number(last), 1);
	else if (op === 'dropKey') delete parent[last];
	else if (op === 'addKey' && !Array.isArray(parent)) setOwn(parent, key, value);
	else if (op === 'renameKey' && !Array.isArray(parent)) {
		delete parent[last];
		setOwn(parent, key, current);
	} else if (op === 'moveKey') {
		// Not into itself: the body would hold a cycle.
		const inside = new Set(isContainer(current) ? objects(current) : []);
		const destination = pick(
			objects(root).filter((o) => !inside.has(o)),
			at2,
		);
		if (destination === undefined || destination === parent) return undefined;
		if (Array.isArray(parent)) parent.splice(Number(last), 1);
		else delete parent[last];
		setOwn(destination, typeof last === 'string' ? last : key, current);
	} else if (op === 'literalTwin' || op === 'literalTwinKeepSigned') {
		// `a.b` written as one key beside `a: { b }`, the real value changed (or the literal one), at the top or in between.
		if (target.length < 2) return undefined;
		const split = 1 + Math.floor(at2 * (target.length - 1));
		const holder = containerAt(root, target.slice(0, split - 1));
		if (holder === undefined || Array.isArray(holder)) return undefined;
		const literal = target.slice(split - 1).join('.');
		if (op === 'literalTwin') {
			setOwn(holder, literal, current);
			setOwn(parent, last, value);
		} else {
			setOwn(holder, literal, value);
		}
	} else return undefined;
	return Buffer.from(jsonText(root));
}

/** The body's pairs as WHATWG reads them, edited, and encoded again. */
function editForm(body: Buffer, op: FormOp, at: number, extra: string): Buffer | undefined {
	const pairs = whatwgPairs(body);
	if (pairs.length === 0) return undefined;
	const i = Math.floor(at * pairs.length);
	if (op === 'emptyName')
		return Buffer.concat([body, Buffer.from(`&=${encodeURIComponent(extra)}`)]);
	if (op === 'reencode')
		return Buffer.from(
			pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&'),
		);
	if (op === 'reorder') pairs.reverse();
	else if (op === 'duplicatePair') pairs.splice(i, 0, pairs[i]);
	else {
		const joined = pairs[i][0] + pairs[i][1];
		const split = 1 + Math.floor(at * Math.max(joined.length - 1, 1));
		pairs[i] = [joined.slice(0, split), joined.slice(split)];
	}
	return Buffer.from(new URLSearchParams(pairs).toString());
}

function editHeader(
	headers: Delivery['headers'],
	m: Extract<Mutation, { kind: 'header' }>,
	secret: string,
): Delivery['headers'] {
	const out = { ...headers };
	if (m.op === 'add') return { ...out, [`x-${Math.floor(m.at * 1000)}`]: m.text };
	if (m.op === 'addSecret')
		return {
			...out,
			[pick(['x-webhook-secret', 'x-forwarded-secret', 'x-callback-token'], m.at) as string]:
				`token ${secret}`,
		};
	const name = pick(Object.keys(headers).sort(), m.at);
	if (name === undefined) return headers;
	const current = String(out[name]);
	if (m.op === 'drop') delete out[name];
	else if (m.op === 'replace') out[name] = m.text;
	else if (m.op === 'repeat') out[name] = [current, m.text];
	else out[name] = current.replace(/\d{10}/, (ts) => String(Number(ts) + m.shift));
	return out;
}

function editQuery(
	delivery: Delivery,
	m: Extract<Mutation, { kind: 'query' }>,
	secret: string,
): Delivery {
	const { body, query: q } = delivery;
	if (m.op === 'add')
		return {
			...delivery,
			query: withParameter(
				q,
				encodeURIComponent(pick(NAMES, m.at) ?? 'x'),
				encodeURIComponent(m.text),
			),
		};
	if (m.op === 'addSecret')
		return { ...delivery, query: withParameter(q, 'token', encodeURIComponent(secret)) };
	if (m.op === 'drop')
		return { ...delivery, query: q.includes('&') ? q.slice(0, q.lastIndexOf('&')) : '' };
	// Bytes moved across the join of `{url}{body}` (Square signs the two concatenated).
	const n = 1 + Math.floor(m.at * 4);
	if (m.op === 'toBody')
		return q.length <= 1
			? delivery
			: {
					...delivery,
					query: q.slice(0, -n),
					body: Buffer.concat([Buffer.from(q.slice(-n)), body]),
				};
	const moved = body.subarray(0, n).toString('latin1');
	return { ...delivery, query: (q === '' ? '?' : q) + moved, body: body.subarray(n) };
}

/** The mutated request; `secret` is one of the credential's (copied into headers or the query by some mutations). */
export function applyMutation(delivery: Delivery, m: Mutation, secret: string): Delivery {
	switch (m.kind) {
		case 'bytes':
			return { ...delivery, body: editBytes(delivery.body, m.edits) };
		case 'splice': {
			const i = Math.floor(m.at * (delivery.body.length + 1));
			return {
				...delivery,
				body: Buffer.concat([
					delivery.body.subarray(0, i),
					Buffer.from(m.text),
					delivery.body.subarray(i + m.length),
				]),
			};
		}
		case 'contentType':
			return { ...delivery, headers: { ...delivery.headers, 'content-type': m.value } };
		case 'json':
			return { ...delivery, body: editJson(delivery.body, m) ?? delivery.body };
		case 'form':
			return { ...delivery, body: editForm(delivery.body, m.op, m.at, m.text) ?? delivery.body };
		case 'header':
			return { ...delivery, headers: editHeader(delivery.headers, m, secret) };
		case 'query':
			return editQuery(delivery, m, secret);
	}
}

/** The name of a mutation for the coverage report. */
export function mutationName(m: Mutation): string {
	return 'op' in m ? `${m.kind} ${m.op}` : m.kind;
}
