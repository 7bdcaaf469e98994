/**
 * The spellings of a secret: every way a proxy, a client or a sender may write it where it
 * travels. Its bytes as text, or inside base64 or base64url text at any byte offset
 * (`Basic base64("user:" + secret)`); that as is or JSON-escaped (`\/` too); that as is or
 * percent-encoded once or twice (whichever characters the encoder escapes, hex digits in either
 * case); `+` and a space read as each other (a query's `+` reads as a space); all of it in any
 * letter case. The Tenant API Trigger leaves out a header or query parameter that holds a spelling
 * of a credential secret; the Tenant API node replaces those of its Secret Key with `[redacted]`.
 */
import { createHash } from 'crypto';

import { lruEntry } from './lru';

/** The secret's bytes as text, and the part of base64 and base64url text made of them alone. */
function writings(secret: string): string[] {
	const length = Buffer.byteLength(secret, 'utf8');
	// Two zero bytes on each side: at each offset, only the characters whose six bits all come from
	// the secret are kept.
	const padded = Buffer.alloc(length + 4);
	padded.write(secret, 2, 'utf8');
	const written = [secret];
	for (const offset of [0, 1, 2]) {
		const base64 = padded.toString('base64', 2 - offset, padded.length);
		const inside = base64.slice(
			Math.ceil((offset * 8) / 6),
			Math.floor(((offset + length) * 8) / 6),
		);
		written.push(inside, inside.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return written;
}

const hexEscape = (byte: number) => `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;

/** A character percent-encoded: its UTF-8 bytes. */
function escaped(character: string): string {
	const code = character.charCodeAt(0);
	if (code < 0x80) return hexEscape(code);
	return [...Buffer.from(character, 'utf8')].map(hexEscape).join('');
}

/** The ways a text is carried: as is, or percent-encoded once or twice. */
const ENCODINGS = [0, 1, 2];

/**
 * One character (not a letter or digit) in text percent-encoded `times`: as itself or escaped once
 * or twice, `+` and a space for each other; `%` always escaped as often as the text was (so one
 * place has one way to match, and a search stays linear). Longest first.
 */
function characterSpellings(character: string, times: number): string[] {
	if (character === '%') return [`%${'25'.repeat(times)}`];
	const readAs = character === '+' || character === ' ' ? ['+', ' '] : [character];
	const spellings = readAs.flatMap((read) => [
		read,
		...(times > 0 ? [escaped(read)] : []),
		...(times > 1 ? [escaped(read).replace(/%/g, '%25')] : []),
	]);
	return spellings.sort((a, b) => b.length - a.length);
}

const literal = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** The pattern of a text percent-encoded `times`. */
function encodedPattern(text: string, times: number): string {
	return text.replace(
		/[^0-9A-Za-z]/gu,
		(character) => `(?:${characterSpellings(character, times).map(literal).join('|')})`,
	);
}

/** A text as is, JSON-escaped, and JSON-escaped with `\/` for `/`. */
function jsonEscaped(text: string): string[] {
	const escapedText = JSON.stringify(text).slice(1, -1);
	return [text, escapedText, escapedText.replace(/\//g, '\\/')];
}

function build(secrets: readonly string[]): RegExp | undefined {
	const texts = new Set(secrets.flatMap(writings).flatMap(jsonEscaped));
	texts.delete('');
	const patterns = [...texts].flatMap((text) =>
		ENCODINGS.map((times) => encodedPattern(text, times)),
	);
	if (patterns.length === 0) return undefined;
	const unique = [...new Set(patterns)].sort((a, b) => b.length - a.length);
	return new RegExp(unique.join('|'), 'gi');
}

/**
 * The patterns built, by a hash of their secrets: a pattern takes milliseconds to compile, and the
 * trigger asks for one per request. Searches and replacements leave a pattern as they found it, so
 * every execution shares it.
 */
const built = new Map<string, RegExp | undefined>();
const MAX_BUILT_SPELLINGS = 64;

/**
 * One pattern for every spelling of `secrets` (global, any letter case), or undefined when there is
 * none.
 */
export function secretSpellings(secrets: readonly string[]): RegExp | undefined {
	if (secrets.length === 0) return undefined;
	const key = createHash('sha256').update(JSON.stringify(secrets)).digest('hex');
	return lruEntry(built, key, () => build(secrets), MAX_BUILT_SPELLINGS);
}

/** Whether `text` holds a spelling. */
export function holdsSpelling(spellings: RegExp | undefined, text: string): boolean {
	return spellings !== undefined && text.search(spellings) !== -1;
}
