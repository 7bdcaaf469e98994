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
		'{body}',
		'{timestamp}.{body}',
		'{id}.{timestamp}.{body}',
		'v0:{timestamp}:{body}',
		'{url}{body}',
	])('%s is accepted with JSON bodies', (template) => {
		expect(problemOf(template, 'json')).toBeUndefined();
	});

	it.each(['{body}', '{timestamp}.{body}', 'v0:{timestamp}:{body}'])(
		'%s is accepted with form bodies too',
		(template) => {
			expect(problemOf(template, 'form')).toBeUndefined();
		},
	);

	it.each(['{url}{body}', '{id}.{body}', '{header.x-request-id}.{body}'])(
		'%s is refused with form bodies: a form has no end a reader can fix, so a free-text part could take its start',
		(template) => {
			expect(problemOf(template, 'form')).toBe(
				'form bodies sign only {timestamp}, text and {body}',
			);
		},
	);
});

describe('each rule', () => {
	it.each([
		['no {body}', '{timestamp}.'],
		['{body} not last', '{body}.{timestamp}'],
		['{body} twice', '{body}.{body}'],
	])('{body} once and last: %s is refused', (_name, template) => {
		expect(problemOf(template)).toBe('{body} must come once, at the end');
	});

	it.each([
		['{id} and {url}', '{id}.{url}.{body}'],
		['{url} and a header', '{url}|{header.x-a}.{body}'],
		['two headers', '{header.x-a}.{header.x-b}.{body}'],
	])('at most one free-text placeholder: %s is refused', (_name, template) => {
		expect(problemOf(template)).toBe('at most one of {ID}, {URL} and {header.…} may be signed');
	});

	it('{timestamp} once', () => {
		expect(problemOf('{timestamp}.{timestamp}.{body}')).toBe('{timestamp} may come once');
	});

	it.each([
		['{timestamp}{id}.{body}', 'json'],
		['{id}{timestamp}.{body}', 'json'],
		['{timestamp}{body}', 'form'],
	] as const)(
		'placeholders side by side only directly before a JSON {body}: %s (%s) is refused',
		(template, format) => {
			expect(problemOf(template, format)).toBe('two placeholders need text between them');
		},
	);

	it('{timestamp}{body} and {header.…}{body} are accepted with JSON: a JSON object fixes its own start', () => {
		expect(problemOf('{timestamp}{body}')).toBeUndefined();
		expect(problemOf('{header.x-a}{body}')).toBeUndefined();
	});

	it.each([
		[
			'text after it starting with a digit',
			'{timestamp}1.{body}',
			'the text after {timestamp} must not start with a digit',
		],
		[
			'text before it ending with a digit',
			'v1{timestamp}.{body}',
			'the text before {timestamp} must not end with a digit',
		],
	])(
		'{timestamp} never touches a digit of the literal text: %s is refused',
		(_name, template, problem) => {
			expect(problemOf(template)).toBe(problem);
		},
	);

	it('digits elsewhere in the literal text are fine', () => {
		expect(problemOf('v1:{timestamp}:2.{body}')).toBeUndefined();
	});

	it.each(['{boby}', '{timestamp}.{header.}{body}', '{items}', '{form}'])(
		'a placeholder that does not exist is refused: %s',
		(template) => {
			expect(problemOf(template)).toBe('it names a placeholder that does not exist');
		},
	);

	it('placeholder names are case-insensitive, header names read in lower case', () => {
		expect(problemOf('{ID}.{Header.X-Shop}:{BODY}')).toBe(
			'at most one of {ID}, {URL} and {header.…} may be signed',
		);
		expect(parseSignedContent('{Header.X-Shop}:{Timestamp}.{BODY}', 'json')).toEqual({
			ok: true,
			parts: [
				{ kind: 'header', name: 'x-shop' },
				{ kind: 'literal', text: ':' },
				{ kind: 'timestamp' },
				{ kind: 'literal', text: '.' },
				{ kind: 'body' },
			],
		});
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
		['{item.pspReference}:{item.merchantAccountCode}:{item.amount.value}', 'json', ITEMS],
		['{ITEM.eventCode}.{body}', 'json', ITEMS],
		// Form fields sorted by name, each name followed by its value; with or without the URL.
		['{url}{formFields}', 'form', FORM_FIELDS],
		['{timestamp}.{ formFields }', 'form', FORM_FIELDS],
		['{FormFields}', 'json', FORM_FIELDS],
		// The URL alone, its query carrying the body's SHA-256 (Body Hash Query Parameter).
		['{URL}', 'json', BODY_HASH],
		['{timestamp}.{url}', 'json', BODY_HASH],
		['{url}', 'form', BODY_HASH],
	] as const)('%s (%s) is refused, naming what was removed', (template, format, problem) => {
		expect(problemOf(template, format)).toMatch(problem);
	});

	it('the refusal says which feature, for the Refused item to say what to choose instead', () => {
		const removedOf = (template: string) => {
			const parsed = parseSignedContent(template, 'json');
			return parsed.ok ? 'accepted' : parsed.removed;
		};
		expect(['{item.a}', '{formFields}', '{url}', '{boby}', '{timestamp}.'].map(removedOf)).toEqual([
			'itemSignatures',
			'formFields',
			'bodyHash',
			undefined,
			undefined,
		]);
	});

	it('a typo, or a template without {body} that signs no URL, keeps its own problem', () => {
		expect(problemOf('{boby}')).toBe('it names a placeholder that does not exist');
		expect(problemOf('{timestamp}.')).toBe('{body} must come once, at the end');
		expect(problemOf('{url}.{body}.{url}')).toBe('{body} must come once, at the end');
	});
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
