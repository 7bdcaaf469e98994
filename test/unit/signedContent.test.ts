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

	it.each(['{boby}', '{timestamp}.{header.}{body}', '{formFields}', '{item.pspReference}'])(
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
