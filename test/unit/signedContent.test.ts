/**
 * Custom HMAC's Signed Content (nodes/TenantApiTrigger/signedContent.ts): a template is accepted only when the
 * signed text splits back into its parts one way, so no byte of a captured delivery can move from one part to
 * another under the same signature. Each rule once, accepted and refused; the templates senders use.
 */
import type { BodyFormat } from '../../nodes/TenantApiTrigger/body';
import { parseSignedContent, renderParts } from '../../nodes/TenantApiTrigger/signedContent';

const problemOf = (template: string, format: BodyFormat = 'json') => {
	const parsed = parseSignedContent(template, format);
	return parsed.ok ? undefined : parsed.problem;
};

describe('the templates senders sign', () => {
	it.each([
		['{body}', ['json', 'form']],
		['{timestamp}.{body}', ['json', 'form']],
		['v0:{timestamp}:{body}', ['json', 'form']],
		['{id}.{timestamp}.{body}', ['json']],
		['{url}{body}', ['json']],
	] as const)('%s is accepted with %j bodies', (template, formats) => {
		for (const format of formats) expect(problemOf(template, format)).toBeUndefined();
	});

	it.each(['{timestamp}{body}', '{header.x-a}{body}', 'v1:{timestamp}:2.{body}'])(
		'%s is accepted with JSON: a JSON object fixes its own start; digits away from {timestamp} are fine',
		(template) => {
			expect(problemOf(template)).toBeUndefined();
		},
	);
});

describe('each rule, and a template it refuses', () => {
	/** Each rule's problem, and templates it refuses (with JSON bodies, unless a format is given). */
	const REFUSED: Array<[string, Array<string | [string, BodyFormat]>]> = [
		[
			'{body} must come once, at the end',
			['{timestamp}.', '{body}.{timestamp}', '{body}.{body}', '{url}.{body}.{url}'],
		],
		[
			'at most one of {ID}, {URL} and {header.…} may be signed',
			['{id}.{url}.{body}', '{url}|{header.x-a}.{body}', '{header.x-a}.{header.x-b}.{body}'],
		],
		// A form has no end a reader can fix, so a free-text part could take its start.
		[
			'form bodies sign only {timestamp}, text and {body}',
			[
				['{url}{body}', 'form'],
				['{id}.{body}', 'form'],
				['{header.x-request-id}.{body}', 'form'],
			],
		],
		['{timestamp} may come once', ['{timestamp}.{timestamp}.{body}']],
		[
			'two placeholders need text between them',
			['{timestamp}{id}.{body}', '{id}{timestamp}.{body}', ['{timestamp}{body}', 'form']],
		],
		['the text after {timestamp} must not start with a digit', ['{timestamp}1.{body}']],
		['the text before {timestamp} must not end with a digit', ['v1{timestamp}.{body}']],
		[
			'it names a placeholder that does not exist',
			['{boby}', '{timestamp}.{header.}{body}', '{items}', '{form}'],
		],
	];

	it.each(
		REFUSED.flatMap(([problem, templates]) =>
			templates.map((template) =>
				typeof template === 'string' ? [template, 'json', problem] : [...template, problem],
			),
		),
	)('%s (%s) is refused: %s (no removed feature)', (template, format, problem) => {
		expect(parseSignedContent(template, format as BodyFormat)).toEqual({ ok: false, problem });
	});
});

describe('Custom HMAC features earlier versions had, as a saved Signed Content still holds them', () => {
	const ITEMS =
		/^\{item\.…\} signs fields of each body item, .*\(Signature Location\), which this version removed$/;
	const FORM_FIELDS = /^\{formFields\} signs form fields one by one, which this version removed$/;
	const BODY_HASH =
		/^it signs \{URL\} without \{body\}, and a body hash in the signed URL \(Body Hash Query Parameter\) is no longer read$/;

	it.each([
		// The signed fields of each body item, with the signature inside the item.
		[
			'{item.pspReference}:{item.merchantAccountCode}:{item.amount.value}',
			'json',
			ITEMS,
			'itemSignatures',
		],
		['{ITEM.eventCode}.{body}', 'json', ITEMS, 'itemSignatures'],
		// Form fields sorted by name, each name followed by its value; with or without the URL.
		['{url}{formFields}', 'form', FORM_FIELDS, 'formFields'],
		['{timestamp}.{ formFields }', 'form', FORM_FIELDS, 'formFields'],
		['{FormFields}', 'json', FORM_FIELDS, 'formFields'],
		// The URL alone, its query carrying the body's SHA-256 (Body Hash Query Parameter).
		['{URL}', 'json', BODY_HASH, 'bodyHash'],
		['{timestamp}.{url}', 'json', BODY_HASH, 'bodyHash'],
		['{url}', 'form', BODY_HASH, 'bodyHash'],
	] as const)(
		'%s (%s) is refused, naming what was removed (for the Refused item to say what to choose instead)',
		(template, format, problem, removed) => {
			expect(parseSignedContent(template, format)).toEqual({
				ok: false,
				problem: expect.stringMatching(problem),
				removed,
			});
		},
	);
});

it('renders each part in order: the body bytes as they are, every other placeholder its value', () => {
	const parsed = parseSignedContent('{url}|{timestamp}.{body}', 'json');
	if (!parsed.ok) throw new Error(parsed.problem);
	const body = Buffer.from('{"a":1}');
	const rendered = renderParts(parsed.parts, {
		body,
		timestamp: '1700000000',
		url: 'https://x/h?a=1',
	});
	expect(rendered).toEqual(['https://x/h?a=1', '|', '1700000000', '.', body]);
	expect(rendered[4]).toBe(body);
});
