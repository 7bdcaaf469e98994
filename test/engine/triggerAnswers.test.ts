/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: Slack's documented example token, not a secret */
/**
 * What each sender gets back (nodes/TenantApiTrigger/answers.ts, the Verification table): the answer to a verified
 * delivery with each Respond setting, and the handshakes some senders make before they deliver events, through the
 * built trigger behind a real HTTP server and n8n-core's WebhookContext (test/harness/webhook.ts). What n8n itself
 * sends with Respond "When the Workflow Finishes" is read in a real n8n (test/e2e/senders.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import { verificationOf } from '../../nodes/TenantApiTrigger/verifications';
import type { SigningScheme } from '../../sandbox/signing';
import {
	SCHEMES,
	demoSecret,
	sign,
	signAdyenPayments,
	signedDelivery,
	triggerParameters,
} from '../../sandbox/signing';
import type { Answered } from '../harness/webhook';
import {
	WEBHOOK_ID,
	buildTriggerRig,
	startedItems,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const PUBLIC_URL = `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`;
const JSON_TYPE = { 'content-type': 'application/json' };
const INVALID = 'Invalid signature';

const rig = useTriggerServer({ credential: webhookCredential('whsec_answers') });

/** The trigger set up for a sandbox signing scheme with its demo secret. */
function useScheme(
	scheme: SigningScheme,
	parameters: IDataObject = {},
	mode: 'webhook' | 'manual' = 'webhook',
) {
	return rig.server.configure({
		credential: webhookCredential(demoSecret(scheme)),
		parameters: { ...(triggerParameters(scheme) as IDataObject), ...parameters },
		mode,
	});
}

/** A genuine delivery of the sandbox's event in `scheme`, posted to the trigger. */
function deliver(scheme: SigningScheme, event: IDataObject = {}): Promise<Answered> {
	const { body, headers } = signedDelivery({
		secret: demoSecret(scheme),
		scheme,
		event: {
			id: 'evt_1',
			event: 'transfers.created',
			created_at: 1700000000,
			data: { object: {} },
			...event,
		},
		url: PUBLIC_URL,
	});
	return rig.server.post(body, headers);
}

const schemeOf = (verification: string) =>
	SCHEMES.find(
		(scheme) => scheme !== 'none' && triggerParameters(scheme).verification === verification,
	)!;

describe('the answer to a verified delivery, per Verification', () => {
	const schemes = SCHEMES.filter((scheme) => scheme !== 'none');

	it.each(schemes)(
		'%s, Respond On Receipt: what its sender expects, sent at once; the workflow starts',
		async (scheme) => {
			await useScheme(scheme);
			const answer = await deliver(scheme);
			const expected = verificationOf(
				triggerParameters(scheme).verification as VerificationName,
			).acknowledgement;
			expect({ status: answer.status, contentType: answer.contentType, body: answer.text }).toEqual(
				{
					status: expected.status,
					contentType: expected.contentType ?? '',
					body: expected.body ?? '',
				},
			);
			expect(answer.call.result?.noWebhookResponse).toBe(true);
			expect(startedItems(answer.call)).toHaveLength(1);
		},
	);

	it.each(schemes)(
		'%s, Respond When the Workflow Finishes: nothing sent by the trigger; n8n answers with the status the sender expects',
		async (scheme) => {
			await useScheme(scheme, { respond: 'whenFinished' });
			const answer = await deliver(scheme);
			expect(answer.call.result?.noWebhookResponse).toBeUndefined();
			expect(startedItems(answer.call)).toHaveLength(1);
			// n8n's answer once the workflow succeeded: the description's responseCode, as n8n evaluates it for this node.
			const built = await buildTriggerRig({
				credential: webhookCredential(demoSecret(scheme)),
				parameters: { ...(triggerParameters(scheme) as IDataObject), respond: 'whenFinished' },
			});
			const status = built.workflow.expression.getSimpleParameterValue(
				built.node,
				built.webhookDescription.responseCode,
				'webhook',
				{},
				undefined,
				200,
			);
			expect(status).toBe(
				verificationOf(triggerParameters(scheme).verification as VerificationName).finishedStatus,
			);
		},
	);

	it('Twilio: empty TwiML on receipt (no reply, the call ends), 204 when the workflow finishes', () => {
		expect(verificationOf('twilio')).toMatchObject({
			acknowledgement: {
				status: 200,
				contentType: 'text/xml; charset=utf-8',
				body: '<?xml version="1.0" encoding="UTF-8"?><Response/>',
			},
			finishedStatus: 204,
		});
	});

	it('Adyen, both kinds: [accepted] on receipt', () => {
		for (const name of ['adyenPayments', 'adyenPlatform'] as const)
			expect(verificationOf(name).acknowledgement).toEqual({
				status: 200,
				contentType: 'text/plain; charset=utf-8',
				body: '[accepted]',
			});
	});

	it('an event filtered out by Events gets the same acknowledgement, and starts nothing', async () => {
		await useScheme('twilio', { events: 'nothing.matches' });
		const answer = await deliver('twilio');
		expect([answer.status, answer.contentType, answer.text]).toEqual([
			200,
			'text/xml; charset=utf-8',
			'<?xml version="1.0" encoding="UTF-8"?><Response/>',
		]);
		expect(answer.call.result).toEqual({ noWebhookResponse: true });
	});
});

describe("Slack's URL verification (url_verification)", () => {
	const SECRET = demoSecret('slack');
	const CHALLENGE = '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P';
	const HANDSHAKE = JSON.stringify({
		token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl',
		challenge: CHALLENGE,
		type: 'url_verification',
	});
	const signedBy = (secret: string, timestamp?: number) => ({
		...JSON_TYPE,
		...sign({ secret, scheme: 'slack', body: HANDSHAKE, timestamp }),
	});
	const events = { bodyFormat: 'json' };

	it('a signed one is answered with its challenge, as text, and starts nothing (it is not an event)', async () => {
		await useScheme('slack', events);
		const answer = await rig.server.post(HANDSHAKE, signedBy(SECRET));
		expect([answer.status, answer.contentType, answer.text]).toEqual([
			200,
			'text/plain; charset=utf-8',
			CHALLENGE,
		]);
		expect(answer.call.result).toEqual({ noWebhookResponse: true });
	});

	it('so also with Respond When the Workflow Finishes, and at the Test URL (the editor keeps listening)', async () => {
		for (const [parameters, mode] of [
			[{ ...events, respond: 'whenFinished' }, 'webhook'],
			[events, 'manual'],
		] as const) {
			await useScheme('slack', parameters, mode);
			const answer = await rig.server.post(HANDSHAKE, signedBy(SECRET));
			expect([answer.status, answer.text, answer.call.result?.workflowData]).toEqual([
				200,
				CHALLENGE,
				undefined,
			]);
		}
	});

	it('a forged one (another secret), or one replayed after the tolerance, is refused and never gets its challenge back', async () => {
		await useScheme('slack', events);
		await rig.refused(
			rig.server.post(HANDSHAKE, signedBy('another-signing-secret')),
			401,
			INVALID,
			'signature_mismatch',
		);
		await rig.refused(
			rig.server.post(HANDSHAKE, signedBy(SECRET, Math.floor(Date.now() / 1000) - 3600)),
			401,
			INVALID,
			'timestamp_out_of_window',
		);
	});

	it("refused at the Test URL, the Refused output says it was Slack's URL check, why, and what Slack shows meanwhile", async () => {
		await useScheme('slack', events, 'manual');
		const answer = await rig.server.post(HANDSHAKE, signedBy('another-signing-secret'));
		expect(answer.status).toBe(401);
		expect(answer.text).not.toContain(CHALLENGE);
		const diagnosis = answer.call.result!.workflowData![1][0].json;
		expect(diagnosis).toMatchObject({
			reason: 'signature_mismatch',
			handshake: "Slack's URL verification (url_verification)",
		});
		expect(diagnosis.summary).toMatch(
			/^Slack's URL verification \(url_verification\) was refused\. The signature does not match/,
		);
		expect(diagnosis.action).toMatch(
			/Slack shows "Your URL didn't respond with the value of the challenge parameter" and sends no event until it passes\.$/,
		);
	});

	it('with Body Format Form Fields (slash commands), the JSON check is refused 415 and the Refused output says so', async () => {
		await useScheme('slack', {}, 'manual');
		const answer = await rig.server.post(HANDSHAKE, signedBy(SECRET));
		expect(answer.status).toBe(415);
		expect(answer.call.result!.workflowData![1][0].json).toMatchObject({
			reason: 'unsupported_media_type',
			handshake: "Slack's URL verification (url_verification)",
		});
	});

	it('an Events API event after it starts the workflow as usual', async () => {
		await useScheme('slack', events);
		const body = JSON.stringify({
			type: 'event_callback',
			event_id: 'Ev01',
			event: { type: 'app_mention' },
		});
		const answer = await rig.server.post(body, {
			...JSON_TYPE,
			...sign({ secret: SECRET, scheme: 'slack', body }),
		});
		expect(startedItems(answer.call)).toEqual([
			expect.objectContaining({
				type: 'event_callback',
				webhookDelivery: expect.objectContaining({ id: 'Ev01' }),
			}),
		]);
	});
});

describe("GitHub's ping", () => {
	const SECRET = demoSecret('github');
	const PING = JSON.stringify({
		zen: 'Keep it logically awesome.',
		hook_id: 42,
		hook: { type: 'Repository' },
	});
	const github = (body: string, event: string) => ({
		...JSON_TYPE,
		'x-github-event': event,
		...sign({ secret: SECRET, scheme: 'github', body }),
	});

	it('a signed ping is answered 200 and starts nothing', async () => {
		await useScheme('github');
		const answer = await rig.server.post(PING, github(PING, 'ping'));
		expect([answer.status, answer.text, answer.call.result]).toEqual([
			200,
			'',
			{ noWebhookResponse: true },
		]);
	});

	it('an event sent with a ping header it was not signed as (the header is not signed) still starts the workflow', async () => {
		await useScheme('github');
		const push = JSON.stringify({ ref: 'refs/heads/main', id: 'evt_push' });
		expect(startedItems((await rig.server.post(push, github(push, 'ping'))).call)).toHaveLength(1);
	});

	it('a forged ping is refused', async () => {
		await useScheme('github');
		await rig.refused(
			rig.server.post(PING, {
				...github(PING, 'ping'),
				'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
			}),
			401,
			INVALID,
			'signature_mismatch',
		);
	});
});

describe('Adyen payments: [accepted] for a batch, once', () => {
	it('a delivery of two items is acknowledged once with [accepted] and starts both', async () => {
		const KEY = demoSecret('adyen-payments');
		await useScheme(schemeOf('adyenPayments'));
		const item = (pspReference: string) => ({
			pspReference,
			merchantAccountCode: 'Acct',
			merchantReference: 'r',
			amount: { value: 1, currency: 'EUR' },
			eventCode: 'AUTHORISATION',
			success: 'true',
		});
		const body = JSON.stringify(
			signAdyenPayments(
				{
					live: 'false',
					notificationItems: [item('PSP1'), item('PSP2')].map((i) => ({
						NotificationRequestItem: i,
					})),
				},
				KEY,
			),
		);
		const answer = await rig.server.post(body, JSON_TYPE);
		expect([answer.status, answer.text]).toEqual([200, '[accepted]']);
		expect(startedItems(answer.call)).toHaveLength(2);
	});
});
