/**
 * What the workflow sees is exactly what was signed, read one way, or nothing, for the settings a first property
 * campaign never generated. Through the built trigger behind a real HTTP server and n8n-core's WebhookContext
 * (test/harness/webhook.ts). Each case is a forged, replayed or colliding delivery that reached a workflow before.
 */
import { createHash, createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { PRESETS } from '../../nodes/TenantApiTrigger/verifier';
import { demoSecret, sign, signAdyenPayments } from '../../sandbox/signing';
import type { WebhookCall } from '../harness/webhook';
import {
	WEBHOOK_ID,
	deliveryOf,
	startedItems,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const PUBLIC_URL = `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const INVALID = 'Invalid signature';
const SECRET = 'whsec_integrity';

const rig = useTriggerServer({ credential: webhookCredential(SECRET) });

const { refused } = rig;
const started = (call: WebhookCall): IDataObject => call.result!.workflowData![0][0].json;
const hmacDelivery = (body: string) => ({
	'content-type': 'application/json',
	...sign({ secret: SECRET, body }),
});

describe('Custom HMAC with the signature inside each item', () => {
	const KEY = demoSecret('adyen-payments');
	const parameters = {
		verification: 'customHmac',
		customSecretEncoding: 'hex',
		customSignedContent: PRESETS.adyenPayments.signedContent,
		customSignatureIn: 'items',
		customSignatureEncoding: 'base64',
	};
	const item = (over: IDataObject = {}) => ({
		pspReference: 'PSP1',
		originalReference: '',
		merchantAccountCode: 'Acct',
		merchantReference: 'order-1',
		amount: { value: 1999, currency: 'EUR' },
		eventCode: 'AUTHORISATION',
		success: 'true',
		eventDate: '2026-11-24T10:00:00+01:00',
		...over,
	});
	const signedBody = (...items: IDataObject[]) =>
		signAdyenPayments(
			{ notificationItems: items.map((i) => ({ NotificationRequestItem: i })) },
			KEY,
		);
	const post = (body: unknown) =>
		rig.server.post(JSON.stringify(body), { 'content-type': 'application/json' });
	const useCustom = (extra: IDataObject = {}) =>
		rig.server.configure({
			credential: webhookCredential(KEY),
			parameters: { ...parameters, ...extra },
		});

	it('a genuine delivery starts the workflow with the signed fields only, as the text that was signed', async () => {
		await useCustom();
		const { status, call } = await post(signedBody(item()));
		expect(status).toBe(200);
		const json = started(call);
		expect(json.notificationItems).toEqual([
			{
				NotificationRequestItem: {
					pspReference: 'PSP1',
					originalReference: '',
					merchantAccountCode: 'Acct',
					merchantReference: 'order-1',
					amount: { value: '1999', currency: 'EUR' },
					eventCode: 'AUTHORISATION',
					success: 'true',
				},
			},
		]);
		expect(Object.keys(json)).toEqual(['notificationItems', 'webhookDelivery']);
	});

	it('unsigned top-level data beside a genuine item (a new event, id and payout) is refused, also past an Events filter', async () => {
		await useCustom({ events: 'payout.approved' });
		const forged = {
			...signedBody(item()),
			event: 'payout.approved',
			id: 'evt_new',
			payout: { amount: 99999999, iban: 'DE89370400440532013000' },
		};
		await refused(post(forged), 401, INVALID, 'unexpected_field');
	});

	it('a colon moved from one signed field into the next is refused', async () => {
		await useCustom();
		const withColon = signedBody(item({ merchantAccountCode: 'Acct', merchantReference: 'ref:1' }));
		const [entry] = withColon.notificationItems;
		await refused(post(withColon), 401, INVALID, 'invalid_item_field');
		const moved = {
			...entry.NotificationRequestItem,
			merchantAccountCode: 'Acct:ref',
			merchantReference: '1',
		};
		await refused(
			post({ notificationItems: [{ NotificationRequestItem: moved }] }),
			401,
			INVALID,
			'invalid_item_field',
		);
	});

	it('a signed field sent as another JSON type is read the same way: "1999" and 1999, "true" and true', async () => {
		await useCustom();
		const [entry] = signedBody(item()).notificationItems;
		const retyped = {
			...entry.NotificationRequestItem,
			amount: { value: '1999', currency: 'EUR' },
			success: true,
		};
		const genuine = await post(signedBody(item()));
		const other = await post({ notificationItems: [{ NotificationRequestItem: retyped }] });
		expect([genuine.status, other.status]).toEqual([200, 200]);
		expect(started(other.call)).toEqual(started(genuine.call));
	});
});

describe('signed items: one output item per signed item, each with the identity it has alone', () => {
	const KEY = demoSecret('adyen-payments');
	const item = (pspReference: string, eventCode = 'AUTHORISATION') => ({
		pspReference,
		originalReference: '',
		merchantAccountCode: 'Acct',
		merchantReference: `order-${pspReference}`,
		amount: { value: 1999, currency: 'EUR' },
		eventCode,
		success: 'true',
		reason: 'unsigned text',
	});
	/** Entries signed one by one, as Adyen signs them: any of them can be cut out of a delivery and put into another. */
	const [A, B, C] = signAdyenPayments(
		{
			notificationItems: [item('PSPA'), item('PSPB', 'REFUND'), item('PSPC', 'CAPTURE')].map(
				(i) => ({ NotificationRequestItem: i }),
			),
		},
		KEY,
	).notificationItems;
	/** Adyen's body has `live` beside the items; a Custom HMAC sender's holds the items alone. */
	let withLive = true;
	const body = (...entries: IDataObject[]) => ({
		...(withLive ? { live: 'false' } : {}),
		notificationItems: entries,
	});
	const customItems = {
		verification: 'customHmac',
		customSecretEncoding: 'hex',
		customSignedContent: PRESETS.adyenPayments.signedContent,
		customSignatureIn: 'items',
		customSignatureEncoding: 'base64',
	};
	const itemsOf = async (entries: IDataObject[]) => {
		const { status, call } = await rig.server.post(JSON.stringify(body(...entries)), {
			'content-type': 'application/json',
		});
		expect(status).toBe(200);
		return startedItems(call);
	};

	it.each([
		['Adyen (Payments Webhooks)', { verification: 'adyenPayments' }],
		['Custom HMAC, signature inside items', customItems],
	])(
		'%s: merged, reordered, cut down or split, every item arrives as it does alone, with its own id',
		async (_name, parameters) => {
			await rig.server.configure({ credential: webhookCredential(KEY), parameters });
			withLive = parameters.verification === 'adyenPayments';
			const alone = new Map<unknown, IDataObject>();
			for (const entry of [A, B, C]) {
				const [single] = await itemsOf([entry]);
				alone.set((single.webhookDelivery as IDataObject).id, single);
			}
			expect(alone.size).toBe(3);
			for (const replay of [[A, B], [B, A], [C, A, B], [B]]) {
				const got = await itemsOf(replay);
				expect(got).toHaveLength(replay.length);
				for (const json of got)
					expect(json).toEqual(alone.get((json.webhookDelivery as IDataObject).id));
			}
		},
	);

	it('an item keeps its id and the shape of a delivery of its own: Event Path and Delivery ID Fields read index 0', async () => {
		const parameters = {
			verification: 'adyenPayments',
			events: 'REFUND',
			options: {
				eventPath: 'notificationItems.0.NotificationRequestItem.eventCode',
				idFields: 'notificationItems.0.NotificationRequestItem.pspReference',
			},
		};
		await rig.server.configure({ credential: webhookCredential(KEY), parameters });
		withLive = true;
		const [refund] = await itemsOf([A, B, C]);
		expect(refund).toEqual({
			live: 'false',
			notificationItems: [B],
			webhookDelivery: expect.objectContaining({
				id: 'PSPB',
				idSource: 'body:notificationItems.0.NotificationRequestItem.pspReference',
			}),
		});
	});
});

describe('Secret in Header: the shared secret never reaches the output', () => {
	it.each(['x-callback-token, x-webhook-secret', 'x-webhook-secret,', ' X-Webhook-Secret ', ''])(
		'header setting "%s"',
		async (sharedKeyHeader) => {
			await rig.server.configure({
				credential: webhookCredential(SECRET),
				parameters: {
					verification: 'secretHeader',
					sharedKeyHeader,
					options: { includeHeaders: true, includeQuery: true },
				},
			});
			const { status, call } = await rig.server.post(
				'{"id":"evt_1"}',
				{ 'x-webhook-secret': SECRET, 'x-request-id': 'r1' },
				`?copy=${SECRET}`,
			);
			expect(status).toBe(200);
			expect(JSON.stringify(started(call))).not.toContain(SECRET);
			expect(deliveryOf(call).unsignedHeaders).toMatchObject({ 'x-request-id': 'r1' });
		},
	);
});

describe('request data no signature covers', () => {
	it('never replaces a signed body field: it sits under webhookDelivery, named unsigned', async () => {
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: { options: { includeQuery: true, includeHeaders: true } },
		});
		const body = JSON.stringify({
			id: 'evt_1',
			webhookQuery: { approved: 'false' },
			webhookHeaders: { role: 'user' },
		});
		const { status, call } = await rig.server.post(
			body,
			{ ...hmacDelivery(body), role: 'admin' },
			'?approved=true',
		);
		expect(status).toBe(200);
		const json = started(call);
		expect(json.webhookQuery).toEqual({ approved: 'false' });
		expect(json.webhookHeaders).toEqual({ role: 'user' });
		expect(deliveryOf(call)).toMatchObject({
			unsignedQuery: { approved: 'true' },
			unsignedHeaders: expect.objectContaining({ role: 'admin' }),
		});
	});
});

describe('exact identities and numbers', () => {
	beforeEach(() => rig.server.configure({ credential: webhookCredential(SECRET), parameters: {} }));
	const idOf = async (body: string) => {
		const { status, call } = await rig.server.post(body, hmacDelivery(body));
		expect(status).toBe(200);
		return deliveryOf(call).id;
	};

	it('ids beyond 2^53 stay different, and signed numbers arrive as signed', async () => {
		expect(await idOf('{"id":9007199254740993}')).toBe('9007199254740993');
		expect(await idOf('{"id":9007199254740992}')).toBe('9007199254740992');
		const body = '{"id":"evt_1","amount":12345678901234567891,"rate":1e400,"small":0.1,"count":42}';
		const { call } = await rig.server.post(body, hmacDelivery(body));
		expect(started(call)).toMatchObject({
			amount: '12345678901234567891',
			rate: '1e400',
			small: 0.1,
			count: 42,
		});
	});

	it('ids of several fields split one way only', async () => {
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: { options: { idFields: 'customer, order' } },
		});
		const first = await idOf('{"customer":"acme:42","order":"7"}');
		const second = await idOf('{"customer":"acme","order":"42:7"}');
		expect(first).not.toBe(second);
		expect(await idOf('{"customer":"acme","order":7}')).toBe('acme:7');
	});

	it('an id is the exact signed text: " evt_1" is not "evt_1"', async () => {
		expect(await idOf('{"id":" evt_1"}')).toBe(' evt_1');
	});
});

describe("Twilio-Style form: fields re-cut under the same signature keep the original's id", () => {
	const TOKEN = demoSecret('twilio');
	const sid = (prefix: string, digit: string) => `${prefix}${digit.repeat(32)}`;
	const [ACCOUNT, CHILD, PARENT, REAL, FAKE] = [
		sid('AC', 'a'),
		sid('CA', 'c'),
		sid('CA', 'p'),
		sid('SM', '1'),
		sid('SM', '2'),
	];
	const signedFor = (body: string) => ({
		...FORM,
		...sign({
			secret: TOKEN,
			scheme: 'twilio',
			body,
			url: PUBLIC_URL,
			contentType: FORM['content-type'],
		}),
	});
	const form = (fields: Array<[string, string]>) => new URLSearchParams(fields).toString();
	/** A child call's status callback, and the same signed text re-cut so that CallSid holds the parent call's SID. */
	const childCall = form([
		['AccountSid', ACCOUNT],
		['ApiVersion', '2010-04-01'],
		['CallSid', CHILD],
		['CallStatus', 'completed'],
		['ParentCallSid', PARENT],
	]);
	const childCallRecut = form([
		['AccountSid', ACCOUNT],
		['ApiVersion', `2010-04-01CallSid${CHILD}CallStatuscompletedParent`],
		['CallSid', PARENT],
	]);
	/** An SMS whose Body holds a SID-shaped text, re-cut so that MessageSid is that text. */
	const sms = form([
		['AccountSid', ACCOUNT],
		['Body', `hi MessageSid${FAKE}Mz`],
		['MessageSid', REAL],
	]);
	const smsRecut = form([
		['AccountSid', ACCOUNT],
		['Body', 'hi '],
		['MessageSid', FAKE],
		['Mz', `MessageSid${REAL}`],
	]);

	it.each([
		['a child call re-cut to name its parent', childCall, childCallRecut],
		['an SMS re-cut to take a SID from its Body', sms, smsRecut],
	])('%s: both verify, and both get the id of the signed text', async (_name, genuine, recut) => {
		await rig.server.configure({
			credential: webhookCredential(TOKEN),
			parameters: { verification: 'twilio' },
		});
		const headers = signedFor(genuine);
		const first = await rig.server.post(genuine, headers);
		const replay = await rig.server.post(recut, headers);
		expect([first.status, replay.status]).toEqual([200, 200]);
		expect(deliveryOf(first.call)).toMatchObject({
			id: expect.stringMatching(/^[0-9a-f]{64}$/),
			idSource: 'signedText:sha256',
		});
		expect(deliveryOf(replay.call).id).toBe(deliveryOf(first.call).id);
	});

	it('Delivery ID Fields cannot name such a delivery: refused, genuine or re-cut', async () => {
		await rig.server.configure({
			credential: webhookCredential(TOKEN),
			parameters: { verification: 'twilio', options: { idFields: 'CallSid' } },
		});
		const headers = signedFor(childCall);
		await refused(rig.server.post(childCall, headers), 401, INVALID, 'unprotected_id');
		await refused(rig.server.post(childCallRecut, headers), 401, INVALID, 'unprotected_id');
	});
});

describe('the Test URL secret', () => {
	const TEST = 'whsec_test_url';
	const body = '{"id":"evt_1"}';
	const signedWith = (secret: string) => ({
		'content-type': 'application/json',
		...sign({ secret, body }),
	});

	it('is accepted for deliveries to the Test URL, never to the Production URL', async () => {
		await rig.server.configure({
			credential: webhookCredential(SECRET, '', TEST),
			parameters: {},
			mode: 'manual',
		});
		const test = await rig.server.post(body, signedWith(TEST));
		expect([test.status, deliveryOf(test.call).secret]).toEqual([200, 'test']);
		await rig.server.configure({
			credential: webhookCredential(SECRET, '', TEST),
			parameters: {},
			mode: 'webhook',
		});
		await refused(rig.server.post(body, signedWith(TEST)), 401, INVALID, 'signature_mismatch');
		const production = await rig.server.post(body, signedWith(SECRET));
		expect([production.status, deliveryOf(production.call).secret]).toEqual([200, 'current']);
	});

	it('once set, is the only secret the Test URL accepts: a captured production delivery replayed there is refused', async () => {
		await rig.server.configure({
			credential: webhookCredential(SECRET, 'whsec_previous', TEST),
			parameters: {},
			mode: 'manual',
		});
		for (const production of [SECRET, 'whsec_previous']) {
			const { status, call } = await rig.server.post(body, signedWith(production));
			expect(status).toBe(401);
			// At the Test URL a refusal goes to the Refused output only (the editor shows it).
			expect(call.result?.workflowData?.[0]).toEqual([]);
			expect(call.result?.workflowData?.[1][0].json).toMatchObject({
				reason: 'signature_mismatch',
				secretsTried: ['test'],
			});
		}
		// Without one, the Test URL takes the production secrets (the keys of the event then stay the event's: exactlyOnce.test.ts).
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: {},
			mode: 'manual',
		});
		const { status, call } = await rig.server.post(body, signedWith(SECRET));
		expect([status, deliveryOf(call).id, deliveryOf(call).secret]).toEqual([
			200,
			'evt_1',
			'current',
		]);
	});

	it('never reaches the output, at either URL: a header or query parameter holding it is left out', async () => {
		const parameters = { options: { includeHeaders: true, includeQuery: true } };
		for (const mode of ['webhook', 'manual'] as const) {
			await rig.server.configure({
				credential: webhookCredential(SECRET, '', TEST),
				parameters,
				mode,
			});
			const secret = mode === 'manual' ? TEST : SECRET;
			const { status, call } = await rig.server.post(
				body,
				{ ...signedWith(secret), 'x-forwarded-note': `token ${TEST}` },
				`?note=${TEST}&keep=1`,
			);
			expect(status).toBe(200);
			const { unsignedHeaders, unsignedQuery } = deliveryOf(call);
			expect(JSON.stringify([unsignedHeaders, unsignedQuery])).not.toContain(TEST);
			expect(unsignedQuery).toEqual({ keep: '1' });
		}
	});
});

describe('Custom HMAC placeholders that meet without a boundary', () => {
	it('{url}{body} with form fields: the end of the query could move into the first field, so every delivery is refused', async () => {
		const parameters = {
			verification: 'customHmac',
			customSignedContent: '{url}{body}',
			customSignatureHeader: 'x-signature',
			bodyFormat: 'form',
		};
		await rig.server.configure({ credential: webhookCredential(SECRET), parameters });
		const body = 'b=2';
		const headers = {
			...FORM,
			'x-signature': createHmac('sha256', SECRET).update(`${PUBLIC_URL}?a=1${body}`).digest('hex'),
		};
		await refused(rig.server.post(body, headers, '?a=1'), 401, INVALID, 'invalid_scheme');
		await refused(rig.server.post(`1${body}`, headers, '?a='), 401, INVALID, 'invalid_scheme');
	});

	it('{formFields} without {body}: no id is taken from a field, which a replay could re-cut; the signed text names the delivery', async () => {
		const parameters = {
			verification: 'customHmac',
			customSignedContent: '{formFields}',
			customSignatureHeader: 'x-signature',
			bodyFormat: 'form',
		};
		await rig.server.configure({ credential: webhookCredential(SECRET), parameters });
		const body = 'id=evt_1&note=x';
		const signed = {
			...FORM,
			'x-signature': createHmac('sha256', SECRET).update('idevt_1notex').digest('hex'),
		};
		const { status, call } = await rig.server.post(body, signed);
		const digest = createHash('sha256').update('idevt_1notex').digest('hex');
		expect([status, deliveryOf(call).id, deliveryOf(call).idSource]).toEqual([
			200,
			digest,
			'signedText:sha256',
		]);
		const recut = await rig.server.post('id=evt_1no&te=x', signed);
		expect([recut.status, deliveryOf(recut.call).id]).toEqual([200, digest]);
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: { ...parameters, options: { idFields: 'id' } },
		});
		await refused(rig.server.post(body, signed), 401, INVALID, 'unprotected_id');
	});

	it('{formFields} with a Body Hash Parameter: a hash in a URL the signature does not cover bounds no field', async () => {
		const parameters = {
			verification: 'customHmac',
			customSignedContent: '{formFields}',
			customSignatureHeader: 'x-signature',
			customBodyHashParameter: 'bodySHA256',
			bodyFormat: 'form',
			options: { idFields: 'a' },
		};
		await rig.server.configure({ credential: webhookCredential(SECRET), parameters });
		const headers = {
			...FORM,
			'x-signature': createHmac('sha256', SECRET).update('a12b3').digest('hex'),
		};
		await refused(rig.server.post('a=12&b=3', headers), 401, INVALID, 'unprotected_id');
		await refused(
			rig.server.post('a=12&b=3', headers, '?bodySHA256=anything'),
			401,
			INVALID,
			'unprotected_id',
		);
		await refused(
			rig.server.post('a=12b3', headers, '?bodySHA256=anything'),
			401,
			INVALID,
			'unprotected_id',
		);
	});
});
