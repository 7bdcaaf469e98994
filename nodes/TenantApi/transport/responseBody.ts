/** Turns the raw response bytes into JSON, or a reason a person can act on. */
import { redactParsed, redactText } from './secretRedaction';

export type DecodedBody = { ok: true; value: unknown } | { ok: false; reason: string };

/** A short, tag-free excerpt of a non-JSON answer (HTML error pages say little but their title). */
function excerpt(text: string, max = 200): string {
	const plain = text
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return plain.length > max ? `${plain.slice(0, max)}…` : plain;
}

/** One decoder for all: making one per answer (an ICU converter) costs more than a small body. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

/**
 * Decodes UTF-8 JSON and removes the Secret Key (its `spellings`) from it. The text is redacted
 * before parsing, which costs one search of the text; only text with `\u` escapes (which could
 * spell the secret out) is also walked after parsing.
 */
export function decodeJsonBody(
	bytes: Buffer | undefined,
	contentType: unknown,
	spellings: RegExp | undefined,
): DecodedBody {
	if (!bytes || bytes.length === 0) return { ok: true, value: undefined };
	let text: string;
	try {
		text = utf8.decode(bytes);
	} catch {
		return { ok: false, reason: 'The response body is not valid UTF-8 text, so it cannot be JSON' };
	}
	if (text.trim() === '') return { ok: true, value: undefined };
	const redacted = redactText(text, spellings);
	let parsed = tryParse(redacted);
	let walk = text.includes('\\u');
	if (!parsed.ok && redacted !== text) {
		// The secret straddled JSON syntax, so the redacted text no longer parses: parse, then walk.
		parsed = tryParse(text);
		walk = true;
	}
	if (parsed.ok)
		return { ok: true, value: walk ? redactParsed(parsed.value, spellings) : parsed.value };
	const type =
		typeof contentType === 'string' && contentType ? ` (${contentType.split(';')[0]})` : '';
	return { ok: false, reason: `The response is not JSON${type}: "${excerpt(redacted)}"` };
}
