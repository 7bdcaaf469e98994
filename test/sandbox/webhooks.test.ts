import * as crypto from 'node:crypto';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { SCHEMES, demoSecret, sign, type SigningScheme } from '../../sandbox/signing';
import { configForScheme, queryOf, verifyReceived } from '../harness/verifier';
import { post, control, startReceiver } from './helpers';

const SECRET = 'whsec_current';

let sb: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	sb.reset();
	receiver = await startReceiver();
});
afterEach(async () => {
	await sb.settle();
	expect(sb.stats().deliveries.pending).toBe(0);
	await receiver.close();
});

const hmac = (algo: string, secret: string, payload: Buffer | string) => crypto.createHmac(algo, secret).update(payload);

describe('webhook deliveries', () => {
	it('delivers one event per created record with the documented body and headers (default scheme)', async () => {
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET, 'whsec_old'] });
		const rec = await (await post(sb, '/transfers', 'wk1', { amount: 10 })).json();
		await post(sb, '/transfers', 'wk1', { amount: 10 }); // replay: no second event
		await receiver.waitFor(1);
		expect(receiver.received).toHaveLength(1);
		const { headers, body } = receiver.received[0];
		const event = JSON.parse(body.toString('utf8'));
		expect(event).toEqual({ id: 'evt_1', event: 'transfers.created', created_at: expect.any(Number), data: { object: rec } });
		expect(Math.abs(event.created_at - Date.now() / 1000)).toBeLessThan(5);
		expect(headers['content-type']).toBe('application/json');
		expect(headers['user-agent']).toBe('tenant-api-sandbox');
		expect(headers['x-event-id']).toBe('evt_1');
		expect(headers['x-timestamp']).toBeUndefined();
		expect(headers['x-signature']).toBe(hmac('sha256', SECRET, body).digest('hex'));
		await sb.settle();
		expect(sb.stats().deliveries).toEqual({ attempts: 1, succeeded: 1, failed: 0, pending: 0 });
	});

	const expected: Record<string, (body: Buffer, ts?: string) => Record<string, string>> = {
		'hmac-sha256-hex': (b, ts) => ({ 'x-signature': hmac('sha256', SECRET, ts ? `${ts}.${b}` : b).digest('hex') }),
		'hmac-sha256-base64': (b, ts) => ({ 'x-signature': hmac('sha256', SECRET, ts ? `${ts}.${b}` : b).digest('base64') }),
		'hmac-sha256-prefixed': (b, ts) => ({ 'x-signature': 'sha256=' + hmac('sha256', SECRET, ts ? `${ts}.${b}` : b).digest('hex') }),
		'hmac-sha512-hex': (b, ts) => ({ 'x-signature': hmac('sha512', SECRET, ts ? `${ts}.${b}` : b).digest('hex') }),
		'secret-header': () => ({ 'x-webhook-secret': SECRET }),
		none: () => ({}),
	};

	const LEGACY = ['hmac-sha256-hex', 'hmac-sha256-base64', 'hmac-sha256-prefixed', 'hmac-sha512-hex', 'secret-header', 'none'] as const;
	it.each(LEGACY.flatMap((s) => [[s, false], [s, true]] as const))('scheme %s (timestamp: %s) is verifiable with node:crypto', async (scheme, timestamp) => {
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET], scheme, timestamp });
		await post(sb, '/payouts', 'k-' + scheme, { amount: 1 });
		await receiver.waitFor(1);
		const { headers, body } = receiver.received[0];
		const ts = headers['x-timestamp'] as string | undefined;
		if (timestamp) {
			expect(ts).toMatch(/^\d{10}$/);
			expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(5);
		} else expect(ts).toBeUndefined();
		const want = expected[scheme](body, ts);
		for (const [name, value] of Object.entries(want)) expect(headers[name]).toBe(value);
		if (scheme === 'none' || scheme === 'secret-header') expect(headers['x-signature']).toBeUndefined();
		if (scheme !== 'secret-header') expect(headers['x-webhook-secret']).toBeUndefined();
	});

	/** The product's verifier, with the trigger settings for `scheme`, over what the receiver got on the wire. */
	const productAccepts = (scheme: SigningScheme, secrets: string[], got: { headers: Record<string, unknown>; body: Buffer; url: string }, receiverUrl: string) =>
		verifyReceived(configForScheme(scheme, secrets), { ...got, url: receiverUrl + queryOf(got.url) });

	it.each(SCHEMES.filter((s) => s !== 'none'))('a %s delivery over HTTP is accepted by the product verifier, and refused with another secret', async (scheme) => {
		sb.configureWebhook({ url: receiver.url, scheme });
		expect(sb.webhookConfig().secrets).toEqual([demoSecret(scheme)]);
		await post(sb, '/payouts', 'k-' + scheme, { amount: 1250 });
		await receiver.waitFor(1);
		const got = receiver.received[0];
		expect(got.headers['x-event-id']).toBe('evt_1');
		expect(productAccepts(scheme, [demoSecret(scheme)], got, receiver.url)).toMatchObject({ ok: true });
		const other = scheme === 'standard-webhooks' || scheme === 'svix' ? `whsec_${Buffer.from('other').toString('base64')}` : /^[0-9a-f]+$/.test(demoSecret(scheme)) ? 'ab'.repeat(32) : 'whsec_other';
		expect(productAccepts(scheme, [other], got, receiver.url).ok).toBe(false);
	});

	it('retries a failing destination with backoff and records every attempt', async () => {
		await receiver.close();
		receiver = await startReceiver([500, 503, 200]);
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET], maxAttempts: 3, retryDelayMs: 20 });
		await post(sb, '/transfers', 'retry-1', { amount: 1 });
		await receiver.waitFor(3);
		await sb.settle();
		const ids = receiver.received.map((r) => r.headers['x-event-id']);
		expect(ids).toEqual(['evt_1', 'evt_1', 'evt_1']);
		expect(receiver.received.map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '3']);
		// same bytes on every attempt
		expect(receiver.received[2].body.equals(receiver.received[0].body)).toBe(true);
		expect(sb.stats().deliveries).toEqual({ attempts: 3, succeeded: 1, failed: 0, pending: 0 });
		expect(sb.deliveries().map((d) => d.status)).toEqual([500, 503, 200]);
	});

	it('gives up after maxAttempts and counts the event as failed', async () => {
		await receiver.close();
		receiver = await startReceiver([500, 500, 500, 500]);
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET], maxAttempts: 2, retryDelayMs: 5 });
		const result = await sb.deliver('transfers.created');
		expect(result).toEqual({ eventId: 'evt_1', ok: false, status: 500, attempts: 2 });
		expect(sb.stats().deliveries).toEqual({ attempts: 2, succeeded: 0, failed: 1, pending: 0 });
	});

	it('counts network errors as failed attempts', async () => {
		const dead = receiver.url;
		await receiver.close();
		sb.configureWebhook({ url: dead, secrets: [SECRET], maxAttempts: 2, retryDelayMs: 1 });
		const result = await sb.deliver();
		expect(result.ok).toBe(false);
		expect(result.status).toBeNull();
		expect(result.error).toMatch(/ECONNREFUSED/);
		receiver = await startReceiver();
	});

	it('does not block the API response on a slow destination', async () => {
		sb.configureWebhook({ url: 'http://127.0.0.1:9/unreachable', secrets: [SECRET], maxAttempts: 1 });
		const t0 = Date.now();
		expect((await post(sb, '/transfers', 'fast', { a: 1 })).status).toBe(201);
		expect(Date.now() - t0).toBeLessThan(500);
	});

	it('POST /_sandbox/deliver sends one delivery now and answers with the destination status', async () => {
		sb.configureWebhook(null);
		const none = await control(sb, 'deliver', {});
		expect(none.status).toBe(409);
		expect((await none.json()).error.code).toBe('webhook_not_configured');

		const cfg = await control(sb, 'webhook', { url: receiver.url, secrets: [SECRET], scheme: 'hmac-sha256-prefixed', timestamp: true });
		expect(cfg.status).toBe(200);
		const res = await control(sb, 'deliver', { event: { event: 'account.updated', data: { object: { id: 'acc_0001' } } } });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ eventId: 'evt_1', ok: true, status: 200, attempts: 1 });
		const { headers, body } = receiver.received[0];
		expect(JSON.parse(body.toString())).toMatchObject({ id: 'evt_1', event: 'account.updated', data: { object: { id: 'acc_0001' } } });
		expect(headers['x-signature']).toBe('sha256=' + hmac('sha256', SECRET, `${headers['x-timestamp']}.${body}`).digest('hex'));

		const bad = await control(sb, 'webhook', { url: receiver.url, scheme: 'rot13' });
		expect(bad.status).toBe(400);
	});
});

describe('signing.sign', () => {
	it('signs exact bytes, with an explicit timestamp', () => {
		const body = Buffer.from('{"a":1}');
		expect(sign({ secret: 's', scheme: 'hmac-sha256-hex', body, timestamp: 1700000000 })).toEqual({
			'x-timestamp': '1700000000',
			'x-signature': crypto.createHmac('sha256', 's').update('1700000000.{"a":1}').digest('hex'),
		});
		expect(sign({ secret: 's', body: '{"a":1}' })).toEqual({ 'x-signature': crypto.createHmac('sha256', 's').update(body).digest('hex') });
		expect(() => sign({ secret: 's', scheme: 'md5' as never, body })).toThrow(/unknown signing scheme/);
	});

	it('refuses what it cannot sign: adyen-payments (signed in the body), URL schemes without a URL, an Adyen key that is not hex', () => {
		expect(() => sign({ secret: 's', scheme: 'adyen-payments', body: '{}' })).toThrow(/signAdyenPayments/);
		expect(() => sign({ secret: 's', scheme: 'square', body: '{}' })).toThrow(/url/);
		expect(() => sign({ secret: 'not-hex', scheme: 'adyen-platform', body: '{}' })).toThrow(/hex/);
	});

	it('schemes with a signed timestamp use now unless one is given', () => {
		const now = Math.floor(Date.now() / 1000);
		const ts = Number(sign({ secret: 's', scheme: 'slack', body: '{}' })['x-slack-request-timestamp']);
		expect(Math.abs(ts - now)).toBeLessThan(5);
		expect(sign({ secret: 's', scheme: 'stripe', body: '{}', timestamp: 1000 })['stripe-signature']).toMatch(/^t=1000,v1=[0-9a-f]{64}$/);
	});
});
