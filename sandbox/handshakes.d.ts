/** Type declarations for handshakes.js (kept by hand; the JS file is the source of truth). */
import type { Answer } from './senders';
import type { HandshakeName } from './server';
import type { SigningScheme } from './signing';

export interface HandshakeRequest {
	url: string;
	body: Buffer;
	headers: Record<string, string>;
	/** Slack's challenge, which the answer must give back. */
	challenge?: string;
}

export interface Handshake {
	name: HandshakeName;
	/** How the sender names it: `Slack URL verification`, `GitHub ping`. */
	label: string;
	/** How the events that follow it are posted (Slack's Events API: JSON). */
	eventsBodyFormat: 'json';
	/** The signed request; `challenge`: Slack's (default: random). */
	request(options: { secret: string; url: string; challenge?: string }): HandshakeRequest;
	/** Whether the URL passed, and the sender's words for it. */
	judge(answer: Answer, request: HandshakeRequest): { ok: boolean; verdict: string };
}

/** The handshake the sender of `scheme` makes when a URL is registered: slack (url_verification), github (ping). */
export declare function handshakeOf(scheme: SigningScheme): Handshake | undefined;
export declare const HANDSHAKE_SCHEMES: SigningScheme[];
/** What Slack says while the URL does not answer its challenge. */
export declare const SLACK_FAILED: string;
/** A registration in one line: `Slack URL verification: passed (…)` (what `cli.js register` and `npm start` print). */
export declare function describeRegistration(result: Answer & { label: string; ok: boolean; verdict: string }): string;
