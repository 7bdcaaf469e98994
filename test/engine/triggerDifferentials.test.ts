/**
 * Deliveries that verify but could be read as something other than what was signed, through the built trigger
 * behind a real HTTP server and n8n-core's WebhookContext (test/harness/webhook.ts). Each case is one way a
 * changed or re-read delivery could reach the workflow; each now ends in a refusal, or in the workflow reading
 * exactly what was signed. The property-based tests (test/property/) generalise these.
 */
import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import type { SigningScheme } from '../../sandbox/signing';
import { demoSecret, sign, signAdyenPayments, triggerParameters } from '../../sandbox/signing';
import type { TriggerSetup } from '../harness/webhook';
import {
	WEBHOOK_ID,
	deliveryOf,
	startedBodies,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const PUBLIC_URL = `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

const rig = useTriggerServer({ credential: webhookCredential('whsec_differentials') });

/** The trigger set up for a sandbox signing scheme with its demo secret. */
function useScheme(scheme: SigningScheme, parameters: IDataObject = {}, setup: TriggerSetup = {}) {
	return rig.server.configure({
		credential: webhookCredential(demoSecret(scheme)),
		parameters: { ...(triggerParameters(scheme) as IDataObject), ...parameters },
		...setup,
	});
}

const { refused } = rig;
const INVALID = 'Invalid signature';

describe('Adyen payments: signed fields are read one way, every item is signed', () => {
	const KEY = demoSecret('adyen-payments');
	const item = (over: IDataObject = {}) => ({
		pspReference: 'PSP1',
		originalReference: '',
		merchantAccountCode: 'TenantSandbox',
		merchantReference: 'order-1',
		amount: { value: 1999, currency: 'EUR' },
		eventCode: 'AUTHORISATION',
		success: 'true',
		...over,
	});
	const notification = (...items: IDataObject[]) => ({
		live: 'false',
		notificationItems: items.map((i) => ({ NotificationRequestItem: i })),
	});
	const signedItems = (...items: IDataObject[]) =>
		signAdyenPayments(notification(...items), KEY).notificationItems;
	const post = (body: unknown) => rig.server.post(JSON.stringify(body), JSON_TYPE);

	beforeEach(() => useScheme('adyen-payments'));

	it('a literal "amount.value" key next to the signed amount does not stand in for it', async () => {
		const [signed] = signedItems(item());
		const forged = {
			...signed.NotificationRequestItem,
			amount: { value: 99999999, currency: 'USD' },
			'amount.value': 1999,
			'amount.currency': 'EUR',
		};
		await refused(
			post({ live: 'false', notificationItems: [{ NotificationRequestItem: forged }] }),
			401,
			INVALID,
			'signature_mismatch',
		);
	});

	it('a top-level key spelled like the id path cannot give a replay a fresh identity', async () => {
		const body = {
			...notification(),
			notificationItems: signedItems(item()),
			'notificationItems.0.NotificationRequestItem.pspReference': 'PSP-fresh-1',
		};
		await refused(post(body), 401, INVALID, 'unexpected_field');
	});

	it.each([
		['amount.value as a list', { amount: { value: [[1999]], currency: 'EUR' } }],
		['amount.value as text', { amount: { value: '1999', currency: 'EUR' } }],
		['success as a boolean', { success: true }],
		['pspReference as a list', { pspReference: ['PSP1'] }],
	])('%s under the original signature is refused', async (_name, change) => {
		const [signed] = signedItems(item());
		const changed = { ...signed.NotificationRequestItem, ...change };
		await refused(post(notification(changed)), 401, INVALID, 'invalid_item_field');
	});

	it('an unsigned entry before the signed item is refused', async () => {
		const body = {
			live: 'false',
			notificationItems: [
				{ NotificationRequestItem: item({ pspReference: 'PSP0' }) },
				...signedItems(item()),
			],
		};
		await refused(post(body), 401, INVALID, 'missing_signature');
		const beside = {
			live: 'false',
			notificationItems: [{ Other: { pspReference: 'X' } }, ...signedItems(item())],
		};
		await refused(post(beside), 401, INVALID, 'unexpected_field');
	});

	it('a repeated item, or two items naming one event, is refused', async () => {
		const [a, sameEvent] = signedItems(item(), item({ amount: { value: 5, currency: 'EUR' } }));
		await refused(
			post({ live: 'false', notificationItems: [a, a] }),
			401,
			INVALID,
			'duplicate_item',
		);
		await refused(
			post({ live: 'false', notificationItems: [a, sameEvent] }),
			401,
			INVALID,
			'duplicate_item',
		);
		// Also when Delivery ID Fields find no id: the same signed item twice is still one event.
		await useScheme('adyen-payments', {
			options: { idFields: 'notificationItems.0.NotificationRequestItem.eventDate' },
		});
		await refused(
			post({ live: 'false', notificationItems: [a, a] }),
			401,
			INVALID,
			'duplicate_item',
		);
	});

	it('a colon moved between merchantAccountCode and merchantReference is refused', async () => {
		const [signed] = signedItems(item({ merchantAccountCode: 'Acct', merchantReference: 'ref:1' }));
		const moved = {
			...signed.NotificationRequestItem,
			merchantAccountCode: 'Acct:ref',
			merchantReference: '1',
		};
		await refused(post(notification(moved)), 401, INVALID, 'invalid_item_field');
	});
});

describe('dot paths (Event Path, Delivery ID Fields) walk objects only', () => {
	const SECRET = 'whsec_differentials';
	const body = JSON.stringify({
		id: 'evt_1',
		'data.type': 'payout.approved',
		'data.ref': 'fresh',
		data: { type: 'customer.updated', ref: 'r1' },
	});

	it('a literal dotted key in the body neither passes the Events filter nor names the delivery', async () => {
		const parameters = {
			verification: 'hmacSha256',
			events: 'payout.approved',
			options: { eventPath: 'data.type' },
		};
		await rig.server.configure({ credential: webhookCredential(SECRET), parameters });
		const filtered = await rig.server.post(body, sign({ secret: SECRET, body }));
		expect([filtered.status, startedBodies(filtered.call)]).toEqual([200, []]);
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: { verification: 'hmacSha256', options: { idFields: 'data.ref' } },
		});
		const named = await rig.server.post(body, sign({ secret: SECRET, body }));
		expect(deliveryOf(named.call)).toMatchObject({ id: 'r1', idSource: 'body:data.ref' });
	});
});

describe('signed JSON re-sent as a form', () => {
	const injected = JSON.stringify({
		id: 'evt_1',
		event: 'customer.updated',
		data: { object: { note: 'x&event=payout.approved&amount=1000000&id=evt_new&y=' } },
	});
	const JSON_SCHEMES: SigningScheme[] = [
		'hmac-sha256-hex',
		'hmac-sha512-hex',
		'standard-webhooks',
		'stripe',
		'paddle',
		'github',
		'square',
		'adyen-platform',
		'secret-header',
	];

	it.each(JSON_SCHEMES)(
		'%s: the same signed bytes with a form Content-Type get 415 and start nothing',
		async (scheme) => {
			await useScheme(scheme);
			const headers = sign({
				secret: demoSecret(scheme),
				scheme,
				body: injected,
				id: 'evt_1',
				url: PUBLIC_URL,
			});
			expect((await rig.server.post(injected, { ...JSON_TYPE, ...headers })).status).toBe(200);
			await refused(
				rig.server.post(injected, { ...FORM, ...headers }),
				415,
				'Unsupported content type: this trigger reads application/json bodies (Body Format)',
				'unsupported_media_type',
			);
		},
	);

	it('none: the Body Format decides too', async () => {
		await rig.server.configure({ credential: null, parameters: { verification: 'none' } });
		await refused(
			rig.server.post(injected, FORM),
			415,
			'Unsupported content type: this trigger reads application/json bodies (Body Format)',
			'unsupported_media_type',
		);
	});

	it('a form trigger (Slack-style) refuses signed JSON', async () => {
		await useScheme('slack');
		const json = '{"command":"/pay","text":"10"}';
		await refused(
			rig.server.post(json, {
				...JSON_TYPE,
				...sign({ secret: demoSecret('slack'), scheme: 'slack', body: json }),
			}),
			415,
			'Unsupported content type: this trigger reads application/x-www-form-urlencoded bodies (Body Format)',
			'unsupported_media_type',
		);
	});
});

describe('Twilio', () => {
	const TOKEN = demoSecret('twilio');
	const twilioSign = (url: string, body = '', contentType?: string) =>
		sign({ secret: TOKEN, scheme: 'twilio', body, url, contentType });
	beforeEach(() => useScheme('twilio'));

	it('with bodySHA256 in the signed URL the body hash is checked, whatever the Content-Type', async () => {
		const json = '{"CallSid":"CA1"}';
		const query = `?bodySHA256=${createHash('sha256').update(json).digest('hex')}`;
		const headers = twilioSign(PUBLIC_URL + query);
		expect((await rig.server.post(json, { ...JSON_TYPE, ...headers }, query)).status).toBe(200);
		await refused(
			rig.server.post('=', { ...FORM, ...headers }, query),
			401,
			INVALID,
			'body_hash_mismatch',
		);
		await refused(
			rig.server.post('', { ...FORM, ...headers }, query),
			401,
			INVALID,
			'body_hash_mismatch',
		);
		await refused(
			rig.server.post(json, { ...FORM, ...headers }, query),
			415,
			'Unsupported content type: this trigger reads application/json bodies (Body Format)',
			'unsupported_media_type',
		);
	});

	it('form fields the sender never sends are refused: an empty name, a repeated pair', async () => {
		const form = 'CallSid=CA1&From=%2B15550001';
		const headers = twilioSign(PUBLIC_URL, form, FORM['content-type']);
		expect((await rig.server.post(form, { ...FORM, ...headers })).status).toBe(200);
		await refused(
			rig.server.post(`${form}&=`, { ...FORM, ...headers }),
			401,
			INVALID,
			'unreadable_body',
		);
		await refused(
			rig.server.post(`${form}&CallSid=CA1`, { ...FORM, ...headers }),
			401,
			INVALID,
			'unreadable_body',
		);
	});

	it('an unsigned form larger than what is read before verifying is answered 413 without being read', async () => {
		const big = `a=${'+'.repeat(200 * 1024)}`;
		await refused(
			rig.server.post(big, { ...FORM, 'x-twilio-signature': 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' }),
			413,
			'Body too large to verify',
			'body_too_large',
		);
	});
});
