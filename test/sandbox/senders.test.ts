/**
 * The sandbox plays each sender's side of an answer (sandbox/senders.js) and of a registration (sandbox/handshakes.js),
 * checked here against answers written by hand and against the trigger's own answers (nodes/TenantApiTrigger/answers.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Answer as ProductAnswer } from '../../nodes/TenantApiTrigger/answers';
import {
	ADYEN_ACCEPTED,
	EMPTY_OK,
	EMPTY_TWIML,
	HANDSHAKES,
} from '../../nodes/TenantApiTrigger/answers';
import { SLACK_FAILED, describeRegistration, handshakeOf } from '../../sandbox/handshakes';
import type { Answer } from '../../sandbox/senders';
import { describeDelivery, judgeAnswer } from '../../sandbox/senders';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { SCHEMES, demoSecret } from '../../sandbox/signing';
import { configForScheme, verifyReceived } from '../harness/verifier';
import { control, startReceiver, type Received } from './helpers';

const answer = (status: number | null, contentType: string | null = null, body = ''): Answer => ({
	status,
	contentType,
	body,
	...(status === null ? { error: 'ECONNREFUSED' } : {}),
});
/** The product's answer as its sender gets it (no Content-Type header when it sets none). */
const asSent = (product: ProductAnswer): Answer =>
	answer(product.status, product.contentType ?? null, product.body ?? '');

describe('what each sender makes of an answer', () => {
	const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

	it.each([
		[answer(204), true, true, 'accepted: 204 No Content'],
		[answer(200, 'text/xml', TWIML), true, true, 'accepted: TwiML'],
		[
			answer(
				201,
				'application/xml; charset=utf-8',
				'<!-- reply --><Response><Message>Hi</Message></Response>',
			),
			true,
			true,
			'accepted: TwiML',
		],
		[answer(200), false, true, 'Twilio error 12300 Invalid Content-Type'],
		[
			answer(200, 'application/json', '{"message":"Workflow was started"}'),
			false,
			true,
			'Twilio error 12300 Invalid Content-Type',
		],
		[answer(200, 'text/plain', TWIML), false, true, 'Twilio error 12300 Invalid Content-Type'],
		[
			answer(200, 'text/xml', '<Responses/>'),
			false,
			true,
			'Twilio error 12100 Document parse failure',
		],
		[
			answer(500, 'text/xml', TWIML),
			false,
			false,
			'Twilio error 11200 HTTP retrieval failure: not accepted (HTTP 500)',
		],
		[
			answer(null),
			false,
			false,
			'Twilio error 11200 HTTP retrieval failure: no answer (ECONNREFUSED)',
		],
	])(
		'Twilio (an incoming message): %j → accepted %s, final %s: %s',
		(got, accepted, final, verdict) => {
			expect(judgeAnswer('twilio', got)).toEqual({ accepted, final, verdict });
		},
	);

	it.each(['adyen-payments', 'adyen-platform'] as const)(
		'Adyen (%s): any 2xx, with or without [accepted] (which the verdict records)',
		(scheme) => {
			expect(judgeAnswer(scheme, answer(200, 'text/plain', '[accepted]'))).toEqual({
				accepted: true,
				final: true,
				verdict: 'accepted: [accepted]',
			});
			expect(judgeAnswer(scheme, answer(200))).toEqual({
				accepted: true,
				final: true,
				verdict: 'accepted: 2xx without [accepted]',
			});
			expect(judgeAnswer(scheme, answer(401, 'application/json', '[accepted]'))).toEqual({
				accepted: false,
				final: false,
				verdict: 'not accepted (HTTP 401)',
			});
		},
	);

	it.each(SCHEMES.filter((scheme) => scheme !== 'twilio' && !scheme.startsWith('adyen')))(
		'%s: any 2xx',
		(scheme) => {
			expect(judgeAnswer(scheme, answer(200, 'text/html', '<p>whatever</p>'))).toEqual({
				accepted: true,
				final: true,
				verdict: 'accepted',
			});
			expect(judgeAnswer(scheme, answer(204))).toMatchObject({ accepted: true });
			expect(judgeAnswer(scheme, answer(302))).toEqual({
				accepted: false,
				final: false,
				verdict: 'not accepted (HTTP 302)',
			});
			expect(judgeAnswer(scheme, answer(null))).toEqual({
				accepted: false,
				final: false,
				verdict: 'no answer (ECONNREFUSED)',
			});
		},
	);

	it("the trigger's answers are what their senders accept: Twilio's empty TwiML, Adyen's [accepted], an empty 200 for the others", () => {
		expect(judgeAnswer('twilio', asSent(EMPTY_TWIML))).toEqual({
			accepted: true,
			final: true,
			verdict: 'accepted: TwiML',
		});
		expect(judgeAnswer('adyen-payments', asSent(ADYEN_ACCEPTED)).verdict).toBe(
			'accepted: [accepted]',
		);
		expect(judgeAnswer('stripe', asSent(EMPTY_OK)).accepted).toBe(true);
		// With Respond When the Workflow Finishes n8n answers Twilio 204 with no body.
		expect(judgeAnswer('twilio', answer(204)).accepted).toBe(true);
	});
});

let sb: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
afterEach(async () => {
	await sb.settle();
	await receiver?.close();
	receiver = undefined;
	sb.reset();
});

describe('deliveries judged as their sender does', () => {
	it('Twilio: a 2xx that is not TwiML is recorded as error 12300 and not delivered again; a 500 is, until TwiML comes back', async () => {
		receiver = await startReceiver([
			{
				status: 200,
				headers: { 'content-type': 'application/json' },
				body: '{"message":"Workflow was started"}',
			},
			500,
			{ status: 200, headers: { 'content-type': 'text/xml' }, body: '<Response/>' },
		]);
		sb.configureWebhook({ url: receiver.url, scheme: 'twilio', maxAttempts: 3, retryDelayMs: 1 });
		const refused = await sb.deliver('messages.received');
		expect(refused).toEqual({
			eventId: 'evt_1',
			ok: false,
			attempts: 1,
			status: 200,
			contentType: 'application/json',
			body: '{"message":"Workflow was started"}',
			verdict: 'Twilio error 12300 Invalid Content-Type',
		});
		const accepted = await sb.deliver('messages.received');
		expect(accepted).toMatchObject({
			eventId: 'evt_2',
			ok: true,
			attempts: 2,
			status: 200,
			contentType: 'text/xml',
			body: '<Response/>',
			verdict: 'accepted: TwiML',
		});
		expect(describeDelivery(accepted)).toBe(
			'evt_2: 200 after 2 attempt(s): accepted: TwiML [answer: 200, text/xml, "<Response/>"]',
		);
		expect(
			sb
				.deliveries()
				.map(({ eventId, attempt, status, verdict }) => [eventId, attempt, status, verdict]),
		).toEqual([
			['evt_1', 1, 200, 'Twilio error 12300 Invalid Content-Type'],
			['evt_2', 1, 500, 'Twilio error 11200 HTTP retrieval failure: not accepted (HTTP 500)'],
			['evt_2', 2, 200, 'accepted: TwiML'],
		]);
		expect(sb.stats().deliveries).toEqual({ attempts: 3, succeeded: 1, failed: 1, pending: 0 });
	});

	it('Adyen: the attempt log records whether the body said [accepted]', async () => {
		receiver = await startReceiver([
			{ status: 200, headers: { 'content-type': 'text/plain' }, body: '[accepted]' },
			{ status: 202, body: '' },
		]);
		sb.configureWebhook({ url: receiver.url, scheme: 'adyen-payments' });
		await sb.deliver('AUTHORISATION');
		await sb.deliver('AUTHORISATION');
		expect(
			sb
				.deliveries()
				.map(({ status, contentType, body, verdict }) => ({ status, contentType, body, verdict })),
		).toEqual([
			{
				status: 200,
				contentType: 'text/plain',
				body: '[accepted]',
				verdict: 'accepted: [accepted]',
			},
			{ status: 202, contentType: null, body: '', verdict: 'accepted: 2xx without [accepted]' },
		]);
	});

	it('the attempt log keeps the first 256 characters of a body', async () => {
		receiver = await startReceiver([{ status: 200, body: 'x'.repeat(100_000) }]);
		const result = await sb.deliver('big.answer', { url: receiver.url });
		expect(result.body).toBe('x'.repeat(256));
	});
});

describe('registration: the handshake a sender makes before it delivers events', () => {
	const SLACK_SECRET = demoSecret('slack');
	/** The challenge of Slack's handshake as the receiver got it. */
	const challengeOf = (got: Received) => String(JSON.parse(got.body.toString('utf8')).challenge);
	/** Slack's handshake is a signed JSON url_verification, verified as the trigger does with Body Format JSON. */
	const expectSlackHandshake = (got: Received) => {
		expect(
			verifyReceived(configForScheme('slack', [SLACK_SECRET], { bodyFormat: 'json' }), got),
		).toMatchObject({ ok: true });
		expect(got.headers['content-type']).toBe('application/json');
		expect(JSON.parse(got.body.toString('utf8'))).toEqual({
			token: expect.any(String),
			challenge: expect.stringMatching(/^[\x21-\x7e]{16,}$/),
			type: 'url_verification',
		});
	};

	it.each([
		[
			'text',
			(challenge: string) => ({
				status: 200,
				headers: { 'content-type': 'text/plain' },
				body: challenge,
			}),
		],
		[
			'a challenge= form',
			(challenge: string) => ({
				status: 200,
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: `challenge=${encodeURIComponent(challenge)}`,
			}),
		],
		[
			'JSON',
			(challenge: string) => ({
				status: 200,
				headers: { 'content-type': 'application/json; charset=utf-8' },
				body: JSON.stringify({ challenge }),
			}),
		],
	])(
		'Slack: a signed url_verification; the URL is verified by a 200 with the challenge as %s',
		async (_form, answerWith) => {
			receiver = await startReceiver([(got) => answerWith(challengeOf(got))]);
			const result = await sb.register({
				url: receiver.url,
				scheme: 'slack',
				secrets: [SLACK_SECRET],
			});
			expectSlackHandshake(receiver.received[0]);
			expect(result).toMatchObject({
				scheme: 'slack',
				handshake: 'slack-url-verification',
				label: 'Slack URL verification',
				ok: true,
				status: 200,
				verdict: 'URL verified',
			});
			expect(describeRegistration(result)).toMatch(
				/^Slack URL verification: passed: URL verified \[answer: 200, /,
			);
		},
	);

	it.each<
		[
			string,
			(challenge: string) => { status: number; headers?: Record<string, string>; body: string },
		]
	>([
		[
			'another status',
			(challenge: string) => ({
				status: 201,
				headers: { 'content-type': 'text/plain' },
				body: challenge,
			}),
		],
		['an empty 200', () => ({ status: 200, body: '' })],
		[
			'another text',
			() => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' }),
		],
		[
			'JSON without it',
			() => ({
				status: 200,
				headers: { 'content-type': 'application/json' },
				body: '{"message":"Workflow was started"}',
			}),
		],
		[
			'a refusal',
			() => ({
				status: 401,
				headers: { 'content-type': 'application/json' },
				body: '{"message":"Invalid signature"}',
			}),
		],
	])("Slack: %s fails with Slack's message", async (_what, answerWith) => {
		receiver = await startReceiver([(got) => answerWith(challengeOf(got))]);
		const result = await sb.register({
			url: receiver.url,
			scheme: 'slack',
			secrets: [SLACK_SECRET],
		});
		expectSlackHandshake(receiver.received[0]);
		expect(result).toMatchObject({ ok: false, verdict: SLACK_FAILED });
		expect(describeRegistration(result)).toMatch(
			/^Slack URL verification: failed: Your URL didn't respond with the value of the challenge parameter\. \[answer: /,
		);
	});

	it("Slack: the trigger's answer to its handshake verifies the URL", async () => {
		receiver = await startReceiver([
			(got) => {
				const product = HANDSHAKES.slackUrlVerification.answer(
					JSON.parse(got.body.toString('utf8')) as IDataObject,
					got.headers as Record<string, string>,
				)!;
				return {
					status: product.status,
					headers: { 'content-type': product.contentType! },
					body: product.body,
				};
			},
		]);
		expect(await sb.register({ url: receiver.url, scheme: 'slack' })).toMatchObject({
			ok: true,
			verdict: 'URL verified',
		});
	});

	it('GitHub: a signed ping (X-GitHub-Event: ping, zen, hook_id, hook), passed by any 2xx', async () => {
		const secret = demoSecret('github');
		receiver = await startReceiver([204, 500]);
		const passed = await sb.register({ url: receiver.url, scheme: 'github', secrets: [secret] });
		expect(passed).toMatchObject({
			handshake: 'github-ping',
			label: 'GitHub ping',
			ok: true,
			status: 204,
			verdict: 'Last delivery was successful.',
		});
		const got = receiver.received[0];
		expect(got.headers).toMatchObject({
			'content-type': 'application/json',
			'x-github-event': 'ping',
			'x-github-delivery': expect.stringMatching(/^[0-9a-f-]{36}$/),
		});
		const ping = JSON.parse(got.body.toString('utf8'));
		expect(ping).toMatchObject({
			zen: expect.any(String),
			hook_id: expect.any(Number),
			hook: { type: 'Repository', config: { url: receiver.url, content_type: 'json' } },
		});
		expect(verifyReceived(configForScheme('github', [secret]), got)).toMatchObject({ ok: true });
		// The trigger recognises it as GitHub's ping.
		expect(HANDSHAKES.githubPing.answer(ping, got.headers as Record<string, string>)).toEqual(
			EMPTY_OK,
		);
		expect(
			await sb.register({ url: receiver.url, scheme: 'github', secrets: [secret] }),
		).toMatchObject({
			ok: false,
			status: 500,
			verdict: 'Last delivery was not successful. Invalid HTTP Response: 500',
		});
	});

	it('a sender without a handshake cannot register; a handshake is neither an event nor a delivery attempt', async () => {
		receiver = await startReceiver();
		await expect(sb.register({ url: receiver.url, scheme: 'stripe' })).rejects.toThrow(
			/the stripe sender makes no handshake \(those that do: slack, github\)/,
		);
		expect(handshakeOf('twilio')).toBeUndefined();
		await sb.register({ url: receiver.url, scheme: 'github' });
		expect([sb.deliveries(), sb.stats().deliveries]).toEqual([
			[],
			{ attempts: 0, succeeded: 0, failed: 0, pending: 0 },
		]);
	});

	it('POST /_sandbox/register: 409 without a URL, 400 for a sender without a handshake, else the outcome', async () => {
		receiver = await startReceiver([(got) => ({ status: 200, body: challengeOf(got) })]);
		sb.configureWebhook(null);
		expect((await control(sb, 'register', {})).status).toBe(409);
		const refused = await control(sb, 'register', { url: receiver.url, scheme: 'square' });
		expect([refused.status, (await refused.json()).error.code]).toEqual([400, 'invalid_webhook']);
		sb.configureWebhook({ url: receiver.url, scheme: 'slack' });
		const res = await control(sb, 'register');
		expect(res.status).toBe(404); // GET: registration is a POST
		const registered = await control(sb, 'register', {});
		expect([registered.status, await registered.json()]).toEqual([
			200,
			expect.objectContaining({
				scheme: 'slack',
				ok: true,
				status: 200,
				contentType: null,
				verdict: 'URL verified',
			}),
		]);
	});
});
