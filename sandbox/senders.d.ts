/** Type declarations for senders.js (kept by hand; the JS file is the source of truth). */
import type { SigningScheme } from './signing';

/** An answer as the sender got it: `status` null when there was none (`error` says why), the body as text. */
export interface Answer {
	status: number | null;
	contentType: string | null;
	body: string;
	error?: string;
}

/** What the sender makes of an answer: delivered or not, whether it delivers again, in a few words. */
export interface Judgement {
	accepted: boolean;
	/** The sender does not deliver again: accepted, or answered in a way another attempt would not change (Twilio's 2xx). */
	final: boolean;
	verdict: string;
}

/** How much of an answer's body the attempt log and results keep. */
export declare const BODY_EXCERPT: number;
/** What the sender of `scheme` makes of an answer (Twilio: TwiML or 204; Adyen: any 2xx, `[accepted]` noted; else any 2xx). */
export declare function judgeAnswer(scheme: SigningScheme, answer: Answer): Judgement;
/** Whether the sender of `scheme` wants (or records) more than any 2xx: Twilio, Adyen. */
export declare function hasAnswerRule(scheme: SigningScheme): boolean;
/** An answer in one line: status, Content-Type, the start of the body. */
export declare function describeAnswer(answer: Answer): string;
/** The media type of a Content-Type header, lower case, without parameters ('' for none). */
export declare function mediaType(contentType: string | null): string;
/** A delivery's outcome in one line (what `cli.js deliver` prints). */
export declare function describeDelivery(result: Answer & { eventId: string; attempts: number; verdict: string }): string;
