/**
 * Real senders' libraries (devDependencies) sign, the trigger's whole flow (receiveDelivery) accepts: `standardwebhooks`
 * for Standard Webhooks, `stripe` for the t=…,v1=… scheme (HMAC-SHA256 of Timestamp and Body). A change to what a
 * library signs is refused; each library also accepts what the sandbox signs, so the sandbox signs as they do.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';

import type { Decision } from '../../nodes/TenantApiTrigger/receive';
import type { WebhookEvent } from '../../sandbox/signing';
import { signedDelivery } from '../../sandbox/signing';
import { receive, triggerSettings } from '../harness/verifier';

const NOW = Math.floor(Date.now() / 1000);
const URL_ = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
const EVENT: WebhookEvent = {
	id: 'evt_1',
	event: 'transfers.created',
	created_at: NOW,
	data: { object: { id: 'tr_1', amount: 1250, currency: 'EUR' } },
};
const BODY = JSON.stringify(EVENT);
const TAMPERED = BODY.replace('1250', '9250');
const JSON_TYPE = { 'content-type': 'application/json' };

const reasonOf = (decision: Decision) =>
	decision.action === 'refuse' ? decision.reason : decision.action;
const deliveryOf = (decision: Decision) =>
	decision.action === 'start' ? decision.item.webhookDelivery : undefined;

describe('Standard Webhooks (standardwebhooks)', () => {
	const secret = `whsec_${Buffer.from('standard webhooks interop key').toString('base64')}`;
	const settings = triggerSettings({ verification: 'standardWebhooks' }, [secret]);
	const signed = (id: string, timestamp: number, body = BODY) => ({
		...JSON_TYPE,
		'webhook-id': id,
		'webhook-timestamp': String(timestamp),
		'webhook-signature': new StandardWebhook(secret).sign(id, new Date(timestamp * 1000), body),
	});

	it('what the library signs starts the workflow, with its message id and timestamp; a changed body or message id is refused', () => {
		const headers = signed('msg_1', NOW);
		expect(deliveryOf(receive(settings, { body: BODY, headers, now: NOW }))).toMatchObject({
			id: 'msg_1',
			idSource: 'header:webhook-id',
			timestamp: NOW,
			secret: 'current',
		});
		expect(reasonOf(receive(settings, { body: TAMPERED, headers, now: NOW }))).toBe(
			'signature_mismatch',
		);
		const otherId = { ...headers, 'webhook-id': 'msg_2' };
		expect(reasonOf(receive(settings, { body: BODY, headers: otherId, now: NOW }))).toBe(
			'signature_mismatch',
		);
	});

	it('the published example (whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw) at its own time, and stale now', () => {
		const example = triggerSettings({ verification: 'standardWebhooks' }, [
			'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
		]);
		const delivery = {
			body: '{"test": 2432232314}',
			headers: {
				'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
				'webhook-timestamp': '1614265330',
				'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
			},
		};
		expect(reasonOf(receive(example, { ...delivery, now: 1614265330 }))).toBe('start');
		expect(reasonOf(receive(example, { ...delivery, now: NOW }))).toBe('timestamp_out_of_window');
	});

	it('the library accepts what the sandbox signs', () => {
		const sent = signedDelivery({ secret, scheme: 'standard-webhooks', event: EVENT, url: URL_ });
		expect(new StandardWebhook(secret).verify(sent.body.toString(), sent.headers)).toEqual(EVENT);
	});
});

describe('t=…,v1=… (stripe)', () => {
	const stripe = new Stripe('sk_test_interop');
	const secret = 'whsec_stripe_interop_secret';
	const settings = triggerSettings(
		{ verification: 'timestampedSignatures', signatureHeader: 'Stripe-Signature' },
		[secret],
	);
	const signed = (timestamp: number, key = secret) => ({
		...JSON_TYPE,
		'stripe-signature': stripe.webhooks.generateTestHeaderString({
			payload: BODY,
			secret: key,
			timestamp,
		}),
	});

	it('what the library signs starts the workflow, with its timestamp; a changed body is refused; during a secret roll, the header with both signatures is accepted', () => {
		expect(
			deliveryOf(receive(settings, { body: BODY, headers: signed(NOW), now: NOW })),
		).toMatchObject({
			timestamp: NOW,
			verification: 'timestampedSignatures',
			idSource: 'body:sha256',
		});
		expect(reasonOf(receive(settings, { body: TAMPERED, headers: signed(NOW), now: NOW }))).toBe(
			'signature_mismatch',
		);
		const old = signed(NOW, 'whsec_old')['stripe-signature'];
		const fresh = signed(NOW)['stripe-signature'].split(',')[1];
		const both = { ...JSON_TYPE, 'stripe-signature': `${old},${fresh}` };
		expect(reasonOf(receive(settings, { body: BODY, headers: both, now: NOW }))).toBe('start');
	});

	it("the library accepts the sandbox's signature", () => {
		const sent = signedDelivery({ secret, scheme: 'timestamped', event: EVENT, url: URL_ });
		expect(stripe.webhooks.constructEvent(sent.body, sent.headers['x-signature'], secret).id).toBe(
			'evt_1',
		);
	});
});
