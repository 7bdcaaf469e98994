import type { IDataObject } from 'n8n-workflow';

import type { HeaderBag } from './verifier';
import { headerValue } from './verifier';

/** An answer the trigger sends itself (docs/trigger.md, "What the sender gets back"). */
export interface Answer {
	status: number;
	contentType?: string;
	body?: string;
}

/** The answer every sender accepts: 200 with an empty body. */
export const EMPTY_OK: Answer = { status: 200 };

/** What Twilio expects back for an incoming message or call (any 2xx for a status callback): TwiML without instructions. */
export const EMPTY_TWIML: Answer = {
	status: 200,
	contentType: 'text/xml; charset=utf-8',
	body: '<?xml version="1.0" encoding="UTF-8"?><Response/>',
};

/** Adyen's acknowledgement (NotificationResponse): `[accepted]` in the body of a 2xx. */
export const ADYEN_ACCEPTED: Answer = {
	status: 200,
	contentType: 'text/plain; charset=utf-8',
	body: '[accepted]',
};

export type HandshakeName = 'slackUrlVerification' | 'githubPing';

/**
 * A request a sender makes before it delivers events, to check the URL. It is verified like any delivery, answered
 * as the sender expects, and never starts the workflow (it is not an event).
 */
export interface Handshake {
	/** How the Refused output and the docs name it. */
	label: string;
	/** What the sender does while its handshake is refused (said on the Refused output). */
	whileRefused: string;
	/** The answer when a verified request is this handshake (its signed body, its headers), else undefined. */
	answer(signed: IDataObject, headers: HeaderBag): Answer | undefined;
	/** Whether a refused request looks like it: its headers and the first bytes of its body, nothing verified. */
	looksLike(headers: HeaderBag, body: Buffer | undefined): boolean;
}

/** Slack's challenges are short text; anything else is not echoed. */
const CHALLENGE = /^[\x21-\x7e]{1,512}$/;
/** How far into a refused body a handshake's marker is looked for. */
const MARKER_WINDOW = 4096;

const bodyHas = (body: Buffer | undefined, marker: string) =>
	body !== undefined && body.subarray(0, MARKER_WINDOW).includes(marker);

export const HANDSHAKES: Record<HandshakeName, Handshake> = {
	slackUrlVerification: {
		label: "Slack's URL verification (url_verification)",
		whileRefused:
			'Slack shows "Your URL didn\'t respond with the value of the challenge parameter" and sends no event until it passes.',
		answer: (signed) =>
			signed.type === 'url_verification' &&
			typeof signed.challenge === 'string' &&
			CHALLENGE.test(signed.challenge)
				? { status: 200, contentType: 'text/plain; charset=utf-8', body: signed.challenge }
				: undefined,
		looksLike: (headers, body) =>
			headerValue(headers, 'x-slack-signature') !== undefined &&
			bodyHas(body, '"url_verification"'),
	},
	githubPing: {
		label: "GitHub's ping",
		whileRefused: 'GitHub marks the ping as failed in Recent Deliveries; it still sends events.',
		answer: (signed, headers) =>
			headerValue(headers, 'x-github-event')?.trim() === 'ping' && typeof signed.zen === 'string'
				? EMPTY_OK
				: undefined,
		looksLike: (headers) => headerValue(headers, 'x-github-event')?.trim() === 'ping',
	},
};
