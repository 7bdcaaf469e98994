'use strict';

const crypto = require('node:crypto');
const { sign } = require('./signing');
const { mediaType, describeAnswer } = require('./senders');

/**
 * The request a sender makes when a URL is registered with it, before any event, and what it takes as a pass (the
 * sender's side of the trigger's HANDSHAKES in nodes/TenantApiTrigger/answers.ts):
 *
 * - `slack`: Event Subscriptions' URL verification: a signed JSON body `{"token", "challenge", "type":
 *   "url_verification"}`. Verified only by a `200` whose body is the challenge: as text, as a `challenge=<value>`
 *   form or as JSON `{"challenge": "<value>"}` (by the answer's Content-Type); else Slack says "Your URL didn't
 *   respond with the value of the challenge parameter." and sends no event. The Events API posts JSON after it.
 * - `github`: the ping of a new webhook (`X-GitHub-Event: ping`, a body with `zen`, `hook_id` and `hook`), signed
 *   like every delivery; any 2xx passes.
 *
 * @import { SigningScheme } from './signing'
 * @import { Answer } from './senders'
 * @typedef {'slack-url-verification'|'github-ping'} HandshakeName
 * @typedef {{ url: string, body: Buffer, headers: Record<string, string>, challenge?: string }} HandshakeRequest
 * @typedef {{ secret: string, url: string, challenge?: string }} HandshakeOptions `challenge`: Slack's (default: random)
 * @typedef {{
 *   name: HandshakeName, label: string, eventsBodyFormat: 'json',
 *   request: (options: HandshakeOptions) => HandshakeRequest,
 *   judge: (answer: Answer, request: HandshakeRequest) => { ok: boolean, verdict: string },
 * }} Handshake `label`: how the sender names it; `eventsBodyFormat`: how the events that follow it are posted
 */

const JSON_TYPE = 'application/json';

/** Slack's message while the URL does not answer its challenge. */
const SLACK_FAILED = "Your URL didn't respond with the value of the challenge parameter.";

/**
 * The challenge an answer carries, read by its Content-Type: JSON, form fields, else the text itself.
 * @param {Answer} answer
 * @returns {string|undefined}
 */
function challengeIn(answer) {
	const type = mediaType(answer.contentType);
	if (type === JSON_TYPE) {
		try {
			const parsed = JSON.parse(answer.body);
			return typeof parsed?.challenge === 'string' ? parsed.challenge : undefined;
		} catch {
			return undefined;
		}
	}
	if (type === 'application/x-www-form-urlencoded')
		return new URLSearchParams(answer.body).get('challenge') ?? undefined;
	return answer.body.trim();
}

/** @type {Handshake} */
const slackUrlVerification = {
	name: 'slack-url-verification',
	label: 'Slack URL verification',
	eventsBodyFormat: 'json',
	request({ secret, url, challenge = crypto.randomBytes(36).toString('base64url') }) {
		const body = Buffer.from(
			JSON.stringify({ token: 'sandboxVerificationToken', challenge, type: 'url_verification' }),
			'utf8',
		);
		return {
			url,
			body,
			headers: { 'content-type': JSON_TYPE, ...sign({ secret, scheme: 'slack', body }) },
			challenge,
		};
	},
	judge(answer, request) {
		const ok = answer.status === 200 && challengeIn(answer) === request.challenge;
		return { ok, verdict: ok ? 'URL verified' : SLACK_FAILED };
	},
};

const GITHUB_HOOK_ID = 424242;

/** @type {Handshake} */
const githubPing = {
	name: 'github-ping',
	label: 'GitHub ping',
	eventsBodyFormat: 'json',
	request({ secret, url }) {
		const hook = {
			type: 'Repository',
			id: GITHUB_HOOK_ID,
			name: 'web',
			active: true,
			events: ['*'],
			config: { content_type: 'json', insecure_ssl: '0', url },
		};
		const body = Buffer.from(
			JSON.stringify({ zen: 'Design for failure.', hook_id: GITHUB_HOOK_ID, hook }),
			'utf8',
		);
		const headers = {
			'content-type': JSON_TYPE,
			'x-github-event': 'ping',
			'x-github-hook-id': String(GITHUB_HOOK_ID),
			...sign({ secret, scheme: 'github', body, id: crypto.randomUUID() }),
		};
		return { url, body, headers };
	},
	judge(answer) {
		if (answer.status !== null && answer.status >= 200 && answer.status < 300)
			return { ok: true, verdict: 'Last delivery was successful.' };
		const why =
			answer.status === null
				? "Couldn't connect to server."
				: `Invalid HTTP Response: ${answer.status}`;
		return { ok: false, verdict: `Last delivery was not successful. ${why}` };
	},
};

/** @type {Partial<Record<SigningScheme, Handshake>>} */
const HANDSHAKES = { slack: slackUrlVerification, github: githubPing };

/**
 * The handshake the sender of `scheme` makes when a URL is registered, if any.
 * @param {SigningScheme} scheme
 */
function handshakeOf(scheme) {
	return HANDSHAKES[scheme];
}

/** The schemes whose sender makes a handshake. @type {SigningScheme[]} */
const HANDSHAKE_SCHEMES = /** @type {SigningScheme[]} */ (Object.keys(HANDSHAKES));

/**
 * A registration in one line: `Slack URL verification: passed: URL verified [answer: 200, text/plain, "…"]`.
 * @param {{ label: string, ok: boolean, verdict: string } & Answer} result
 */
function describeRegistration(result) {
	return `${result.label}: ${result.ok ? 'passed' : 'failed'}: ${result.verdict} [answer: ${describeAnswer(result)}]`;
}

module.exports = { handshakeOf, describeRegistration, HANDSHAKE_SCHEMES, SLACK_FAILED };
