/**
 * The sandbox's webhook sender as other suites rely on it: the HMAC-of-the-body schemes on the wire, signed with the
 * configured secret, with a timestamp exactly when configured (every scheme, delivered into the trigger inside
 * n8n-core, is test/engine/trigger.test.ts's); a payload sent exactly as given (the exactly-once suite delivers
 * bodies without a top-level id); deliveries retried with backoff after any non-2xx or no answer, over the same
 * signed bytes, every attempt recorded with its answer (the exactly-once and queue-mode suites count on
 * redeliveries); POST /_sandbox/deliver, which the README's quick start uses.
 */
import { createHash } from 'node:crypto';

import type { SigningScheme } from '../../sandbox/signing';
import { queryOf, receive, settingsForScheme } from '../harness/verifier';
import { post, control, startReceiver, useSandbox, type Received } from './helpers';

const SECRET = 'whsec_current';

const sb = useSandbox();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
	receiver = await startReceiver();
});
afterEach(async () => {
	await sb.settle();
	expect(sb.stats().deliveries.pending).toBe(0);
	await receiver.close();
});

/** What the trigger set up for `scheme` (with `parameters`) decides for what the receiver got on the wire. */
const triggerDecides = (
	scheme: SigningScheme,
	secrets: string[],
	got: Received,
	parameters: Record<string, unknown> = {},
) =>
	receive(settingsForScheme(scheme, secrets, parameters), {
		body: got.body,
		headers: got.headers,
		url: receiver.url + queryOf(got.url),
	});

/** How the HMAC-of-the-body schemes write their signature on the wire. */
const SIGNATURE_FORMAT: Partial<Record<SigningScheme, RegExp>> = {
	'hmac-sha256-hex': /^[0-9a-f]{64}$/,
	'hmac-sha256-base64': /^[A-Za-z0-9+/]{43}=$/,
	'hmac-sha256-prefixed': /^sha256=[0-9a-f]{64}$/,
	'hmac-sha512-hex': /^[0-9a-f]{128}$/,
};
const BODY_HMAC = Object.keys(SIGNATURE_FORMAT) as SigningScheme[];

describe('webhook deliveries', () => {
	it.each(BODY_HMAC.flatMap((scheme) => [[scheme, false] as const, [scheme, true] as const]))(
		'%s (timestamp: %s): signed with the configured secret, the timestamp exactly when the delivery carries one',
		async (scheme, timestamp) => {
			sb.configureWebhook({ url: receiver.url, secrets: [SECRET], scheme, timestamp });
			await post(sb, '/payouts', 'k-' + scheme, { amount: 1 });
			await receiver.waitFor(1);
			const got = receiver.received[0];
			expect(got.headers['x-signature']).toMatch(SIGNATURE_FORMAT[scheme]!);
			const ts = got.headers['x-timestamp'];
			if (timestamp) {
				expect(ts).toMatch(/^\d{10}$/);
				expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(5);
			} else expect(ts).toBeUndefined();
			const decides = (secret: string, useTimestamp: boolean) =>
				triggerDecides(scheme, [secret], got, { useTimestamp }).action;
			expect([
				decides(SECRET, timestamp),
				decides(SECRET, !timestamp),
				decides('whsec_other', timestamp),
			]).toEqual(['start', 'refuse', 'refuse']);
		},
	);

	it('a payload is sent exactly as given: no id added, the delivery named evt_<n> in the x-event-id header and the log', async () => {
		const payload = { event: 'transfers.created', data: { object: { id: 'tr_1', amount: 1250 } } };
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET] });
		expect(await sb.deliver({ payload })).toMatchObject({ eventId: 'evt_1', ok: true });
		const got = receiver.received[0];
		expect(got.body.toString('utf8')).toBe(JSON.stringify(payload));
		expect(got.headers['x-event-id']).toBe('evt_1');
		expect(sb.deliveries().map((attempt) => attempt.eventId)).toEqual(['evt_1']);
		expect(triggerDecides('hmac-sha256-hex', [SECRET], got)).toMatchObject({
			action: 'start',
			item: {
				...payload,
				webhookDelivery: {
					id: createHash('sha256').update(got.body).digest('hex'),
					idSource: 'body:sha256',
				},
			},
		});
		expect(() => sb.deliver({ payload: ['not', 'an', 'object'] } as never)).toThrow(
			'payload must be a JSON object',
		);
	});

	it('retries any non-2xx with backoff, over the same signed bytes, and records every attempt with its answer', async () => {
		await receiver.close();
		receiver = await startReceiver([
			500,
			{ status: 401, headers: { 'content-type': 'application/json' }, body: '{"message":"no"}' },
			204,
		]);
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET], maxAttempts: 4, retryDelayMs: 20 });
		await post(sb, '/transfers', 'retry-1', { amount: 1 });
		await receiver.waitFor(3);
		await sb.settle();
		const { received } = receiver;
		expect(received.map((r) => r.headers['x-event-id'])).toEqual(['evt_1', 'evt_1', 'evt_1']);
		expect(received.map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '3']);
		for (const again of received.slice(1)) {
			expect(again.body.equals(received[0].body)).toBe(true);
			expect(again.headers['x-signature']).toBe(received[0].headers['x-signature']);
		}
		expect(sb.stats().deliveries).toEqual({ attempts: 3, succeeded: 1, failed: 0, pending: 0 });
		expect(
			sb.deliveries().map(({ status, contentType, body }) => [status, contentType, body]),
		).toEqual([
			[500, null, 'ok'],
			[401, 'application/json', '{"message":"no"}'],
			[204, null, ''],
		]);
	});

	it('stops after maxAttempts, and counts network errors as failed attempts', async () => {
		await receiver.close();
		receiver = await startReceiver([401, 401]);
		sb.configureWebhook({ url: receiver.url, secrets: [SECRET], maxAttempts: 2, retryDelayMs: 1 });
		expect(await sb.deliver()).toMatchObject({ ok: false, attempts: 2, status: 401 });
		const dead = receiver.url;
		await receiver.close();
		const result = await sb.deliver('sandbox.ping', { url: dead });
		expect(result).toMatchObject({ ok: false, attempts: 2, status: null });
		expect(result.error).toMatch(/ECONNREFUSED/);
		expect(sb.stats().deliveries).toEqual({ attempts: 4, succeeded: 0, failed: 2, pending: 0 });
		receiver = await startReceiver();
	});

	it('the attempt log keeps the first 256 characters of an answer', async () => {
		await receiver.close();
		receiver = await startReceiver([{ status: 200, body: 'é'.repeat(100_000) }]);
		const result = await sb.deliver('big.answer', { url: receiver.url });
		expect(result.body).toBe('é'.repeat(256));
		expect(sb.deliveries()[0].body).toBe('é'.repeat(256));
	});

	it('POST /_sandbox/deliver sends one delivery now (an event, or a payload) and answers with the outcome', async () => {
		sb.configureWebhook(null);
		const none = await control(sb, 'deliver', {});
		expect([none.status, (await none.json()).error.code]).toEqual([409, 'webhook_not_configured']);

		const settings = { url: receiver.url, secrets: [SECRET], scheme: 'hmac-sha256-prefixed' };
		const res = await control(sb, 'deliver', {
			...settings,
			timestamp: true,
			event: { event: 'account.updated', data: { object: { id: 'acc_0001' } } },
		});
		expect(await res.json()).toEqual({
			eventId: 'evt_1',
			ok: true,
			status: 200,
			contentType: null,
			body: 'ok',
			attempts: 1,
		});
		const got = receiver.received[0];
		expect(JSON.parse(got.body.toString())).toMatchObject({
			id: 'evt_1',
			event: 'account.updated',
			data: { object: { id: 'acc_0001' } },
		});
		expect(
			triggerDecides('hmac-sha256-prefixed', [SECRET], got, { useTimestamp: true }),
		).toMatchObject({ action: 'start' });

		const payload = await control(sb, 'deliver', {
			...settings,
			payload: { event: 'account.closed' },
		});
		expect(await payload.json()).toMatchObject({ eventId: 'evt_2', ok: true });
		expect(receiver.received[1].body.toString()).toBe('{"event":"account.closed"}');

		for (const bad of [{ payload: 'account.closed' }, { scheme: 'rot13' }]) {
			const refused = await control(sb, 'deliver', { ...settings, ...bad });
			expect([refused.status, (await refused.json()).error.code]).toEqual([400, 'invalid_webhook']);
		}
	});
});
