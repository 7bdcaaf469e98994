/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Each sender gets the answer it expects from a real n8n (2.x and 1.x) with the packed package, from its first request:
 * the sandbox acts like the sender (sandbox/handshakes.js, sandbox/senders.js): it registers the URL the way Slack does,
 * and posts a Twilio incoming SMS and Adyen notifications; the tests read what n8n sent on the wire (status,
 * Content-Type, body) with each Respond setting, what the sender makes of it, and the executions n8n lists (none for a
 * handshake). The trigger is the example workflow `npm start -- --scheme <scheme>` imports (scripts/start.js), and the
 * outcome lines are the ones it prints. What the trigger answers itself (GitHub's ping, a forged handshake, every
 * sender's acknowledgement) is proven in test/engine/triggerAnswers.test.ts.
 */
import * as crypto from 'node:crypto';
import * as http from 'node:http';

import type { IDataObject, IWorkflowBase } from 'n8n-workflow';

import { handshakeOf } from '../../sandbox/handshakes';
import type { Answer } from '../../sandbox/senders';
import { judgeAnswer } from '../../sandbox/senders';
import type { Sandbox } from '../../sandbox/server';
import type { SigningScheme } from '../../sandbox/signing';
import { sign } from '../../sandbox/signing';
import type { N8nInstance } from '../../scripts/n8n/instance';
import type { ApiExecution, SuiteSetUp, WorkflowBody } from './helpers';
import { executionsUntil, publishTrigger, readExample, setUpSuite, startLib } from './helpers';

const suffix = crypto.randomBytes(4).toString('hex');
const SECRETS = {
	slack: `slack_signing_${suffix}`,
	twilio: `twilio_auth_token_${suffix}`,
	'adyen-payments': crypto.randomBytes(32).toString('hex'),
} as const;
type Sender = keyof typeof SECRETS;

const CHALLENGE = `3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P${suffix}`;
const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const TRIGGER = 'Tenant API Trigger';
/** The Content-Type of n8n's own answer with Respond When the Workflow Finishes (its body is empty). */
const JSON_TYPE = 'application/json; charset=utf-8';

let suite: SuiteSetUp;
let n8n: N8nInstance;
let sandbox: Sandbox;
const credentials = {} as Record<Sender, { id: string; name: string }>;

beforeAll(async () => {
	suite = await setUpSuite({ name: 'senders' });
	({ n8n, sandbox } = suite);
	await n8n.start();
	for (const [sender, signingSecret] of Object.entries(SECRETS) as Array<[Sender, string]>) {
		const created = await n8n.api<{ id: string; name: string }>('POST', '/credentials', {
			name: `Tenant Webhook (${sender})`,
			type: 'tenantWebhookApi',
			data: { signingSecret, previousSigningSecret: '' },
		});
		expect(created.status).toBe(200);
		credentials[sender] = { id: created.json!.id, name: created.json!.name };
	}
}, 240_000);

afterAll(async () => suite?.tearDown(), 60_000);

/** The example trigger workflow as `npm start -- --scheme <scheme>` imports it, with a webhook of its own and `respond`. */
function senderWorkflow(
	sender: Sender,
	respond: 'onReceipt' | 'whenFinished' = 'onReceipt',
): WorkflowBody {
	const example = startLib.triggerWorkflowFor(
		readExample('webhook-trigger'),
		sender,
	) as IWorkflowBase;
	const webhookId = crypto.randomUUID();
	const nodes = example.nodes.map((node) =>
		node.type.endsWith('.tenantApiTrigger')
			? {
					...node,
					webhookId,
					parameters: { ...node.parameters, respond },
					credentials: { tenantWebhookApi: credentials[sender] },
				}
			: node,
	);
	return {
		name: `${sender}, respond ${respond}, ${webhookId}`,
		nodes,
		connections: example.connections,
		settings: example.settings,
	};
}

/** n8n's Webhook URL of a path: what Twilio signs (n8n's public URL, localhost, not the address the test posts to). */
const publicUrl = (path: string) => `http://localhost:${n8n.port}${path}`;

/** The sandbox set up as `npm start` sets it up for the sender, delivering to `path`, one attempt per delivery. */
function actAs(sender: Sender, path: string, secret: string = SECRETS[sender]): void {
	const scheme: SigningScheme = sender;
	sandbox.configureWebhook({
		url: n8n.url + path,
		scheme,
		secrets: [secret],
		signedUrl: publicUrl(path),
		bodyFormat: startLib.demoBodyFormat(scheme) ?? null,
		maxAttempts: 1,
	});
}

/** POSTs bytes to n8n and reads its answer off the wire: status, Content-Type header (null: none), body as text. */
function wire(
	path: string,
	body: Buffer | string,
	headers: Record<string, string>,
): Promise<Answer> {
	const bytes = Buffer.from(body);
	return new Promise((resolve, reject) => {
		const req = http.request(
			n8n.url + path,
			{ method: 'POST', headers: { ...headers, 'content-length': String(bytes.length) } },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? null,
						contentType: res.headers['content-type'] ?? null,
						body: Buffer.concat(chunks).toString('utf8'),
					}),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(bytes);
	});
}

/** What the trigger started an execution with. */
const triggerItems = (execution: ApiExecution): IDataObject[] =>
	(execution.data.resultData.runData[TRIGGER]?.[0].data?.main[0] ?? []).map((item) => item.json);

/** The workflow's executions once `count` are listed and every one has ended. */
const executions = (workflowId: string, count: number) =>
	executionsUntil(n8n, workflowId, (list) => list.length >= count);

/** Once the execution of the event sent last is listed: each execution's status and the ids of the items it started with. */
const startedIds = async (workflowId: string) =>
	(await executions(workflowId, 1)).map((execution) => [
		execution.status,
		triggerItems(execution).map((item) => item.id),
	]);

/** A Twilio incoming SMS: the form fields Twilio posts, signed with the auth token over n8n's Webhook URL. */
function incomingSms(
	path: string,
	body: string,
): { body: string; headers: Record<string, string> } {
	const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
	const fields = new URLSearchParams({
		ToCountry: 'US',
		ToState: 'CA',
		SmsMessageSid: sid,
		NumMedia: '0',
		ToCity: '',
		FromZip: '',
		SmsSid: sid,
		FromState: 'CA',
		SmsStatus: 'received',
		FromCity: '',
		Body: body,
		FromCountry: 'US',
		To: '+15005550006',
		ToZip: '',
		NumSegments: '1',
		MessageSid: sid,
		AccountSid: `AC${'0'.repeat(32)}`,
		From: '+15551234567',
		ApiVersion: '2010-04-01',
	}).toString();
	const contentType = 'application/x-www-form-urlencoded';
	return {
		body: fields,
		headers: {
			'content-type': contentType,
			...sign({
				secret: SECRETS.twilio,
				scheme: 'twilio',
				body: fields,
				url: publicUrl(path),
				contentType,
			}),
		},
	};
}

describe("Slack's URL verification (Event Subscriptions)", () => {
	const slack = handshakeOf('slack')!;

	test('at the Production URL: 200 with the challenge as text/plain, URL verified, no execution; the Events API event after it starts the workflow', async () => {
		const { workflowId, path } = await publishTrigger(n8n, senderWorkflow('slack'));
		const request = slack.request({
			secret: SECRETS.slack,
			url: n8n.url + path,
			challenge: CHALLENGE,
		});
		const answer = await wire(path, request.body, request.headers);
		expect(answer).toEqual({
			status: 200,
			contentType: 'text/plain; charset=utf-8',
			body: CHALLENGE,
		});
		expect(slack.judge(answer, request)).toEqual({ ok: true, verdict: 'URL verified' });
		// What `npm start -- --scheme slack` prints, after the same registration with a fresh challenge.
		actAs('slack', path);
		expect(await startLib.senderCheck(sandbox, 'slack')).toMatch(
			/^Slack URL verification: passed: URL verified \[answer: 200, text\/plain; charset=utf-8, "[^"]+"\]$/,
		);
		// The trigger's own empty answer (Respond On Receipt): no Content-Type, unlike n8n's below.
		expect(
			await sandbox.deliver({ id: 'Ev_after_verification', event: 'app_mention' }),
		).toMatchObject({ ok: true, status: 200, contentType: null, body: '', verdict: 'accepted' });
		const listed = await executions(workflowId, 1);
		expect(listed.map(triggerItems)).toEqual([
			[
				expect.objectContaining({
					id: 'Ev_after_verification',
					webhookDelivery: expect.objectContaining({ verification: 'slack', bodyType: 'json' }),
				}),
			],
		]);
	});

	test('with Respond When the Workflow Finishes: the challenge all the same, no execution', async () => {
		const { workflowId, path } = await publishTrigger(n8n, senderWorkflow('slack', 'whenFinished'));
		actAs('slack', path);
		expect(await sandbox.register()).toMatchObject({
			ok: true,
			status: 200,
			contentType: 'text/plain; charset=utf-8',
			verdict: 'URL verified',
		});
		// n8n's own answer once the workflow succeeded: 200, no body, yet a JSON Content-Type.
		expect(await sandbox.deliver({ id: 'Ev_when_finished', event: 'app_mention' })).toMatchObject({
			ok: true,
			status: 200,
			contentType: JSON_TYPE,
			body: '',
			verdict: 'accepted',
		});
		expect(await startedIds(workflowId)).toEqual([['success', ['Ev_when_finished']]]);
	});
});

describe('Twilio: an incoming SMS', () => {
	test('Respond On Receipt: 200 text/xml with an empty TwiML <Response/>, which Twilio accepts; the workflow gets the message', async () => {
		const { workflowId, path } = await publishTrigger(n8n, senderWorkflow('twilio'));
		const sms = incomingSms(path, 'Hello on receipt');
		const answer = await wire(path, sms.body, sms.headers);
		expect(answer).toEqual({ status: 200, contentType: 'text/xml; charset=utf-8', body: TWIML });
		expect(judgeAnswer('twilio', answer)).toEqual({
			accepted: true,
			final: true,
			verdict: 'accepted: TwiML',
		});
		// What `npm start -- --scheme twilio` prints for its first delivery (the sandbox's event as Twilio-signed form fields).
		actAs('twilio', path);
		expect(await startLib.senderCheck(sandbox, 'twilio')).toMatch(
			/^first delivery evt_\d+: 200 after 1 attempt\(s\): accepted: TwiML \[answer: 200, text\/xml; charset=utf-8, /,
		);
		const started = await executions(workflowId, 2);
		expect(started.map((execution) => execution.status)).toEqual(['success', 'success']);
		expect(
			started
				.flatMap(triggerItems)
				.map((item) => item.Body ?? item.event)
				.sort(),
		).toEqual(['Hello on receipt', 'sandbox.ping']);
	});

	test('Respond When the Workflow Finishes: 204 once the workflow succeeded, which Twilio accepts', async () => {
		const { workflowId, path } = await publishTrigger(
			n8n,
			senderWorkflow('twilio', 'whenFinished'),
		);
		const sms = incomingSms(path, 'Hello when finished');
		const answer = await wire(path, sms.body, sms.headers);
		expect(answer).toEqual({ status: 204, contentType: null, body: '' });
		expect(judgeAnswer('twilio', answer)).toEqual({
			accepted: true,
			final: true,
			verdict: 'accepted: 204 No Content',
		});
		const listed = await executions(workflowId, 1);
		expect(
			listed.map((execution) => [
				execution.status,
				triggerItems(execution).map((item) => item.Body),
			]),
		).toEqual([['success', ['Hello when finished']]]);
	});
});

describe('Adyen: a payments notification', () => {
	const notification = {
		event: 'AUTHORISATION',
		data: { object: { id: 'order_1001', amount: 1999, currency: 'EUR' } },
	};

	test('Respond On Receipt: 200 with [accepted]', async () => {
		const { workflowId, path } = await publishTrigger(n8n, senderWorkflow('adyen-payments'));
		actAs('adyen-payments', path);
		expect(await sandbox.deliver(notification)).toMatchObject({
			ok: true,
			status: 200,
			contentType: 'text/plain; charset=utf-8',
			body: '[accepted]',
			verdict: 'accepted: [accepted]',
		});
		// What `npm start -- --scheme adyen-payments` prints for its first delivery.
		expect(await startLib.senderCheck(sandbox, 'adyen-payments')).toMatch(
			/^first delivery evt_\d+: 200 after 1 attempt\(s\): accepted: \[accepted\] \[answer: 200, text\/plain; charset=utf-8, "\[accepted\]"\]$/,
		);
		const started = await executions(workflowId, 2);
		expect(started.map((execution) => [execution.status, triggerItems(execution).length])).toEqual([
			['success', 1],
			['success', 1],
		]);
	});

	test('Respond When the Workflow Finishes: an empty 200, which Adyen accepts without [accepted]', async () => {
		const { workflowId, path } = await publishTrigger(
			n8n,
			senderWorkflow('adyen-payments', 'whenFinished'),
		);
		actAs('adyen-payments', path);
		expect(await sandbox.deliver(notification)).toMatchObject({
			ok: true,
			status: 200,
			contentType: JSON_TYPE,
			body: '',
			verdict: 'accepted: 2xx without [accepted]',
		});
		expect((await executions(workflowId, 1)).map((execution) => execution.status)).toEqual([
			'success',
		]);
	});
});
