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

/** The product's verifier, with the trigger settings for `scheme` (and `parameters`), over what the receiver got on the wire. */
const productVerifies = (
	scheme: SigningScheme,
	secrets: string[],
	got: { headers: Record<string, unknown>; body: Buffer; url: string },
	receiverUrl: string,
	parameters: Record<string, unknown> = {},
) => verifyReceived(configForScheme(scheme, secrets, parameters), { ...got, url: receiverUrl + queryOf(got.url) });

/** How each simple scheme writes its signature on the wire (the verifier accepts hex or base64 alike). */
const SIGNATURE_FORMAT: Record<string, RegExp> = {
	'hmac-sha256-hex': /^[0-9a-f]{64}$/,
	'hmac-sha256-base64': /^[A-Za-z0-9+/]{43}=$/,
	'hmac-sha256-prefixed': /^sha256=[0-9a-f]{64}$/,
	'hmac-sha512-hex': /^[0-9a-f]{128}$/,
};

describe('webhook deliveries', () => {
	it('delivers one event per created record with the documented body and headers (default scheme)', async () => {
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET, 'whsec_old'] });
		const rec = await (await post(sb, '/transfers', 'wk1', { amount: 10 })).json();
		await post(sb, '/transfers', 'wk1', { amount: 10 }); // replay: no second event
		await receiver.waitFor(1);
		expect(receiver.received).toHaveLength(1);
		const got = receiver.received[0];
		const { headers, body } = got;
		const event = JSON.parse(body.toString('utf8'));
		expect(event).toEqual({ id: 'evt_1', event: 'transfers.created', created_at: expect.any(Number), data: { object: rec } });
		expect(Math.abs(event.created_at - Date.now() / 1000)).toBeLessThan(5);
		expect(headers['content-type']).toBe('application/json');
		expect(headers['user-agent']).toBe('tenant-api-sandbox');
		expect(headers['x-event-id']).toBe('evt_1');
		expect(headers['x-timestamp']).toBeUndefined();
		expect(headers['x-signature']).toMatch(SIGNATURE_FORMAT['hmac-sha256-hex']);
		// Signed with the first secret only: the product verifier accepts it with that one alone, not with the other.
		expect(productVerifies('hmac-sha256-hex', [SECRET], got, receiver.url)).toEqual({ ok: true, reason: 'ok', bodyFormat: 'json', secretIndex: 0 });
		expect(productVerifies('hmac-sha256-hex', ['whsec_old'], got, receiver.url)).toMatchObject({ ok: false, reason: 'signature_mismatch' });
		await sb.settle();
		expect(sb.stats().deliveries).toEqual({ attempts: 1, succeeded: 1, failed: 0, pending: 0 });
	});

	const LEGACY = ['hmac-sha256-hex', 'hmac-sha256-base64', 'hmac-sha256-prefixed', 'hmac-sha512-hex', 'secret-header', 'none'] as const;
	it.each(LEGACY.flatMap((s) => [[s, false], [s, true]] as const))('scheme %s (timestamp: %s) is accepted by the product verifier, exactly as configured', async (scheme, timestamp) => {
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET], scheme, timestamp });
		await post(sb, '/payouts', 'k-' + scheme, { amount: 1 });
		await receiver.waitFor(1);
		const got = receiver.received[0];
		const { headers } = got;
		const ts = headers['x-timestamp'] as string | undefined;
		if (timestamp) {
			expect(ts).toMatch(/^\d{10}$/);
			expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(5);
		} else expect(ts).toBeUndefined();
		const verify = (secrets: string[], useTimestamp = timestamp) => productVerifies(scheme, secrets, got, receiver.url, { useTimestamp });
		if (scheme === 'none') {
			expect(verify([SECRET])).toEqual({ ok: true, reason: 'verification_disabled', bodyFormat: 'json' });
		} else {
			expect(verify([SECRET])).toMatchObject({ ok: true, secretIndex: 0 });
			expect(verify(['whsec_other']).ok).toBe(false);
		}
		if (scheme in SIGNATURE_FORMAT) {
			expect(headers['x-signature']).toMatch(SIGNATURE_FORMAT[scheme]);
			// The timestamp is part of the signed bytes exactly when the delivery carries one.
			expect(verify([SECRET], !timestamp)).toMatchObject({ ok: false });
		} else expect(headers['x-signature']).toBeUndefined();
		if (scheme === 'secret-header') expect(headers['x-webhook-secret']).toBe(SECRET);
		else expect(headers['x-webhook-secret']).toBeUndefined();
	});

	it.each(SCHEMES.filter((s) => s !== 'none'))('a %s delivery over HTTP is accepted by the product verifier, and refused with another secret', async (scheme) => {
		sb.configureWebhook({ url: receiver.url, scheme });
		expect(sb.webhookConfig().secrets).toEqual([demoSecret(scheme)]);
		await post(sb, '/payouts', 'k-' + scheme, { amount: 1250 });
		await receiver.waitFor(1);
		const got = receiver.received[0];
		expect(got.headers['x-event-id']).toBe('evt_1');
		expect(productVerifies(scheme, [demoSecret(scheme)], got, receiver.url)).toMatchObject({ ok: true });
		const other = scheme === 'standard-webhooks' || scheme === 'svix' ? `whsec_${Buffer.from('other').toString('base64')}` : /^[0-9a-f]+$/.test(demoSecret(scheme)) ? 'ab'.repeat(32) : 'whsec_other';
		expect(productVerifies(scheme, [other], got, receiver.url).ok).toBe(false);
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
		expect(result).toEqual({ eventId: 'evt_1', ok: false, status: 500, contentType: null, body: 'ok', verdict: 'not accepted (HTTP 500)', attempts: 2 });
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
		expect(await res.json()).toEqual({ eventId: 'evt_1', ok: true, status: 200, contentType: null, body: 'ok', verdict: 'accepted', attempts: 1 });
		const got = receiver.received[0];
		expect(JSON.parse(got.body.toString())).toMatchObject({ id: 'evt_1', event: 'account.updated', data: { object: { id: 'acc_0001' } } });
		expect(got.headers['x-signature']).toMatch(SIGNATURE_FORMAT['hmac-sha256-prefixed']);
		expect(productVerifies('hmac-sha256-prefixed', [SECRET], got, receiver.url, { useTimestamp: true })).toMatchObject({ ok: true });

		const bad = await control(sb, 'webhook', { url: receiver.url, scheme: 'rot13' });
		expect(bad.status).toBe(400);
	});
});

describe('signing.sign', () => {
	it('signs exact bytes, with an explicit timestamp; the product verifier accepts both', () => {
		const body = Buffer.from('{"a":1}');
		const timestamped = sign({ secret: 's', scheme: 'hmac-sha256-hex', body, timestamp: 1700000000 });
		expect(timestamped).toEqual({ 'x-timestamp': '1700000000', 'x-signature': expect.stringMatching(SIGNATURE_FORMAT['hmac-sha256-hex']) });
		const withTimestamp = configForScheme('hmac-sha256-hex', ['s'], { useTimestamp: true });
		expect(verifyReceived(withTimestamp, { body, headers: timestamped, now: 1700000000 })).toMatchObject({ ok: true, timestamp: 1700000000 });
		expect(verifyReceived(withTimestamp, { body: '{"a": 1}', headers: timestamped, now: 1700000000 })).toMatchObject({ ok: false, reason: 'signature_mismatch' });
		const plain = sign({ secret: 's', body: '{"a":1}' });
		expect(plain).toEqual(sign({ secret: 's', body }));
		expect(verifyReceived(configForScheme('hmac-sha256-hex', ['s']), { body, headers: plain })).toMatchObject({ ok: true });
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
