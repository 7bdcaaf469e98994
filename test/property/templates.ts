/**
 * Custom HMAC's Signed Content: templates as a user types them (valid and invalid), and the model's reading of one,
 * from the node's description: placeholders `{body}`, `{timestamp}`, `{id}`, `{url}`, `{header.<name>}` in any
 * letter case, blanks inside the braces allowed; a template is accepted only when the signed text splits back into
 * its parts one way (TEMPLATE_PROBLEMS lists each rule).
 */
import fc from 'fast-check';

import { listOf, pick } from './common';
import type { Format } from './reading';

type Placeholder = 'body' | 'timestamp' | 'id' | 'url';

/** A piece of a template as generated: literal text, a placeholder as spelled inside its braces, a header. */
export type Piece =
	| { literal: string }
	| { placeholder: Placeholder; spelled: string }
	| { header: string; spelled: string };

/** A template as the model reads it. */
export type Part =
	| { kind: 'literal'; text: string }
	| { kind: Placeholder }
	| { kind: 'header'; name: string };

/** What can be wrong with a template (each a rule above). */
export const TEMPLATE_PROBLEMS = listOf(
	'unknown placeholder|body not once and last|two free-text placeholders|free text with form bodies|timestamp twice|placeholders side by side|a digit next to the timestamp',
);
type TemplateProblem = (typeof TEMPLATE_PROBLEMS)[number];

export function templateText(pieces: Piece[]): string {
	return pieces
		.map((piece) => ('literal' in piece ? piece.literal : `{${piece.spelled}}`))
		.join('');
}

/** A placeholder's name as typed (inside the braces): what it stands for, or undefined when nothing. */
function placeholderOf(typed: string): Part | undefined {
	const name = typed.trim().toLowerCase();
	if (name === 'body' || name === 'timestamp' || name === 'id' || name === 'url')
		return { kind: name };
	if (name.startsWith('header.') && name.length > 'header.'.length)
		return { kind: 'header', name: name.slice('header.'.length) };
	return undefined;
}

/**
 * The parts of a template's text: a `{` followed by text without braces and a `}` is a placeholder; every other
 * character is literal. Undefined when a placeholder names nothing.
 */
export function parseTemplate(text: string): Part[] | undefined {
	const parts: Part[] = [];
	let literal = '';
	let at = 0;
	while (at < text.length) {
		const close = text[at] === '{' ? closingBrace(text, at) : -1;
		if (close === -1) {
			literal += text[at];
			at += 1;
			continue;
		}
		const part = placeholderOf(text.slice(at + 1, close));
		if (part === undefined) return undefined;
		if (literal !== '') parts.push({ kind: 'literal', text: literal });
		literal = '';
		parts.push(part);
		at = close + 1;
	}
	if (literal !== '') parts.push({ kind: 'literal', text: literal });
	return parts;
}

/** The `}` closing a placeholder that opens at `open`, or -1 when another `{` (or the end) comes first. */
function closingBrace(text: string, open: number): number {
	for (let at = open + 1; at < text.length; at += 1) {
		if (text[at] === '}') return at;
		if (text[at] === '{') return -1;
	}
	return -1;
}

const isFree = (part: Part) => part.kind === 'id' || part.kind === 'url' || part.kind === 'header';
const count = (parts: Part[], test: (part: Part) => boolean) => parts.filter(test).length;
const startsWithDigit = (part: Part | undefined) =>
	part?.kind === 'literal' && /^[0-9]/.test(part.text);
const endsWithDigit = (part: Part | undefined) =>
	part?.kind === 'literal' && /[0-9]$/.test(part.text);

/** Every rule a template breaks for a body format (none: it splits one way). */
export function templateProblems(text: string, format: Format): TemplateProblem[] {
	const parts = parseTemplate(text);
	if (parts === undefined) return ['unknown placeholder'];
	const problems: TemplateProblem[] = [];
	if (count(parts, (p) => p.kind === 'body') !== 1 || parts[parts.length - 1]?.kind !== 'body')
		problems.push('body not once and last');
	if (count(parts, isFree) > 1) problems.push('two free-text placeholders');
	if (format === 'form' && count(parts, isFree) > 0) problems.push('free text with form bodies');
	if (count(parts, (p) => p.kind === 'timestamp') > 1) problems.push('timestamp twice');
	const sideBySide = parts.some(
		(part, i) =>
			part.kind !== 'literal' &&
			parts[i + 1] !== undefined &&
			parts[i + 1].kind !== 'literal' &&
			!(parts[i + 1].kind === 'body' && format === 'json'),
	);
	if (sideBySide) problems.push('placeholders side by side');
	const touching = parts.some(
		(part, i) =>
			part.kind === 'timestamp' && (endsWithDigit(parts[i - 1]) || startsWithDigit(parts[i + 1])),
	);
	if (touching) problems.push('a digit next to the timestamp');
	return problems;
}

// ---- generated templates ----

/** Literal text between placeholders: separators senders use, a few with digits. */
const SEPARATORS = ['.', ':', '|', '::', ' / ', '-', ',', '\n', 'v0:', '.v1.'];
const DIGIT_TEXTS = ['1', 'v2', '0:'];
const PREFIXES = ['', '', 'v0:', 'hook.', '{', 'sig='];
const HEADERS_SIGNED = ['x-tenant', 'X-Event-Key', 'x-request-path'];

/** How a placeholder is typed: as documented, in upper case, or with blanks inside its braces. */
const spelling = (name: string) => pick(name, name.toUpperCase(), ` ${name} `);

const placeholderPiece = (name: Placeholder): fc.Arbitrary<Piece> =>
	spelling(name).map((spelled) => ({ placeholder: name, spelled }));
const headerPiece: fc.Arbitrary<Piece> = fc
	.record({ name: pick(...HEADERS_SIGNED), upper: fc.boolean() })
	.map(({ name, upper }) => ({
		header: name.toLowerCase(),
		spelled: `${upper ? 'HEADER' : 'header'}.${name}`,
	}));

/** What a template breaks on purpose (most break nothing). */
const BREAKS = listOf(
	'none|unknown placeholder|body elsewhere|no body|body twice|a second free-text placeholder|timestamp twice|no separator|a digit next to the timestamp',
);
type Break = (typeof BREAKS)[number];

const breakOf: fc.Arbitrary<Break> = fc.oneof(
	{ arbitrary: fc.constant('none' as Break), weight: 12 },
	{ arbitrary: pick(...BREAKS.slice(1)), weight: 4 },
);

/** Placeholders joined by separators ('' puts two side by side, allowed only before a JSON body). */
function joined(pieces: Piece[], separators: string[]): Piece[] {
	return pieces.flatMap((piece, index) => {
		const separator = index === 0 ? '' : separators[index % separators.length];
		return separator === '' ? [piece] : [{ literal: separator }, piece];
	});
}

const FREE_PIECES: Record<'id' | 'url' | 'header', fc.Arbitrary<Piece>> = {
	id: placeholderPiece('id'),
	url: placeholderPiece('url'),
	header: headerPiece,
};

/**
 * A Custom HMAC template for a body format: mostly one that splits one way (a free-text placeholder or none, a
 * timestamp or none, separators, `{body}` last, side by side with it for JSON), now and then one that breaks a rule.
 */
export function templates(format: Format): fc.Arbitrary<Piece[]> {
	// Form bodies sign no free text: a template that does breaks a rule, now and then on purpose.
	const free =
		format === 'json'
			? pick<'id' | 'url' | 'header' | undefined>(undefined, 'id', 'url', 'header')
			: fc.oneof(
					{ arbitrary: fc.constant(undefined), weight: 6 },
					{ arbitrary: pick<'id' | 'url' | 'header'>('id', 'url', 'header'), weight: 1 },
				);
	return fc
		.record({
			free,
			timestamp: fc.boolean(),
			freeFirst: fc.boolean(),
			beforeBody: pick('', '.', ':', '.', '|', '.', ':'),
			separators: fc.array(pick(...SEPARATORS), { minLength: 1, maxLength: 3 }),
			prefix: pick(...PREFIXES),
			broken: breakOf,
			digits: pick(...DIGIT_TEXTS),
			digitAfter: fc.boolean(),
		})
		.chain((t) =>
			fc
				.record({
					free: t.free === undefined ? fc.constant(undefined) : FREE_PIECES[t.free],
					second: fc.oneof(FREE_PIECES.id, FREE_PIECES.url, FREE_PIECES.header),
					timestamp: placeholderPiece('timestamp'),
					body: placeholderPiece('body'),
				})
				.map((pieces) => build(format, t, pieces)),
		);
}

interface Shape {
	timestamp: boolean;
	freeFirst: boolean;
	beforeBody: string;
	separators: string[];
	prefix: string;
	broken: Break;
	digits: string;
	digitAfter: boolean;
}

function build(
	format: Format,
	shape: Shape,
	pieces: { free?: Piece; second: Piece; timestamp: Piece; body: Piece },
): Piece[] {
	const { broken } = shape;
	const free =
		pieces.free ?? (broken === 'a second free-text placeholder' ? pieces.second : undefined);
	const heads: Piece[] = [];
	if (free !== undefined) heads.push(free);
	if (shape.timestamp || broken === 'timestamp twice' || broken === 'a digit next to the timestamp')
		heads[shape.freeFirst ? 'push' : 'unshift'](pieces.timestamp);
	if (broken === 'a second free-text placeholder' && pieces.free !== undefined)
		heads.push(pieces.second);
	if (broken === 'timestamp twice') heads.push(pieces.timestamp);
	const separators = broken === 'no separator' ? [''] : shape.separators;
	let out = joined(heads, separators);
	// The separator before a JSON body may be empty; before a form body an empty one breaks a rule.
	const { beforeBody } = shape;
	if (broken === 'a digit next to the timestamp')
		out = withDigits(out, shape.digits, shape.digitAfter);
	const body = broken === 'no body' ? [] : [pieces.body];
	const tail: Piece[] =
		out.length === 0 ? body : [...(beforeBody === '' ? [] : [{ literal: beforeBody }]), ...body];
	out = [...(shape.prefix === '' ? [] : [{ literal: shape.prefix }]), ...out, ...tail];
	if (broken === 'body elsewhere' && out.length > 1)
		out = [pieces.body, { literal: '.' }, ...out.slice(0, -1)];
	if (broken === 'body twice') out = [pieces.body, { literal: '.' }, ...out];
	if (broken === 'unknown placeholder')
		out = [{ placeholder: 'body', spelled: 'boby' } as Piece, ...out];
	return out;
}

/** Digits put right before or after the timestamp placeholder. */
function withDigits(pieces: Piece[], digits: string, after: boolean): Piece[] {
	const at = pieces.findIndex(
		(piece) => 'placeholder' in piece && piece.placeholder === 'timestamp',
	);
	const around = (piece: Piece): Piece[] =>
		after ? [piece, { literal: digits }] : [{ literal: digits }, piece];
	return [...pieces.slice(0, at), ...around(pieces[at]), ...pieces.slice(at + 1)];
}

/** The placeholders a template's pieces hold (each once). */
export function placeholdersOf(pieces: Piece[]): string[] {
	return [
		...new Set(
			pieces.flatMap((piece) =>
				'placeholder' in piece ? [piece.placeholder] : 'header' in piece ? ['header'] : [],
			),
		),
	];
}
