/**
 * Interop with the providers' own libraries (devDependencies) and their published test vectors.
 *
 * - Libraries that sign (standardwebhooks, svix, stripe, @octokit/webhooks-methods, twilio, @adyen/api-library):
 *   they sign, the product verifies: genuine accepted, tampered body, wrong secret, stale timestamp, changed id refused.
 * - Libraries that only verify (square, @paddle/paddle-node-sdk, @adyen/api-library's validators): the sandbox signs,
 *   the provider's library accepts it, and so does the product (so the product agrees with the provider).
 * - Slack and Shopify publish the algorithm (no signing library in the registry short of a whole app framework):
 *   Slack's published example is checked as a vector, Shopify's scheme is plain base64 HMAC of the body.
 */
import { createHmac } from 'crypto';

import { sign as octokitSign } from '@octokit/webhooks-methods';
import { hmacValidator as AdyenHmacValidator } from '@adyen/api-library';
import { Paddle } from '@paddle/paddle-node-sdk';
import { WebhooksHelper as SquareWebhooks } from 'square';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';
import twilio from 'twilio';

import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import { verificationConfig } from '../../nodes/TenantApiTrigger/settings';
import type { SignatureCheck } from '../../nodes/TenantApiTrigger/verifier';
import { verifyDelivery } from '../../nodes/TenantApiTrigger/verifier';
import type { WebhookEvent } from '../../sandbox/signing';
import { adyenNotification, demoSecret, sign, signedDelivery } from '../../sandbox/signing';
import { parameterReader } from '../harness/verifier';

const NOW = Math.floor(Date.now() / 1000);
const URL_ = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
const EVENT: WebhookEvent = {
	id: 'evt_1',
	event: 'transfers.created',
	created_at: NOW,
	data: { object: { id: 'tr_1', amount: 1250, currency: 'EUR' } },
};
const BODY = JSON.stringify(EVENT);

interface Delivery {
	body: string | Buffer;
	headers: Record<string, string>;
	url?: string;
	now?: number;
}

function verify(
	verification: VerificationName,
	secrets: string[],
	delivery: Delivery,
	parameters: Record<string, unknown> = {},
): SignatureCheck {
	return verifyDelivery(verificationConfig(verification, parameterReader(parameters), secrets), {
		rawBody: Buffer.from(delivery.body),
		headers: delivery.headers,
		nowSeconds: delivery.now ?? NOW,
		url: delivery.url,
	});
}

const tamper = (body: string) => body.replace('1250', '9250');

/** Headers of a Standard Webhooks message signed by a library (`standardwebhooks`, or `svix` with svix-* names). */
function libraryHeaders(prefix: 'webhook' | 'svix', secret: string) {
	const Library = prefix === 'svix' ? SvixWebhook : StandardWebhook;
	return (id: string, ts: number, body = BODY, key = secret) => ({
		[`${prefix}-id`]: id,
		[`${prefix}-timestamp`]: String(ts),
		[`${prefix}-signature`]: new Library(key).sign(id, new Date(ts * 1000), body),
	});
}

describe('Standard Webhooks (standardwebhooks library)', () => {
	const secret = `whsec_${Buffer.from('standard webhooks interop key').toString('base64')}`;
	const signed = libraryHeaders('webhook', secret);

	it('genuine accepted, with the signed id and timestamp', () => {
		expect(
			verify('standardWebhooks', [secret], { body: BODY, headers: signed('msg_1', NOW) }),
		).toMatchObject({ ok: true, id: 'msg_1', timestamp: NOW });
	});

	it('tampered body, wrong secret, stale and future timestamp, changed id and changed timestamp refused', () => {
		const other = `whsec_${Buffer.from('another key').toString('base64')}`;
		const headers = signed('msg_1', NOW);
		expect(verify('standardWebhooks', [secret], { body: tamper(BODY), headers }).reason).toBe(
			'signature_mismatch',
		);
		expect(
			verify('standardWebhooks', [secret], {
				body: BODY,
				headers: signed('msg_1', NOW, BODY, other),
			}).reason,
		).toBe('signature_mismatch');
		expect(
			verify('standardWebhooks', [secret], { body: BODY, headers: signed('msg_1', NOW - 301) })
				.reason,
		).toBe('timestamp_out_of_window');
		expect(
			verify('standardWebhooks', [secret], { body: BODY, headers: signed('msg_1', NOW + 301) })
				.reason,
		).toBe('timestamp_out_of_window');
		expect(
			verify('standardWebhooks', [secret], {
				body: BODY,
				headers: { ...headers, 'webhook-id': 'msg_2' },
			}).reason,
		).toBe('signature_mismatch');
		expect(
			verify('standardWebhooks', [secret], {
				body: BODY,
				headers: { ...headers, 'webhook-timestamp': String(NOW - 1) },
			}).reason,
		).toBe('signature_mismatch');
	});

	it('the library accepts what the sandbox signs', () => {
		const sent = signedDelivery({ secret, scheme: 'standard-webhooks', event: EVENT, url: URL_ });
		expect(new StandardWebhook(secret).verify(sent.body.toString(), sent.headers)).toEqual(EVENT);
	});

	it('published example (Svix docs: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw)', () => {
		const headers = {
			'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
			'webhook-timestamp': '1614265330',
			'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
		};
		const delivery = { body: '{"test": 2432232314}', headers, now: 1614265330 };
		expect(
			verify('standardWebhooks', ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], delivery).ok,
		).toBe(true);
		expect(
			verify('standardWebhooks', ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], {
				...delivery,
				now: NOW,
			}).reason,
		).toBe('timestamp_out_of_window');
	});
});

describe('Svix (svix library, svix-* headers)', () => {
	const secret = `whsec_${Buffer.from('svix interop key').toString('base64')}`;
	const signed = libraryHeaders('svix', secret);

	it('genuine accepted; tampered, wrong secret, stale, changed id refused', () => {
		const headers = signed('msg_svix', NOW);
		expect(verify('standardWebhooks', [secret], { body: BODY, headers })).toMatchObject({
			ok: true,
			id: 'msg_svix',
		});
		expect(verify('standardWebhooks', [secret], { body: tamper(BODY), headers }).ok).toBe(false);
		expect(
			verify('standardWebhooks', [secret], {
				body: BODY,
				headers: signed('msg_svix', NOW, BODY, `whsec_${Buffer.from('x').toString('base64')}`),
			}).ok,
		).toBe(false);
		expect(
			verify('standardWebhooks', [secret], { body: BODY, headers: signed('msg_svix', NOW - 400) })
				.reason,
		).toBe('timestamp_out_of_window');
		expect(
			verify('standardWebhooks', [secret], {
				body: BODY,
				headers: { ...headers, 'svix-id': 'msg_other' },
			}).ok,
		).toBe(false);
	});

	it('the library accepts what the sandbox signs', () => {
		const sent = signedDelivery({ secret, scheme: 'svix', event: EVENT, url: URL_ });
		expect(new SvixWebhook(secret).verify(sent.body.toString(), sent.headers)).toEqual(EVENT);
	});
});

describe('Stripe (stripe library)', () => {
	const stripe = new Stripe('sk_test_interop');
	const secret = 'whsec_stripe_interop_secret';
	const header = (ts: number, body = BODY, key = secret) => ({
		'stripe-signature': stripe.webhooks.generateTestHeaderString({
			payload: body,
			secret: key,
			timestamp: ts,
		}),
	});

	it('genuine accepted (the id is the body\'s "id"); tampered, wrong secret, stale, changed id refused', () => {
		expect(verify('stripe', [secret], { body: BODY, headers: header(NOW) })).toMatchObject({
			ok: true,
			timestamp: NOW,
		});
		expect(verify('stripe', [secret], { body: tamper(BODY), headers: header(NOW) }).reason).toBe(
			'signature_mismatch',
		);
		expect(
			verify('stripe', [secret], { body: BODY, headers: header(NOW, BODY, 'whsec_other') }).reason,
		).toBe('signature_mismatch');
		expect(verify('stripe', [secret], { body: BODY, headers: header(NOW - 301) }).reason).toBe(
			'timestamp_out_of_window',
		);
		expect(
			verify('stripe', [secret], { body: BODY.replace('evt_1', 'evt_2'), headers: header(NOW) })
				.reason,
		).toBe('signature_mismatch');
	});

	it("several v1 signatures (Stripe during a secret roll) and the library accepting the sandbox's signature", () => {
		const fresh = header(NOW)['stripe-signature'];
		const old = header(NOW, BODY, 'whsec_old')['stripe-signature'];
		expect(
			verify('stripe', [secret], {
				body: BODY,
				headers: { 'stripe-signature': `${old},${fresh.split(',')[1]}` },
			}).ok,
		).toBe(true);
		const sent = signedDelivery({ secret, scheme: 'stripe', event: EVENT, url: URL_ });
		expect(
			stripe.webhooks.constructEvent(sent.body, sent.headers['stripe-signature'], secret).id,
		).toBe('evt_1');
	});
});

describe('GitHub (@octokit/webhooks-methods)', () => {
	const secret = 'github interop secret';

	it('genuine accepted; tampered, wrong secret, changed id refused', async () => {
		const headers = {
			'x-hub-signature-256': await octokitSign(secret, BODY),
			'x-github-delivery': 'guid-1',
		};
		const parameters = { signatureHeader: 'X-Hub-Signature-256' };
		expect(verify('hmacSha256', [secret], { body: BODY, headers }, parameters).ok).toBe(true);
		expect(verify('hmacSha256', [secret], { body: tamper(BODY), headers }, parameters).reason).toBe(
			'signature_mismatch',
		);
		expect(verify('hmacSha256', ['other'], { body: BODY, headers }, parameters).reason).toBe(
			'signature_mismatch',
		);
		expect(
			verify('hmacSha256', [secret], { body: BODY.replace('evt_1', 'evt_2'), headers }, parameters)
				.reason,
		).toBe('signature_mismatch');
	});

	it('published example (GitHub docs: "It\'s a Secret to Everybody", "Hello, World!")', () => {
		const headers = {
			'x-hub-signature-256':
				'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
		};
		expect(
			verify(
				'hmacSha256',
				["It's a Secret to Everybody"],
				{ body: 'Hello, World!', headers },
				{ signatureHeader: 'x-hub-signature-256' },
			).ok,
		).toBe(true);
	});
});

describe('Shopify (published algorithm: base64 HMAC-SHA256 of the body)', () => {
	it('genuine accepted; tampered and wrong secret refused', () => {
		const headers = {
			'x-shopify-hmac-sha256': createHmac('sha256', 'shpss_interop').update(BODY).digest('base64'),
		};
		const parameters = { signatureHeader: 'X-Shopify-Hmac-Sha256' };
		expect(verify('hmacSha256', ['shpss_interop'], { body: BODY, headers }, parameters).ok).toBe(
			true,
		);
		expect(
			verify('hmacSha256', ['shpss_interop'], { body: tamper(BODY), headers }, parameters).ok,
		).toBe(false);
		expect(verify('hmacSha256', ['shpss_other'], { body: BODY, headers }, parameters).ok).toBe(
			false,
		);
		expect(
			sign({ secret: 'shpss_interop', scheme: 'shopify', body: BODY })['x-shopify-hmac-sha256'],
		).toBe(headers['x-shopify-hmac-sha256']);
	});
});

describe('Slack (published algorithm and example)', () => {
	it('the example of "Verifying requests from Slack" is accepted at its own time and stale now', () => {
		const body =
			'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
		const headers = {
			'x-slack-request-timestamp': '1531420618',
			'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
		};
		const delivery = {
			body,
			headers,
			mediaType: 'application/x-www-form-urlencoded',
			now: 1531420618,
		};
		expect(verify('slack', ['8f742231b10e8888abcd99yyyzzz85a5'], delivery).ok).toBe(true);
		expect(
			verify('slack', ['8f742231b10e8888abcd99yyyzzz85a5'], {
				...delivery,
				body: body.replace('foobar', 'foobaz'),
			}).reason,
		).toBe('signature_mismatch');
		expect(
			verify('slack', ['8f742231b10e8888abcd99yyyzzz85a5'], { ...delivery, now: NOW }).reason,
		).toBe('timestamp_out_of_window');
		expect(verify('slack', ['wrong'], delivery).reason).toBe('signature_mismatch');
	});
});

describe('Paddle (@paddle/paddle-node-sdk verifies)', () => {
	it("the SDK accepts the sandbox's signature, the product too; tampered, wrong secret, stale, changed id refused", async () => {
		const secret = 'pdl_ntfset_interop';
		const sent = signedDelivery({ secret, scheme: 'paddle', event: EVENT, url: URL_ });
		const body = sent.body.toString();
		// The SDK is used through a client, as its documentation shows (the client also sets up its crypto provider).
		const paddle = new Paddle('pdl_sdbx_apikey_01hz0000000000000000000000_interop0000000000000000');
		expect(
			await paddle.webhooks.isSignatureValid(body, secret, sent.headers['paddle-signature']),
		).toBe(true);
		expect(
			await paddle.webhooks.isSignatureValid(
				tamper(body),
				secret,
				sent.headers['paddle-signature'],
			),
		).toBe(false);
		expect(verify('paddle', [secret], { body, headers: sent.headers }).ok).toBe(true);
		expect(verify('paddle', [secret], { body: tamper(body), headers: sent.headers }).ok).toBe(
			false,
		);
		expect(verify('paddle', ['pdl_ntfset_other'], { body, headers: sent.headers }).ok).toBe(false);
		expect(
			verify('paddle', [secret], { body: body.replace('evt_1', 'evt_2'), headers: sent.headers })
				.ok,
		).toBe(false);
		const stale = signedDelivery({
			secret,
			scheme: 'paddle',
			event: EVENT,
			url: URL_,
			timestamp: NOW - 301,
		});
		expect(verify('paddle', [secret], { body, headers: stale.headers }).reason).toBe(
			'timestamp_out_of_window',
		);
	});
});

describe('Square (square SDK verifies)', () => {
	it("the SDK accepts the sandbox's signature over the notification URL and body, the product too", async () => {
		const secret = 'square_signature_key_interop';
		const sent = signedDelivery({ secret, scheme: 'square', event: EVENT, url: URL_ });
		const body = sent.body.toString();
		const signatureHeader = sent.headers['x-square-hmacsha256-signature'];
		expect(
			await SquareWebhooks.verifySignature({
				requestBody: body,
				signatureHeader,
				signatureKey: secret,
				notificationUrl: URL_,
			}),
		).toBe(true);
		expect(verify('square', [secret], { body, headers: sent.headers, url: URL_ }).ok).toBe(true);
		expect(
			verify('square', [secret], { body: tamper(body), headers: sent.headers, url: URL_ }).ok,
		).toBe(false);
		expect(verify('square', ['other_key'], { body, headers: sent.headers, url: URL_ }).ok).toBe(
			false,
		);
		expect(
			verify('square', [secret], {
				body: body.replace('evt_1', 'evt_2'),
				headers: sent.headers,
				url: URL_,
			}).ok,
		).toBe(false);
	});
});

describe('Adyen (@adyen/api-library)', () => {
	const key = demoSecret('adyen-payments');
	const validator = new AdyenHmacValidator();

	it('payments: the library signs a NotificationRequestItem; genuine accepted, tampered field, wrong key, changed id refused', () => {
		const notification = adyenNotification(EVENT);
		const item = notification.notificationItems[0].NotificationRequestItem;
		item.additionalData = { hmacSignature: validator.calculateHmac(item as never, key) };
		const body = JSON.stringify(notification);
		expect(verify('adyenPayments', [key], { body, headers: {} }).ok).toBe(true);
		expect(
			verify('adyenPayments', [key], {
				body: body.replace('"value":1250', '"value":9250'),
				headers: {},
			}).reason,
		).toBe('signature_mismatch');
		expect(verify('adyenPayments', ['ab'.repeat(32)], { body, headers: {} }).reason).toBe(
			'signature_mismatch',
		);
		expect(
			verify('adyenPayments', [key], {
				body: body.replace('"pspReference":"evt_1"', '"pspReference":"evt_2"'),
				headers: {},
			}).reason,
		).toBe('signature_mismatch');
	});

	it("payments: the library validates the sandbox's signed items", () => {
		const sent = signedDelivery({ secret: key, scheme: 'adyen-payments', event: EVENT, url: URL_ });
		const item = JSON.parse(sent.body.toString()).notificationItems[0].NotificationRequestItem;
		expect(validator.validateHMAC(item, key)).toBe(true);
	});

	it("platform webhooks: the library signs the body; genuine accepted, tampered, wrong key refused; it validates the sandbox's", () => {
		const headers = { hmacsignature: validator.calculateHmacSignature(BODY, key) };
		expect(verify('adyenPlatform', [key], { body: BODY, headers }).ok).toBe(true);
		expect(verify('adyenPlatform', [key], { body: tamper(BODY), headers }).ok).toBe(false);
		expect(verify('adyenPlatform', ['cd'.repeat(32)], { body: BODY, headers }).ok).toBe(false);
		const sent = signedDelivery({ secret: key, scheme: 'adyen-platform', event: EVENT, url: URL_ });
		expect(
			validator.validateHMACSignature(key, sent.headers.hmacsignature, sent.body.toString()),
		).toBe(true);
	});
});

describe('Twilio (twilio library)', () => {
	const token = 'twilio_auth_token_interop';
	const params = {
		CallSid: 'CA1234',
		From: '+14155550100',
		To: '+14155550199',
		Body: 'amount 1250',
	};
	const form = new URLSearchParams(params).toString();
	const formDelivery = (signature: string, body = form) => ({
		body,
		headers: { 'x-twilio-signature': signature },
		url: URL_,
		mediaType: 'application/x-www-form-urlencoded',
	});

	it('form: the library signs URL + sorted fields; genuine accepted, tampered field, wrong token, other URL refused', () => {
		const signature = twilio.getExpectedTwilioSignature(token, URL_, params);
		expect(verify('twilio', [token], formDelivery(signature)).ok).toBe(true);
		expect(verify('twilio', [token], formDelivery(signature, tamper(form))).reason).toBe(
			'signature_mismatch',
		);
		expect(verify('twilio', ['other'], formDelivery(signature)).reason).toBe('signature_mismatch');
		expect(
			verify('twilio', [token], { ...formDelivery(signature), url: `${URL_}?x=1` }).reason,
		).toBe('signature_mismatch');
		expect(
			verify('twilio', [token], formDelivery(signature, form.replace('CA1234', 'CA9999'))).reason,
		).toBe('signature_mismatch');
	});

	it('JSON: the URL carries bodySHA256; the library signs the URL; a changed body fails the hash', () => {
		const url = `${URL_}?bodySHA256=${twilio.getExpectedBodyHash(BODY)}`;
		const headers = { 'x-twilio-signature': twilio.getExpectedTwilioSignature(token, url, {}) };
		expect(verify('twilio', [token], { body: BODY, headers, url }).ok).toBe(true);
		expect(verify('twilio', [token], { body: tamper(BODY), headers, url }).reason).toBe(
			'body_hash_mismatch',
		);
		expect(twilio.validateRequestWithBody(token, headers['x-twilio-signature'], url, BODY)).toBe(
			true,
		);
	});

	it("the library accepts the sandbox's form and JSON deliveries", () => {
		const sentForm = signedDelivery({ secret: token, scheme: 'twilio', event: EVENT, url: URL_ });
		const fields = Object.fromEntries(new URLSearchParams(sentForm.body.toString()));
		expect(
			twilio.validateRequest(token, sentForm.headers['x-twilio-signature'], sentForm.url, fields),
		).toBe(true);
		const sentJson = signedDelivery({
			secret: token,
			scheme: 'twilio',
			event: EVENT,
			url: URL_,
			bodyFormat: 'json',
		});
		expect(
			twilio.validateRequestWithBody(
				token,
				sentJson.headers['x-twilio-signature'],
				sentJson.url,
				sentJson.body.toString(),
			),
		).toBe(true);
	});

	it('published example (Twilio docs: token 12345, mycompany.com/myapp.php?foo=1&bar=2)', () => {
		const published = {
			CallSid: 'CA1234567890ABCDE',
			Caller: '+14158675309',
			Digits: '1234',
			From: '+14158675309',
			To: '+18005551212',
		};
		const delivery = {
			body: new URLSearchParams(published).toString(),
			headers: { 'x-twilio-signature': 'RSOYDt4T1cUTdK1PDd93/VVr8B8=' },
			url: 'https://mycompany.com/myapp.php?foo=1&bar=2',
			mediaType: 'application/x-www-form-urlencoded',
		};
		expect(verify('twilio', ['12345'], delivery).ok).toBe(true);
	});
});
