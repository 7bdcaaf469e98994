/**
 * Deliberate defects of the trigger, each a finding the delivery campaign must catch: its text in a product source
 * (found exactly once) and what to put instead, the row of SCHEMES whose set-ups reach it, and the property meant to
 * catch it. test/property/mutants.ts runs the campaign with each applied (mutantHook.ts, in memory).
 */
import type { SchemeName } from '../../nodes/TenantApiTrigger/schemes';

export interface Patch {
	/** From the repository's root. */
	file: string;
	find: string;
	replace: string;
}

export interface Defect {
	name: string;
	verification: SchemeName;
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
const SPELLINGS = 'nodes/shared/secretSpellings.ts';

export const DEFECTS: Defect[] = [
	{
		name: 'the timestamp window skipped',
		verification: 'timestampedSignatures',
		property: 'replayed',
		patches: [
			{
				file: AUTHENTICATE,
				find: "\t\tif (Math.abs(request.nowSeconds - seen.timestamp) > signing.toleranceSeconds)\n\t\t\treturn 'timestamp_out_of_window';\n",
				replace: '',
			},
		],
	},
	{
		name: 'another split of the signed text accepted: two free-text placeholders',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			{
				file: SIGNED_CONTENT,
				find: "\tif (free > 1) return 'at most one of {ID}, {URL} and {header.…} may be signed';\n",
				replace: '',
			},
		],
	},
	{
		name: 'another split of the signed text accepted: free text signed with form bodies',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			{
				file: SIGNED_CONTENT,
				find: "\tif (free > 0 && format === 'form') return 'form bodies sign only {timestamp}, text and {body}';\n",
				replace: '',
			},
		],
	},
	{
		name: 'another split of the signed text accepted: a digit next to the timestamp',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			{
				file: SIGNED_CONTENT,
				find: "\t\tif (part.kind === 'timestamp' && next.kind === 'literal' && DIGIT.test(next.text[0]))\n\t\t\treturn 'the text after {timestamp} must not start with a digit';\n",
				replace: '',
			},
			{
				file: SIGNED_CONTENT,
				find: "\t\tif (\n\t\t\tpart.kind === 'timestamp' &&\n\t\t\tbefore?.kind === 'literal' &&\n\t\t\tDIGIT.test(before.text.slice(-1))\n\t\t)\n\t\t\treturn 'the text before {timestamp} must not end with a digit';\n",
				replace: '',
			},
		],
	},
	{
		name: 'another split of the signed text accepted: placeholders side by side before a form body',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			{
				file: SIGNED_CONTENT,
				find: "!(next.kind === 'body' && format === 'json')",
				replace: "!(next.kind === 'body')",
			},
		],
	},
	{
		name: 'the {body}-last rule dropped',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			{
				file: SIGNED_CONTENT,
				find: "if (last?.kind !== 'body' || parts.filter((part) => part.kind === 'body').length !== 1)",
				replace:
					"if (last === undefined || parts.filter((part) => part.kind === 'body').length !== 1)",
			},
		],
	},
	{
		name: 'a padded signed id accepted, its blanks kept',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			{
				file: AUTHENTICATE,
				find: "\treturn value === undefined || value === '' || value.trim() !== value ? undefined : value;",
				replace: "\treturn value === undefined || value === '' ? undefined : value;",
			},
		],
	},
	{
		name: 'a signed id trimmed',
		verification: 'standardWebhooks',
		property: 'mutated',
		patches: [
			{
				file: AUTHENTICATE,
				find: "\treturn value === undefined || value === '' || value.trim() !== value ? undefined : value;",
				replace: "\treturn value === undefined || value.trim() === '' ? undefined : value.trim();",
			},
		],
	},
	{
		name: 'the id taken from the ID Header when Signed Content does not sign it',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			{
				file: AUTHENTICATE,
				find: "\tif (usesPart(parts, 'id')) {\n\t\tvalues.id = exactHeader(request.headers, signing.idHeader);\n\t\tif (values.id === undefined || values.id.length > MAX_ID_LENGTH) return 'missing_id';\n\t}",
				replace:
					"\tvalues.id = exactHeader(request.headers, signing.idHeader);\n\tif (usesPart(parts, 'id') && (values.id === undefined || values.id.length > MAX_ID_LENGTH))\n\t\treturn 'missing_id';",
			},
		],
	},
	{
		name: "the old default identity kept: the body's id field",
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			{
				file: IDENTITY,
				find: '\tconst parts = idFields.map((path) =>\n',
				replace:
					"\tif (idFields.length === 0) idFields = ['id'];\n\tconst parts = idFields.map((path) =>\n",
			},
		],
	},
	{
		name: 'the body alone names a delivery whose header or URL is signed too',
		verification: 'customHmac',
		property: 'replayed',
		patches: [
			{
				file: IDENTITY,
				find: '\tif (beside !== undefined) hash.update(JSON.stringify(beside));\n',
				replace: '',
			},
		],
	},
	{
		name: 'id parts joined unescaped',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			{
				file: IDENTITY,
				find: "\treturn parts.length === 1 ? parts[0] : parts.map(escape).join(':');",
				replace: "\treturn parts.join(':');",
			},
		],
	},
	{
		name: 'digests compared on their first half only',
		verification: 'hmacSha512',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/signatureHeader.ts`,
				find: '\treturn a.length === b.length && timingSafeEqual(a, b);',
				replace:
					'\treturn a.length === b.length && timingSafeEqual(a.subarray(0, a.length / 2), b.subarray(0, b.length / 2));',
			},
		],
	},
	{
		name: 'the body read per Content-Type',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: RECEIVE,
				find: "\tif (!fits) return refusal('unsupported_media_type', format, passed.seen);\n\tconst body = readBody(format, bytes.rawBody);",
				replace:
					"\tconst body = readBody(fits ? format : format === 'json' ? 'form' : 'json', bytes.rawBody);",
			},
		],
	},
	{
		name: 'the body read before the request is authenticated',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: RECEIVE,
				find: '\tconst passed = authenticate(settings.check, format, settings.secrets, bytes);',
				replace:
					'\tconst early = readBody(format, bytes.rawBody);\n\tif (!early.ok) return refusal(early.reason, format);\n\tconst passed = authenticate(settings.check, format, settings.secrets, bytes);',
			},
		],
	},
	{
		name: 'secrets looked for in header names and values in their own letter case only',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: SPELLINGS,
				find: "\treturn new RegExp(unique.join('|'), 'gi');",
				replace: "\treturn new RegExp(unique.join('|'), 'g');",
			},
		],
	},
	{
		name: 'secrets looked for only as written: no other spelling',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: SPELLINGS,
				find: '\tconst texts = new Set(secrets.flatMap(writings).flatMap(jsonEscaped));',
				replace: '\tconst texts = new Set(secrets);',
			},
			{
				file: SPELLINGS,
				find: '\t\tENCODINGS.map((times) => encodedPattern(text, times)),',
				replace: '\t\t[literal(text)],',
			},
		],
	},
	{
		name: 'secrets not looked for inside base64',
		verification: 'standardWebhooks',
		property: 'mutated',
		patches: [
			{
				file: SPELLINGS,
				find: "\t\twritten.push(inside, inside.replace(/\\+/g, '-').replace(/\\//g, '_'));",
				replace: '',
			},
		],
	},
	{
		name: 'secrets looked for percent-encoded once at most',
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [
			{
				file: SPELLINGS,
				find: 'const ENCODINGS = [0, 1, 2];',
				replace: 'const ENCODINGS = [0, 1];',
			},
		],
	},
	{
		name: "a secret's + not read as a space",
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [
			{
				file: SPELLINGS,
				find: "\tconst readAs = character === '+' || character === ' ' ? ['+', ' '] : [character];",
				replace: '\tconst readAs = [character];',
			},
		],
	},
	{
		name: 'secrets not looked for JSON-escaped',
		verification: 'hmacSha512',
		property: 'mutated',
		patches: [
			{
				file: SPELLINGS,
				find: "\treturn [text, escapedText, escapedText.replace(/\\//g, '\\\\/')];",
				replace: '\treturn [text];',
			},
		],
	},
	{
		name: 'only the secrets the URL accepts kept out of the output',
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [
			{
				file: RECEIVE,
				find: '\t\t\tsecretHeader,\n\t\t\tsettings.credentialSecrets,',
				replace: '\t\t\tsecretHeader,\n\t\t\tsettings.secrets,',
			},
			{
				file: RECEIVE,
				find: 'unsignedQuery(request.query, settings.credentialSecrets)',
				replace: 'unsignedQuery(request.query, settings.secrets)',
			},
		],
	},
	{
		name: 'svix- headers accepted for Standard Webhooks',
		verification: 'standardWebhooks',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/schemes.ts`,
				find: "\t\t\t\tsignatureHeader: 'webhook-signature',\n",
				replace: "\t\t\t\tsignatureHeader: 'webhook-signature, svix-signature',\n",
			},
			{
				file: `${TRIGGER}/schemes.ts`,
				find: "\t\t\t\tidHeader: 'webhook-id',\n\t\t\t\ttimestampHeader: 'webhook-timestamp',\n",
				replace:
					"\t\t\t\tidHeader: 'webhook-id, svix-id',\n\t\t\t\ttimestampHeader: 'webhook-timestamp, svix-timestamp',\n",
			},
		],
	},
	{
		name: 'the Test URL accepts the production secrets beside its own',
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [
			{
				file: SETTINGS,
				find: 'return [undefined, undefined, test];',
				replace: 'return [current, previous, test];',
			},
		],
	},
	{
		name: 'the test secret accepted at the Production URL',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			{
				file: SETTINGS,
				find: 'return [current, previous];',
				replace: 'return [current, previous, test];',
			},
		],
	},
	{
		name: 'a Body Format left from another scheme read under Standard Webhooks',
		verification: 'standardWebhooks',
		property: 'genuine',
		patches: [
			{
				file: SETTINGS,
				find: "\tif (!schemeOf(name).settings.includes('bodyFormat')) return 'json';\n",
				replace: '',
			},
		],
	},
	{
		name: 'the shared key compared in any letter case',
		verification: 'secretHeader',
		property: 'mutated',
		patches: [
			{
				file: AUTHENTICATE,
				find: 'constantTimeTextEqual(sent, secret)',
				replace: 'constantTimeTextEqual(sent.toLowerCase(), secret.toLowerCase())',
			},
		],
	},
	{
		name: 'a top-level webhookDelivery field not refused',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			{
				file: RECEIVE,
				find: "\tif (Object.prototype.hasOwnProperty.call(body.object, WEBHOOK_DELIVERY_FIELD))\n\t\treturn refusal('reserved_field', format, passed.seen);\n",
				replace: '',
			},
		],
	},
	{
		name: 'the unsigned query beside the body',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: RECEIVE,
				find: '\tbody[WEBHOOK_DELIVERY_FIELD] = delivery;',
				replace:
					'\tObject.assign(body, request.query);\n\tbody[WEBHOOK_DELIVERY_FIELD] = delivery;',
			},
		],
	},
	{
		name: 'JSON.parse instead of the exact reader',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			{
				file: `${TRIGGER}/exactJson.ts`,
				find: 'if (!MAY_BE_INEXACT.test(text) && !NUMBER_FIRST.test(text)) return JSON.parse(text);',
				replace: 'return JSON.parse(text);',
			},
		],
	},
	{
		name: 'the exact reading skipped for numbers with an exponent',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			{
				file: `${TRIGGER}/exactJson.ts`,
				find: '(?=-?(?:\\d+(?:\\.\\d+)?[eE]|(?:\\d\\.?){16}))',
				replace: '(?=-?(?:\\d\\.?){16})',
			},
		],
	},
	{
		name: 'digits in a string taken for a value: the text read with doubles instead',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			{
				file: `${TRIGGER}/exactJson.ts`,
				find: '\t\treturn JSON.parse(quoteNumbers(text, VALUE_THAT_MAY_BE_INEXACT, isInexact, true));',
				replace: '\t\treturn JSON.parse(text);',
			},
		],
	},
	{
		name: 'strings skipped by a pattern that gives up past 1,000 escapes (as V8 gives up past a few million)',
		verification: 'hmacSha256',
		property: 'genuine',
		patches: [
			{
				file: `${TRIGGER}/exactJson.ts`,
				find: 'function afterString(text: string, open: number): number {\n',
				replace:
					'function afterString(text: string, open: number): number {\n\tconst string = /"[^"\\\\]*(?:\\\\.[^"\\\\]*){0,1000}"/y;\n\tstring.lastIndex = open;\n\tif (!string.test(text)) throw new RangeError(\'Maximum call stack size exceeded\');\n\treturn string.lastIndex;\n',
			},
		],
	},
	{
		name: 'form fields percent-decoded leniently',
		verification: 'none',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/body.ts`,
				find: "\t\treturn decodeURIComponent(text.replace(/\\+/g, ' '));\n\t} catch {\n\t\treturn undefined;\n\t}",
				replace:
					"\t\treturn decodeURIComponent(text.replace(/\\+/g, ' '));\n\t} catch {\n\t\treturn text;\n\t}",
			},
		],
	},
];

/** A source with a defect's patches to it applied; throws when a patch no longer finds its text exactly once. */
export function patched(defect: Defect, file: string, source: string): string {
	return defect.patches
		.filter((patch) => patch.file === file)
		.reduce((text, patch) => {
			if (text.split(patch.find).length !== 2)
				throw new Error(
					`defect "${defect.name}": ${file} no longer holds, exactly once: ${patch.find}`,
				);
			return text.replace(patch.find, () => patch.replace);
		}, source);
}
