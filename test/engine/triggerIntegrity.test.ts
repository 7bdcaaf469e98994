/**
 * What the workflow sees is exactly what was signed, or nothing, and no secret of the credential: Secret in Header's
 * key, request data no signature covers, exact numbers and ids, the Test URL's own secret. Through the built trigger
 * behind a real HTTP server and n8n-core's WebhookContext (test/harness/webhook.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { sign } from '../../sandbox/signing';
import type { WebhookCall } from '../harness/webhook';
import { deliveryOf, useTriggerServer, webhookCredential } from '../harness/webhook';

const INVALID = 'Invalid signature';
const SECRET = 'whsec_integrity';

const rig = useTriggerServer({ credential: webhookCredential(SECRET) });

const { refused } = rig;
const started = (call: WebhookCall): IDataObject => call.result!.workflowData![0][0].json;
const hmacDelivery = (body: string) => ({
	'content-type': 'application/json',
	...sign({ secret: SECRET, body }),
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

describe('exact numbers and ids', () => {
	it('numbers JavaScript cannot hold arrive as their text; ids beyond 2^53 named by Delivery ID Fields stay apart', async () => {
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: { options: { idFields: 'id' } },
		});
		const idOf = async (body: string) => {
			const { status, call } = await rig.server.post(body, hmacDelivery(body));
			expect(status).toBe(200);
			return deliveryOf(call).id;
		};
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
		expect([status, deliveryOf(call).secret]).toEqual([200, 'current']);
	});
});
