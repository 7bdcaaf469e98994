'use strict';

/**
 * What each sender takes as the answer to a delivery: delivered, or not, and whether it delivers again (the
 * sender's side only: what the trigger answers is nodes/TenantApiTrigger/answers.ts, and the tests check one
 * against the other).
 *
 * - `twilio`: an incoming message or call wants TwiML: a `204`, or a 2xx with the Content-Type `text/xml` or
 *   `application/xml` and a `<Response>` root. Any other 2xx is Twilio's error 12300 Invalid Content-Type (XML of
 *   another root: 12100 Document parse failure), a non-2xx or no answer its error 11200 HTTP retrieval failure.
 *   Twilio does not deliver again after a 2xx, whatever its body (status callbacks, which take any 2xx, are not
 *   modelled: the sandbox plays the stricter incoming message).
 * - `adyen-payments`, `adyen-platform`: any 2xx; the verdict says whether the body held `[accepted]`, which Adyen's
 *   older integrations require (newer ones take any 2xx).
 * - Every other scheme: any 2xx.
 *
 * @import { SigningScheme } from './signing'
 * @typedef {{ status: number|null, contentType: string|null, body: string, error?: string }} Answer what came back
 *   (`status` null: no answer, `error` says why; `body` as text)
 * @typedef {{ accepted: boolean, final: boolean, verdict: string }} Judgement `accepted`: the sender counts the
 *   delivery as made; `final`: the sender does not deliver again (accepted, or answered in a way another attempt
 *   would not change); `verdict`: what the sender makes of the answer, in a few words
 */

/** How much of an answer's body is kept in the attempt log and in results. */
const BODY_EXCERPT = 256;

/** @param {number|null} status */
const is2xx = (status) => status !== null && status >= 200 && status < 300;

/** The media type of a Content-Type header, lower case, without parameters ('' for none). @param {string|null} contentType */
function mediaType(contentType) {
	return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** @param {Answer} answer */
function notAnswered(answer) {
	return answer.status === null
		? `no answer (${answer.error ?? 'unknown error'})`
		: `not accepted (HTTP ${answer.status})`;
}

/** @type {(answer: Answer) => Judgement} any 2xx is a delivery; anything else is delivered again */
function any2xx(answer) {
	return is2xx(answer.status)
		? { accepted: true, final: true, verdict: 'accepted' }
		: { accepted: false, final: false, verdict: notAnswered(answer) };
}

/** A TwiML document: an optional XML declaration and comments, then the `<Response>` element. */
const TWIML = /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<Response[\s/>]/;
const XML_TYPES = ['text/xml', 'application/xml'];

/** @type {(answer: Answer) => Judgement} */
function twilio(answer) {
	if (answer.status === 204)
		return { accepted: true, final: true, verdict: 'accepted: 204 No Content' };
	if (!is2xx(answer.status))
		return {
			accepted: false,
			final: false,
			verdict: `Twilio error 11200 HTTP retrieval failure: ${notAnswered(answer)}`,
		};
	if (!XML_TYPES.includes(mediaType(answer.contentType)))
		return { accepted: false, final: true, verdict: 'Twilio error 12300 Invalid Content-Type' };
	if (!TWIML.test(answer.body))
		return { accepted: false, final: true, verdict: 'Twilio error 12100 Document parse failure' };
	return { accepted: true, final: true, verdict: 'accepted: TwiML' };
}

/** @type {(answer: Answer) => Judgement} */
function adyen(answer) {
	if (!is2xx(answer.status)) return any2xx(answer);
	return {
		accepted: true,
		final: true,
		verdict: answer.body.includes('[accepted]')
			? 'accepted: [accepted]'
			: 'accepted: 2xx without [accepted]',
	};
}

/** @type {Partial<Record<SigningScheme, (answer: Answer) => Judgement>>} the senders that want (or record) more than any 2xx */
const RULES = { twilio, 'adyen-payments': adyen, 'adyen-platform': adyen };

/**
 * What the sender of `scheme` makes of an answer.
 * @param {SigningScheme} scheme
 * @param {Answer} answer
 */
function judgeAnswer(scheme, answer) {
	return (RULES[scheme] ?? any2xx)(answer);
}

/**
 * Whether the sender of `scheme` wants more of an answer than any 2xx, or records more (Twilio, Adyen).
 * @param {SigningScheme} scheme
 */
function hasAnswerRule(scheme) {
	return RULES[scheme] !== undefined;
}

/**
 * An answer in one line: status, Content-Type and the start of the body.
 * @param {Answer} answer
 */
function describeAnswer(answer) {
	if (answer.status === null) return `no answer (${answer.error ?? 'unknown error'})`;
	const body =
		answer.body === ''
			? 'empty body'
			: JSON.stringify(answer.body.length > 80 ? `${answer.body.slice(0, 80)}…` : answer.body);
	return `${answer.status}, ${answer.contentType ?? 'no Content-Type'}, ${body}`;
}

/**
 * A delivery's outcome in one line: `evt_1: 200 after 1 attempt(s): accepted: TwiML [answer: 200, text/xml, "<Response/>"]`.
 * @param {{ eventId: string, attempts: number, verdict: string } & Answer} result
 */
function describeDelivery(result) {
	return `${result.eventId}: ${result.status ?? 'no response'} after ${result.attempts} attempt(s): ${result.verdict} [answer: ${describeAnswer(result)}]`;
}

module.exports = {
	judgeAnswer,
	hasAnswerRule,
	describeAnswer,
	describeDelivery,
	mediaType,
	BODY_EXCERPT,
};
