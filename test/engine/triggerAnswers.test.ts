/**
 * A genuine delivery of every sandbox signing scheme through the built trigger behind a real HTTP server and
 * n8n-core's WebhookContext (test/harness/webhook.ts): the item it starts, and what the sender gets back with each
 * Respond setting and for an event the Events filter leaves out, the same for every Verification (no answer of
 * another sender's making). How each scheme's signature is checked is test/unit (authenticate, interop); what n8n
 * itself sends once a workflow finishes is read in a real n8n (test/e2e).
 */
import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import type { SigningScheme } from '../../sandbox/signing';
import { SCHEMES, demoSecret, signedDelivery, triggerParameters } from '../../sandbox/signing';
import { withoutDelivery } from '../harness/verifier';
import type { Answered } from '../harness/webhook';
import {
	buildTriggerRig,
	deliveryOf,
	startedItems,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const rig = useTriggerServer({ credential: webhookCredential('whsec_answers') });

/** The schemes that sign a timestamp (webhookDelivery.timestamp is set). */
const TIMESTAMPED = ['standard-webhooks', 'timestamped', 'custom-hmac'];

/** A genuine delivery of `scheme` to the trigger set up for it (for `none`, without any credential), with `parameters` on top. */
async function deliver(scheme: SigningScheme, parameters: IDataObject = {}) {
	await rig.server.configure({
		credential: scheme === 'none' ? null : webhookCredential(demoSecret(scheme)),
		parameters: { ...(triggerParameters(scheme) as IDataObject), ...parameters },
	});
	const sent = signedDelivery({
		secret: demoSecret(scheme),
		scheme,
		event: { id: 'evt_1', event: 'transfers.created', created_at: 1700000000, data: {} },
		url: rig.server.url,
	});
	return { answer: await rig.server.post(sent.body, sent.headers), sent };
}

const answerOf = (answer: Answered) => [answer.status, answer.contentType, answer.text];

describe.each(SCHEMES)('%s', (scheme) => {
	it('Respond On Receipt: 200 with an empty body, sent by the trigger at once; one item starts, the body and its webhookDelivery', async () => {
		const { answer, sent } = await deliver(scheme);
		expect(answerOf(answer)).toEqual([200, '', '']);
		expect(answer.call.result?.noWebhookResponse).toBe(true);
		expect(answer.call.result?.workflowData?.map((output) => output.length)).toEqual([1, 0]);
		expect(startedItems(answer.call).map(withoutDelivery)).toEqual([JSON.parse(String(sent.body))]);
		// The signed id of Standard Webhooks; else the SHA-256 of the bytes.
		const [id, idSource] =
			scheme === 'standard-webhooks'
				? [sent.headers['webhook-id'], 'header:webhook-id']
				: [createHash('sha256').update(sent.body).digest('hex'), 'body:sha256'];
		expect(deliveryOf(answer.call)).toEqual({
			id,
			idSource,
			timestamp: TIMESTAMPED.includes(scheme) ? expect.any(Number) : null,
			verification: triggerParameters(scheme).verification,
			secret: scheme === 'none' ? null : 'current',
			bodyType: 'json',
		});
	});

	it('Respond When the Workflow Finishes: the trigger sends nothing and leaves the answer to n8n', async () => {
		const { answer } = await deliver(scheme, { respond: 'whenFinished' });
		expect(answer.call.result?.noWebhookResponse).toBeUndefined();
		expect(startedItems(answer.call)).toHaveLength(1);
		// What n8n sends for responseData "noData" once the workflow succeeded (test/harness/webhook.ts).
		expect(answerOf(answer)).toEqual([200, '', '']);
	});

	it('an event the Events filter leaves out: 200 with an empty body, nothing starts', async () => {
		const { answer } = await deliver(scheme, { events: 'nothing.matches' });
		expect(answerOf(answer)).toEqual([200, '', '']);
		expect(answer.call.result).toEqual({ noWebhookResponse: true });
	});
});

it.each([
	[{}, 'onReceived'],
	[{ respond: 'onReceipt' }, 'onReceived'],
	[{ respond: 'whenFinished' }, 'lastNode'],
	[{ respond: 'something a newer version saved' }, 'onReceived'],
])('Respond %j gives n8n the response mode %s', async (parameters, mode) => {
	const { workflow, node, webhookDescription } = await buildTriggerRig({ parameters });
	expect(
		workflow.expression.getSimpleParameterValue(
			node,
			webhookDescription.responseMode,
			'webhook',
			{},
			undefined,
			'onReceived',
		),
	).toBe(mode);
});
