/**
 * What the sender gets back for a verified delivery, with each Respond setting, and for an event the Events filter
 * leaves out: the same for every Verification (no answer of another sender's making), through the built trigger
 * behind a real HTTP server and n8n-core's WebhookContext (test/harness/webhook.ts). Refusals' answers are
 * triggerBadInput.test.ts; what n8n itself sends once a workflow finishes is read in a real n8n (test/e2e).
 */
import type { IDataObject } from 'n8n-workflow';

import type { SigningScheme } from '../../sandbox/signing';
import { SCHEMES, demoSecret, signedDelivery, triggerParameters } from '../../sandbox/signing';
import type { Answered } from '../harness/webhook';
import { startedItems, useTriggerServer, webhookCredential } from '../harness/webhook';

const rig = useTriggerServer({ credential: webhookCredential('whsec_answers') });

/** A genuine delivery of `scheme` to the trigger set up for it, with `parameters` on top. */
async function deliver(scheme: SigningScheme, parameters: IDataObject = {}): Promise<Answered> {
	await rig.server.configure({
		credential: webhookCredential(demoSecret(scheme)),
		parameters: { ...(triggerParameters(scheme) as IDataObject), ...parameters },
	});
	const { body, headers } = signedDelivery({
		secret: demoSecret(scheme),
		scheme,
		event: {
			id: 'evt_1',
			event: 'transfers.created',
			created_at: 1700000000,
			data: { object: {} },
		},
		url: rig.server.url,
	});
	return await rig.server.post(body, headers);
}

const answerOf = (answer: Answered) => [answer.status, answer.contentType, answer.text];

describe.each(SCHEMES)('%s', (scheme) => {
	it('Respond On Receipt: 200 with an empty body, sent by the trigger at once; the workflow starts', async () => {
		const answer = await deliver(scheme);
		expect(answerOf(answer)).toEqual([200, '', '']);
		expect(answer.call.result?.noWebhookResponse).toBe(true);
		expect(startedItems(answer.call)).toHaveLength(1);
	});

	it('Respond When the Workflow Finishes: the trigger sends nothing and leaves the answer to n8n', async () => {
		const answer = await deliver(scheme, { respond: 'whenFinished' });
		expect(answer.call.result?.noWebhookResponse).toBeUndefined();
		expect(startedItems(answer.call)).toHaveLength(1);
		// What n8n sends for responseData "noData" once the workflow succeeded (test/harness/webhook.ts).
		expect(answerOf(answer)).toEqual([200, '', '']);
	});

	it('an event the Events filter leaves out: 200 with an empty body, nothing starts', async () => {
		const answer = await deliver(scheme, { events: 'nothing.matches' });
		expect(answerOf(answer)).toEqual([200, '', '']);
		expect(answer.call.result).toEqual({ noWebhookResponse: true });
	});
});
