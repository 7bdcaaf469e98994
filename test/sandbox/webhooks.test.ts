/**
 * The sandbox's webhook sender as other suites rely on it: the simple schemes no provider library checks
 * (test/unit/interop.test.ts checks the others), signed exactly as configured, with and without a timestamp;
 * deliveries retried with backoff after a non-2xx or no answer, every attempt recorded (the exactly-once and
 * queue-mode suites count on redeliveries); POST /_sandbox/deliver, which the README's quick start uses.
 */
import { startSandbox, type Sandbox } from '../../sandbox/server';
import type { SigningScheme } from '../../sandbox/signing';
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
) =>
	verifyReceived(configForScheme(scheme, secrets, parameters), {
		...got,
		url: receiverUrl + queryOf(got.url),
	});

/** How each simple scheme writes its signature on the wire (the verifier accepts hex or base64 alike). */
const SIGNATURE_FORMAT: Record<string, RegExp> = {
	'hmac-sha256-hex': /^[0-9a-f]{64}$/,
	'hmac-sha256-base64': /^[A-Za-z0-9+/]{43}=$/,
	'hmac-sha256-prefixed': /^sha256=[0-9a-f]{64}$/,
	'hmac-sha512-hex': /^[0-9a-f]{128}$/,
};

describe('webhook deliveries', () => {
	const LEGACY = [
		'hmac-sha256-hex',
		'hmac-sha256-base64',
		'hmac-sha256-prefixed',
		'hmac-sha512-hex',
		'secret-header',
		'none',
	] as const;
	it.each(
		LEGACY.flatMap(
			(s) =>
				[
					[s, false],
					[s, true],
				] as const,
		),
	)(
		'scheme %s (timestamp: %s) is accepted by the product verifier, exactly as configured',
		async (scheme, timestamp) => {
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
			const verify = (secrets: string[], useTimestamp = timestamp) =>
				productVerifies(scheme, secrets, got, receiver.url, { useTimestamp });
			if (scheme === 'none') {
				expect(verify([SECRET])).toMatchObject({
					ok: true,
					reason: 'verification_disabled',
					bodyFormat: 'json',
				});
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
		},
	);

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

	it('POST /_sandbox/deliver sends one delivery now and answers with the destination status', async () => {
		sb.configureWebhook(null);
		const none = await control(sb, 'deliver', {});
		expect(none.status).toBe(409);
		expect((await none.json()).error.code).toBe('webhook_not_configured');

		const cfg = await control(sb, 'webhook', {
			url: receiver.url,
			secrets: [SECRET],
			scheme: 'hmac-sha256-prefixed',
			timestamp: true,
		});
		expect(cfg.status).toBe(200);
		const res = await control(sb, 'deliver', {
			event: { event: 'account.updated', data: { object: { id: 'acc_0001' } } },
		});
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({
			eventId: 'evt_1',
			ok: true,
			status: 200,
			contentType: null,
			body: 'ok',
			verdict: 'accepted',
			attempts: 1,
		});
		const got = receiver.received[0];
		expect(JSON.parse(got.body.toString())).toMatchObject({
			id: 'evt_1',
			event: 'account.updated',
			data: { object: { id: 'acc_0001' } },
		});
		expect(got.headers['x-signature']).toMatch(SIGNATURE_FORMAT['hmac-sha256-prefixed']);
		expect(
			productVerifies('hmac-sha256-prefixed', [SECRET], got, receiver.url, { useTimestamp: true }),
		).toMatchObject({ ok: true });

		const bad = await control(sb, 'webhook', { url: receiver.url, scheme: 'rot13' });
		expect(bad.status).toBe(400);
	});
});
