/**
 * A body read before its items' signatures are checked (verifier/firstItem.ts, body.ts parseBody with the signed
 * item fields): numbers are exact where checking the first item reads (its signature and signed fields), and
 * everywhere once completeReading ran, exactly as a whole exact reading makes them.
 */
import fc from 'fast-check';

import { completeReading, parseBody } from '../../nodes/TenantApiTrigger/verifier/body';
import { signedItemFields } from '../../nodes/TenantApiTrigger/verifier/firstItem';
import { numbersAllExact } from '../../nodes/TenantApiTrigger/verifier/json';
import { itemsAtPath, valueAtPath } from '../../nodes/TenantApiTrigger/verifier/paths';
import { jsonText, jsonValue, key, numberToken } from '../property/bodies';

const ITEMS_PATH = 'notificationItems.*.NotificationRequestItem';
const FIELDS = ['additionalData.hmacSignature', 'pspReference', 'amount.value', 'amount.currency'];
const fields = signedItemFields(ITEMS_PATH, FIELDS);

function read(text: string) {
	const parsed = parseBody('json', Buffer.from(text), fields);
	if (!parsed.ok) throw new Error(parsed.reason);
	return parsed.body;
}

function whole(text: string) {
	const parsed = parseBody('json', Buffer.from(text));
	if (!parsed.ok) throw new Error(parsed.reason);
	return parsed.body.object;
}

const firstItem = (object: unknown) => (itemsAtPath(object, ITEMS_PATH, ['live']) ?? [])[0];

it('before the check: the first item signed fields exact; the rest as JSON.parse reads it, until completeReading', () => {
	const text = JSON.stringify({
		live: 'LIVE',
		notificationItems: [
			{
				NotificationRequestItem: {
					pspReference: 'PSP',
					amount: { value: 'V1', currency: 'EUR' },
					additionalData: { hmacSignature: 'SIG', other: 'O1' },
				},
			},
			{ NotificationRequestItem: { pspReference: 'PSP2', amount: { value: 'V2' } } },
		],
	})
		.replace('"LIVE"', '1e400')
		.replace('"V1"', '12345678901234567891')
		.replace('"SIG"', '1e16')
		.replace('"O1"', '1e400')
		.replace('"V2"', '9007199254740993');
	const body = read(text);
	const object = body.object as Record<string, unknown>;
	const item = firstItem(object) as Record<string, Record<string, unknown>>;
	expect(item.amount.value).toBe('12345678901234567891');
	expect(item.additionalData.hmacSignature).toBe('1e16');
	expect(item.additionalData.other).toBe(Infinity);
	expect(object.live).toBe(Infinity);
	completeReading(body, Buffer.from(text));
	expect(object).toEqual(whole(text));
	expect(item.additionalData.other).toBe('1e400');
});

it.each([
	[
		'the list of items repeated: JSON.parse keeps the last',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400}}}],"notificationItems":[{"NotificationRequestItem":{"amount":{"value":2e400}}}]}',
		'2e400',
	],
	[
		'an item repeated in its wrapper',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400}},"NotificationRequestItem":{"amount":{"value":3e400}}}]}',
		'3e400',
	],
	[
		'a signed field repeated',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400,"value":1}}}]}',
		1,
	],
	[
		'a repeated object on the way, then a later item',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400},"amount":{"value":4e400}}},{"NotificationRequestItem":{"amount":{"value":5e400}}}]}',
		'4e400',
	],
	[
		'the list repeated with a value that is no list',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400}}}],"notificationItems":7}',
		undefined,
	],
	[
		'an escaped key on the way',
		'{"notification\\u0049tems":[{"NotificationRequestItem":{"amount":{"\\u0076alue":1e400}}}]}',
		'1e400',
	],
])(
	'repeated keys: the item checked first is the one JSON.parse keeps (%s)',
	(_, text, expected) => {
		const item = firstItem(read(text).object);
		expect(item === undefined ? undefined : valueAtPath(item, 'amount.value')).toEqual(expected);
		expect(item === undefined ? undefined : valueAtPath(item, 'amount.value')).toEqual(
			valueAtPath(firstItem(whole(text)), 'amount.value'),
		);
	},
);

it.each([
	[
		'numbers in the signed fields alone',
		'{"live":"x","notificationItems":[{"NotificationRequestItem":{"pspReference":1e16,"amount":{"value":12345678901234567891,"currency":0.1}}}]}',
		true,
	],
	[
		'short whole numbers elsewhere (exact as read)',
		'{"live":123,"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400},"eventCode":-42}}]}',
		true,
	],
	[
		'no number in the signed fields: nothing read with paths',
		'{"live":"x","notificationItems":[{"NotificationRequestItem":{"pspReference":"P"}}]}',
		false,
	],
	[
		'short numbers only, in several items: none can change',
		'{"live":1,"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1250}}},{"NotificationRequestItem":{"amount":{"value":7}}}]}',
		true,
	],
	[
		'another number beside the items',
		'{"live":1.5,"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400}}}]}',
		false,
	],
	[
		'another number in the item, unsigned',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1},"eventCode":1e400}}]}',
		false,
	],
	[
		'a container on no path (skipped)',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400},"other":["x"]}}]}',
		false,
	],
	[
		'a later item (skipped)',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400}}},{"NotificationRequestItem":{}}]}',
		false,
	],
	[
		'an item dropped for a repeated key',
		'{"notificationItems":[{"NotificationRequestItem":{"amount":{"value":1e400}},"NotificationRequestItem":{"amount":{"value":2e400}}}]}',
		false,
	],
])(
	'read with paths, every number exact at once when the first item held all that could change: %s',
	(_, text, complete) => {
		const body = read(text);
		expect(numbersAllExact(body.object)).toBe(complete);
		if (complete) expect(body.object).toEqual(whole(text));
		completeReading(body, Buffer.from(text));
		expect(body.object).toEqual(whole(text));
	},
);

it.each([
	['the first list empty', '{"a":[{"b":[]},{"b":[{"v":1e400}]}]}'],
	[
		'the first entry empty, then two',
		'{"a":[{"b":[]},{"b":[{"v":12345678901234567891},{"v":1e400}]}]}',
	],
	['the first item found first', '{"a":[{"b":[{"v":1e16}]},{"b":[{"v":1e400}]}]}'],
])('items under two lists: the first one itemsAtPath lists is read exactly (%s)', (_, text) => {
	const nested = signedItemFields('a.*.b.*', ['v']);
	const parsed = parseBody('json', Buffer.from(text), nested);
	if (!parsed.ok) throw new Error(parsed.reason);
	const first = (object: unknown) => valueAtPath((itemsAtPath(object, 'a.*.b.*') ?? [])[0], 'v');
	expect(first(parsed.body.object)).toEqual(first(whole(text)));
});

it('generated items: the first item fields (but containers) as a whole exact reading; everything after completeReading', () => {
	const field = fc.oneof(
		numberToken,
		jsonValue.map((value) => jsonText(value)),
	);
	const item = fc.record({
		hmacSignature: field,
		pspReference: field,
		value: field,
		currency: field,
		other: field,
		extra: key,
	});
	const body = fc.record({
		items: fc.array(item, { minLength: 1, maxLength: 3 }),
		live: field,
		repeatFirst: fc.boolean(),
	});
	fc.assert(
		fc.property(body, ({ items, live, repeatFirst }) => {
			const itemText = (i: (typeof items)[number]) =>
				`{"NotificationRequestItem":{"pspReference":${i.pspReference},"amount":{"value":${i.value},"currency":${i.currency}},"additionalData":{"hmacSignature":${i.hmacSignature},${JSON.stringify(i.extra)}:${i.other}}}}`;
			const list = `[${items.map(itemText).join(',')}]`;
			const text = `{"live":${live},"notificationItems":${repeatFirst ? `[${itemText(items[items.length - 1])}],"notificationItems":` : ''}${list}}`;
			const body = read(text);
			const exact = whole(text);
			for (const path of FIELDS) {
				// Checking reads a field's value when it is not a container (one is refused, whatever it holds).
				const expected = valueAtPath(firstItem(exact), path);
				if (expected === null || typeof expected !== 'object')
					expect(valueAtPath(firstItem(body.object), path)).toEqual(expected);
			}
			completeReading(body, Buffer.from(text));
			expect(body.object).toEqual(exact);
		}),
		{ seed: 20261126, numRuns: 2000 },
	);
});

describe('the signed item fields of a setting, kept for the process', () => {
	it('are made once per setting and shared by every request (and execution) with it, at most 64 settings kept', () => {
		expect(signedItemFields(ITEMS_PATH, [...FIELDS])).toBe(fields);
		expect(signedItemFields(ITEMS_PATH, FIELDS.slice(1))).not.toBe(fields);
		for (let i = 0; i < 64; i++) signedItemFields(`items${i}.*`, ['id']);
		expect(signedItemFields(ITEMS_PATH, FIELDS)).not.toBe(fields);
	});
});
