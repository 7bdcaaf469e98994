/**
 * Deliberate defects of the trigger, each a finding the delivery campaign must catch: where it goes (a product source,
 * and the top-level function or constant there), a short piece of code found exactly once in it (blanks and line
 * breaks ignored, so a reflow keeps it) and what to put instead, the row of VERIFICATIONS whose set-ups reach it, and
 * the property meant to catch it. test/property/mutants.ts runs the campaign with each applied (mutantHook.ts, in
 * memory); test/unit/defects.test.ts fails when one no longer applies.
 */
import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';

export interface Patch {
	/** From the repository's root. */
	file: string;
	/** The top-level function or constant of `file` the code is in. */
	within: string;
	find: string;
	replace: string;
}

export interface Defect {
	name: string;
	verification: VerificationName;
	/** The first word of the property's name (campaign.ts `--property`). */
	property: 'mutated' | 'genuine' | 'replayed' | 'arbitrary';
	patches: Patch[];
}

const TRIGGER = 'nodes/TenantApiTrigger';
const AUTHENTICATE = `${TRIGGER}/authenticate.ts`;
const SIGNED_CONTENT = `${TRIGGER}/signedContent.ts`;
const RECEIVE = `${TRIGGER}/receive.ts`;
const IDENTITY = `${TRIGGER}/identity.ts`;
const SETTINGS = `${TRIGGER}/settings.ts`;
const EXACT_JSON = `${TRIGGER}/exactJson.ts`;
const SPELLINGS = 'nodes/shared/secretSpellings.ts';

const patch = (file: string, within: string, find: string, replace = ''): Patch => ({
	file,
	within,
	find,
	replace,
});

export const DEFECTS: Defect[] = [
	{
		name: 'the timestamp window skipped',
		verification: 'timestampedSignatures',
		property: 'replayed',
		patches: [
			patch(
				AUTHENTICATE,
				'authenticateHmac',
				'Math.abs(request.nowSeconds - timestamp) > verification.toleranceSeconds',
				'false',
			),
		],
	},
	{
		name: 'another split of the signed text accepted: two free-text placeholders',
		verification: 'customHmac',
		property: 'replayed',
		patches: [patch(SIGNED_CONTENT, 'ambiguity', 'if (free > 1)', 'if (false)')],
	},
	{
		name: 'another split of the signed text accepted: free text signed with form bodies',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			patch(SIGNED_CONTENT, 'ambiguity', "if (free > 0 && format === 'form')", 'if (false)'),
		],
	},
	{
		name: 'another split of the signed text accepted: a digit next to the timestamp',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			patch(SIGNED_CONTENT, 'ambiguity', 'DIGIT.test(next.text[0])', 'false'),
			patch(SIGNED_CONTENT, 'ambiguity', 'DIGIT.test(before.text.slice(-1))', 'false'),
		],
	},
	{
		name: 'another split of the signed text accepted: placeholders side by side before a form body',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			patch(
				SIGNED_CONTENT,
				'ambiguity',
				"next.kind === 'body' && format === 'json'",
				"next.kind === 'body'",
			),
		],
	},
	{
		name: 'the {body}-last rule dropped',
		verification: 'customHmac',
		property: 'replayed',
		patches: [patch(SIGNED_CONTENT, 'ambiguity', "last?.kind !== 'body'", 'last === undefined')],
	},
	{
		name: 'a padded signed id accepted, its blanks kept',
		verification: 'customHmac',
		property: 'replayed',
		patches: [patch(AUTHENTICATE, 'exactHeader', '|| header.value.trim() !== header.value')],
	},
	{
		name: 'a signed id trimmed',
		verification: 'standardWebhooks',
		property: 'mutated',
		patches: [
			patch(
				AUTHENTICATE,
				'exactHeader',
				"header.value === '' || header.value.trim() !== header.value ? undefined : header",
				"header.value.trim() === '' ? undefined : { ...header, value: header.value.trim() }",
			),
		],
	},
	{
		name: 'the id taken from the ID Header when Signed Content does not sign it',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			patch(
				AUTHENTICATE,
				'authenticateHmac',
				"usesPart(parts, 'id') ? exactHeader(headers, idHeader) : undefined",
				'exactHeader(headers, idHeader)',
			),
		],
	},
	{
		name: "the old default identity kept: the body's id field",
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			patch(
				IDENTITY,
				'deliveryIdentity',
				'const parts = idFields.map(',
				"if (idFields.length === 0) idFields = ['id'];\nconst parts = idFields.map(",
			),
		],
	},
	{
		name: 'the body alone names a delivery whose header or URL is signed too',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			patch(
				IDENTITY,
				'deliveryIdentity',
				'if (beside !== undefined) hash.update(JSON.stringify(beside));',
			),
		],
	},
	{
		name: 'id parts joined unescaped',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [patch(IDENTITY, 'joinIdParts', "parts.map(escape).join(':')", "parts.join(':')")],
	},
	{
		name: 'digests compared on their first half only',
		verification: 'hmacSha512',
		property: 'mutated',
		patches: [
			patch(
				`${TRIGGER}/signatureHeader.ts`,
				'constantTimeEqual',
				'timingSafeEqual(a, b)',
				'timingSafeEqual(a.subarray(0, a.length / 2), b.subarray(0, b.length / 2))',
			),
		],
	},
	{
		name: 'the body read per Content-Type',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			patch(
				RECEIVE,
				'receiveDelivery',
				"if (!mediaTypeFits(format, mediaType(request.headers))) return refuse('unsupported_media_type');",
				'const fits = mediaTypeFits(format, mediaType(request.headers));',
			),
			patch(
				RECEIVE,
				'receiveDelivery',
				'readBody(format, rawBody)',
				"readBody(fits ? format : format === 'json' ? 'form' : 'json', rawBody)",
			),
		],
	},
	{
		name: 'the body read before the request is authenticated',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			patch(
				RECEIVE,
				'receiveDelivery',
				'const passed = authenticate(',
				'if (request.rawBody !== undefined) {\nconst early = readBody(format, request.rawBody);\nif (!early.ok) return refusal(early.reason, format);\n}\nconst passed = authenticate(',
			),
		],
	},
	{
		name: 'secrets looked for in header names and values in their own letter case only',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [patch(SPELLINGS, 'build', "'gi')", "'g')")],
	},
	{
		name: 'secrets looked for only as written: no other spelling',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			patch(
				SPELLINGS,
				'build',
				'new Set(secrets.flatMap(writings).flatMap(jsonEscaped))',
				'new Set(secrets)',
			),
			patch(
				SPELLINGS,
				'build',
				'ENCODINGS.map((times) => encodedPattern(text, times))',
				'[literal(text)]',
			),
		],
	},
	{
		name: 'secrets not looked for inside base64',
		verification: 'standardWebhooks',
		property: 'mutated',
		patches: [
			patch(
				SPELLINGS,
				'writings',
				"written.push(inside, inside.replace(/\\+/g, '-').replace(/\\//g, '_'));",
			),
		],
	},
	{
		name: 'secrets looked for percent-encoded once at most',
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [patch(SPELLINGS, 'ENCODINGS', '[0, 1, 2]', '[0, 1]')],
	},
	{
		name: "a secret's + not read as a space",
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [
			patch(
				SPELLINGS,
				'characterSpellings',
				"character === '+' || character === ' ' ? ['+', ' '] : [character]",
				'[character]',
			),
		],
	},
	{
		name: 'secrets not looked for JSON-escaped',
		verification: 'hmacSha512',
		property: 'mutated',
		patches: [
			patch(
				SPELLINGS,
				'jsonEscaped',
				"return [text, escapedText, escapedText.replace(/\\//g, '\\\\/')];",
				'return [text];',
			),
		],
	},
	{
		name: 'only the secrets the URL accepts kept out of the output',
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [
			patch(
				RECEIVE,
				'outputItem',
				'const { verification, credentialSecrets: secrets = [] } = settings;',
				"const { verification } = settings;\nconst secrets = settings.acceptedSecrets.flatMap((secret) => (typeof secret === 'string' && secret.trim() !== '' ? [secret.trim()] : []));",
			),
		],
	},
	{
		name: 'svix- headers accepted for Standard Webhooks',
		verification: 'standardWebhooks',
		property: 'mutated',
		patches: [
			patch(
				`${TRIGGER}/verifications.ts`,
				'ROWS',
				"signatureHeader: ['webhook-signature']",
				"signatureHeader: ['webhook-signature', 'svix-signature']",
			),
			patch(
				`${TRIGGER}/verifications.ts`,
				'ROWS',
				"idHeader: ['webhook-id']",
				"idHeader: ['webhook-id', 'svix-id']",
			),
			patch(
				`${TRIGGER}/verifications.ts`,
				'ROWS',
				"timestampHeader: ['webhook-timestamp']",
				"timestampHeader: ['webhook-timestamp', 'svix-timestamp']",
			),
		],
	},
	{
		name: 'the Test URL accepts the production secrets beside its own',
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [patch(SETTINGS, 'secretsOf', '[undefined, undefined, test]', 'all')],
	},
	{
		name: 'the test secret accepted at the Production URL',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [patch(SETTINGS, 'secretsOf', ': all.slice(0, 2)', ': all')],
	},
	{
		name: 'a Body Format left from another Verification read under Standard Webhooks',
		verification: 'standardWebhooks',
		property: 'genuine',
		patches: [patch(SETTINGS, 'settingsFromParameters', "settings.includes('bodyFormat') &&")],
	},
	{
		name: 'the shared key compared in any letter case',
		verification: 'secretHeader',
		property: 'mutated',
		patches: [
			patch(
				AUTHENTICATE,
				'authenticate',
				'constantTimeTextEqual(shared, secret)',
				'constantTimeTextEqual(shared.toLowerCase(), secret.toLowerCase())',
			),
		],
	},
	{
		name: 'a top-level webhookDelivery field not refused',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			patch(
				RECEIVE,
				'receiveDelivery',
				'Object.prototype.hasOwnProperty.call(body.object, WEBHOOK_DELIVERY_FIELD)',
				'false',
			),
		],
	},
	{
		name: 'the unsigned query beside the body',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			patch(
				RECEIVE,
				'outputItem',
				'body[WEBHOOK_DELIVERY_FIELD] = delivery;',
				'Object.assign(body, request.query);\nbody[WEBHOOK_DELIVERY_FIELD] = delivery;',
			),
		],
	},
	{
		name: 'JSON.parse instead of the exact reader',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			patch(
				EXACT_JSON,
				'parseExactJson',
				'if (!MAY_BE_INEXACT.test(text) && !NUMBER_FIRST.test(text))',
			),
		],
	},
	{
		name: 'the exact reading skipped for numbers with an exponent',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			patch(
				EXACT_JSON,
				'VALUE_THAT_MAY_BE_INEXACT',
				'(?=-?(?:\\d+(?:\\.\\d+)?[eE]|(?:\\d\\.?){16}))',
				'(?=-?(?:\\d\\.?){16})',
			),
		],
	},
	{
		name: 'digits in a string taken for a value: the text read with doubles instead',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			patch(
				EXACT_JSON,
				'parseExactJson',
				'return JSON.parse(quoteNumbers(text, VALUE_THAT_MAY_BE_INEXACT, isInexact, true));',
				'return JSON.parse(text);',
			),
		],
	},
	{
		name: 'strings skipped by a pattern that gives up past 1,000 escapes (as V8 gives up past a few million)',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			patch(
				EXACT_JSON,
				'afterString',
				'function afterString(text: string, open: number): number {',
				'function afterString(text: string, open: number): number {\nconst string = /"[^"\\\\]*(?:\\\\.[^"\\\\]*){0,1000}"/y;\nstring.lastIndex = open;\nif (!string.test(text)) throw new RangeError(\'Maximum call stack size exceeded\');\nreturn string.lastIndex;\n',
			),
		],
	},
	{
		name: 'form fields percent-decoded leniently',
		verification: 'none',
		property: 'mutated',
		patches: [patch(`${TRIGGER}/body.ts`, 'formText', 'return undefined;', 'return text;')],
	},
];

const escaped = (character: string) => character.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * Where a top-level function or constant of a source is: from its declaration to the next line that starts a
 * top-level one (a line that begins with a letter, or a comment's `/`).
 */
function extent(source: string, name: string): [number, number] | undefined {
	const start = new RegExp(`^(?:export )?(?:async )?(?:function|const|let) ${name}\\b`, 'm').exec(
		source,
	)?.index;
	if (start === undefined) return undefined;
	const next = /^[A-Za-z/]/gm;
	next.lastIndex = source.indexOf('\n', start) + 1;
	return [start, next.exec(source)?.index ?? source.length];
}

/**
 * A source with a defect's patches to it applied; throws when a patch's code is no longer found exactly once in the
 * function or constant it names (blanks and line breaks ignored).
 */
export function patched(defect: Defect, file: string, source: string): string {
	return defect.patches
		.filter((patch) => patch.file === file)
		.reduce((text, { within, find, replace }) => {
			const where = extent(text, within);
			const code = new RegExp([...find.replace(/\s+/g, '')].map(escaped).join('\\s*'), 'g');
			const found = where === undefined ? [] : [...text.slice(...where).matchAll(code)];
			if (where === undefined || found.length !== 1)
				throw new Error(
					`defect "${defect.name}": ${file} no longer holds, once in ${within}: ${find}`,
				);
			const at = where[0] + (found[0].index ?? 0);
			return text.slice(0, at) + replace + text.slice(at + found[0][0].length);
		}, source);
}
