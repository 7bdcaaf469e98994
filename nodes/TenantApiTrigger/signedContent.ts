/**
 * The signed content of an HMAC scheme as a template of byte-exact parts: `{body}` (the request
 * bytes), `{timestamp}`, `{id}`, `{url}`, `{header.<name>}` and literal text
 * (`{id}.{timestamp}.{body}`).
 *
 * A template is accepted only when its text splits back into its parts one way, so that no byte of
 * a captured delivery can move from one part to another under the same signature (a new body, a new
 * id):
 * - `{body}` once, as the last part. A JSON object cannot be a proper suffix of another JSON
 *   object, nor a prefix of one, so the body of a JSON delivery is fixed by the signed text alone.
 * - At most one part that may hold any text (`{id}`, `{url}`, `{header.…}`), and none with form
 *   bodies, whose end no reader can fix: such a part takes what the fixed parts around it leave.
 * - Placeholders side by side only directly before a JSON `{body}`; literal text elsewhere.
 * - `{timestamp}` (digits) never touches a digit of the literal text around it.
 *
 * Custom HMAC features of earlier versions that re-cut a delivery's content under one signature are
 * refused by name (REMOVED_FEATURES).
 */
import type { BodyFormat } from './body';

/** Placeholder names are case-insensitive (`{URL}` = `{url}`). */
const PLACEHOLDERS = ['body', 'timestamp', 'id', 'url'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export type SignedPart =
	| { kind: 'literal'; text: string }
	| { kind: Placeholder }
	| { kind: 'header'; name: string };

const PLACEHOLDER = /\{([^{}]*)\}/g;
const HEADER_PREFIX = 'header.';

/**
 * Custom HMAC features earlier versions had, as a saved workflow still holds them: n8n drops the
 * parameters a node no longer describes (Signature Location, Items Path, Body Hash Query Parameter)
 * when it runs the workflow, so the Signed Content is what is left of them. Each let a captured
 * delivery be re-cut into other content under the same signature; each is refused, named, with what
 * to choose instead.
 */
export const REMOVED_FEATURES = {
	itemSignatures: {
		problem:
			'{item.…} signs fields of each body item, with the signature inside the item (Signature Location), which this version removed',
		instead:
			'A signature inside the body is not read: if the sender also signs the whole body in a header, choose HMAC of the Body, or a Signed Content that ends in {body}.',
	},
	formFields: {
		problem: '{formFields} signs form fields one by one, which this version removed',
		instead:
			'Sign the form as sent: {body} in place of {formFields} (e.g. {timestamp}.{body}) with Body Format Form Fields, when the sender signs the bytes it posts.',
	},
	bodyHash: {
		problem:
			'it signs {URL} without {body}, and a body hash in the signed URL (Body Hash Query Parameter) is no longer read',
		instead:
			'End Signed Content with {body} (e.g. {URL}{body} with JSON bodies), so that the signature covers the body.',
	},
} as const;

export type RemovedFeature = keyof typeof REMOVED_FEATURES;

/** The removed feature a placeholder name (trimmed, lower case) stood for. */
function removedPlaceholder(lower: string): RemovedFeature | undefined {
	if (lower === 'formfields') return 'formFields';
	return lower.startsWith('item.') ? 'itemSignatures' : undefined;
}

function placeholderPart(name: string): SignedPart | undefined {
	const lower = name.trim().toLowerCase();
	const placeholder = PLACEHOLDERS.find((known) => known === lower);
	if (placeholder !== undefined) return { kind: placeholder };
	if (lower.startsWith(HEADER_PREFIX) && lower.length > HEADER_PREFIX.length)
		return { kind: 'header', name: lower.slice(HEADER_PREFIX.length) };
	return undefined;
}

/**
 * The parts of a template, or the first placeholder name that does not exist (`{boby}`), trimmed
 * and in lower case.
 */
function parseParts(template: string): SignedPart[] | { unknown: string } {
	const parts: SignedPart[] = [];
	let last = 0;
	for (const match of template.matchAll(PLACEHOLDER)) {
		const index = match.index ?? 0;
		if (index > last) parts.push({ kind: 'literal', text: template.slice(last, index) });
		const part = placeholderPart(match[1]);
		if (part === undefined) return { unknown: match[1].trim().toLowerCase() };
		parts.push(part);
		last = index + match[0].length;
	}
	if (last < template.length) parts.push({ kind: 'literal', text: template.slice(last) });
	return parts;
}

const DIGIT = /\d/;

/** Why the parts do not split one way (see the module comment), or undefined when they do. */
function ambiguity(parts: SignedPart[], format: BodyFormat): string | undefined {
	const last = parts[parts.length - 1];
	if (last?.kind !== 'body' || parts.filter((part) => part.kind === 'body').length !== 1)
		return '{body} must come once, at the end';
	// Parts that may hold any text.
	const free = parts.filter((part) => ['id', 'url', 'header'].includes(part.kind)).length;
	if (free > 1) return 'at most one of {ID}, {URL} and {header.…} may be signed';
	if (free > 0 && format === 'form') return 'form bodies sign only {timestamp}, text and {body}';
	if (parts.filter((part) => part.kind === 'timestamp').length > 1)
		return '{timestamp} may come once';
	for (const [index, part] of parts.entries()) {
		const next = parts[index + 1];
		if (part.kind === 'literal' || next === undefined) continue;
		if (next.kind !== 'literal' && !(next.kind === 'body' && format === 'json'))
			return 'two placeholders need text between them';
		if (part.kind === 'timestamp' && next.kind === 'literal' && DIGIT.test(next.text[0]))
			return 'the text after {timestamp} must not start with a digit';
		const before = parts[index - 1];
		if (
			part.kind === 'timestamp' &&
			before?.kind === 'literal' &&
			DIGIT.test(before.text.slice(-1))
		)
			return 'the text before {timestamp} must not end with a digit';
	}
	return undefined;
}

export type SignedContent =
	| { ok: true; parts: SignedPart[] }
	| { ok: false; problem: string; removed?: RemovedFeature };

const refusedAs = (removed: RemovedFeature): SignedContent => ({
	ok: false,
	problem: REMOVED_FEATURES[removed].problem,
	removed,
});

/** A template read for a body format: its parts, or what is wrong with it. */
export function parseSignedContent(template: string, format: BodyFormat): SignedContent {
	const parts = parseParts(template);
	if (!Array.isArray(parts)) {
		const removed = removedPlaceholder(parts.unknown);
		if (removed !== undefined) return refusedAs(removed);
		return { ok: false, problem: 'it names a placeholder that does not exist' };
	}
	// Signing the URL alone was an earlier version's way to sign a body through its hash.
	if (usesPart(parts, 'url') && !usesPart(parts, 'body')) return refusedAs('bodyHash');
	const problem = ambiguity(parts, format);
	return problem === undefined ? { ok: true, parts } : { ok: false, problem };
}

export function usesPart(parts: SignedPart[], kind: SignedPart['kind']): boolean {
	return parts.some((part) => part.kind === kind);
}

/** The value of every placeholder for one delivery (a header by name). */
export interface SignedValues {
	body: Buffer;
	timestamp?: string;
	id?: string;
	url?: string;
	header?: string;
}

/** The bytes of each part, in order (the body passed as it is, never copied). */
export function renderParts(parts: SignedPart[], values: SignedValues): Array<Buffer | string> {
	return parts.map((part) => (part.kind === 'literal' ? part.text : (values[part.kind] ?? '')));
}
