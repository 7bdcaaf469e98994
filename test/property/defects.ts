/**
 * Deliberate defects of the trigger, each a finding the delivery campaign must catch. test/property/mutants.ts runs the
 * campaign with each applied (mutantHook.ts, in memory); test/unit/defects.test.ts fails when one no longer applies.
 *
 * TABLE holds a defect a block: its name, then the row of VERIFICATIONS whose set-ups reach it and the property meant
 * to catch it (the first word of its name, campaign.ts `--property`); then a line a patch: the product source (from
 * nodes/TenantApiTrigger), the top-level function or constant there the code is in, a short piece of code found
 * exactly once in it (blanks and line breaks ignored, so a reflow keeps it) and, after ` → `, what to put instead.
 */
import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';

const TABLE = String.raw`
the timestamp window skipped (timestampedSignatures, replayed)
	authenticate.ts authenticateHmac: Math.abs(request.nowSeconds - timestamp) > verification.toleranceSeconds → false
another split of the signed text accepted: two free-text placeholders (customHmac, replayed)
	signedContent.ts ambiguity: if (free > 1) → if (false)
another split of the signed text accepted: free text signed with form bodies (customHmac, replayed)
	signedContent.ts ambiguity: if (free > 0 && format === 'form') → if (false)
another split of the signed text accepted: a digit next to the timestamp (customHmac, replayed)
	signedContent.ts ambiguity: DIGIT.test(next.text[0]) → false
	signedContent.ts ambiguity: DIGIT.test(before.text.slice(-1)) → false
another split of the signed text accepted: placeholders side by side before a form body (customHmac, replayed)
	signedContent.ts ambiguity: next.kind === 'body' && format === 'json' → next.kind === 'body'
the {body}-last rule dropped (customHmac, replayed)
	signedContent.ts ambiguity: last?.kind !== 'body' → last === undefined
a padded signed id accepted, its blanks kept (customHmac, replayed)
	authenticate.ts exactHeader: || header.value.trim() !== header.value
a signed id trimmed (standardWebhooks, mutated)
	authenticate.ts exactHeader: header.value === '' || header.value.trim() !== header.value ? undefined : header → header.value.trim() === '' ? undefined : { ...header, value: header.value.trim() }
the id taken from the ID Header when Signed Content does not sign it (customHmac, replayed)
	authenticate.ts authenticateHmac: usesPart(parts, 'id') ? exactHeader(headers, idHeader) : undefined → exactHeader(headers, idHeader)
the old default identity kept: the body's id field (hmacSha256, genuine)
	identity.ts deliveryIdentity: const parts = idFields.map( → if (idFields.length === 0) idFields = ['id']; const parts = idFields.map(
the body alone names a delivery whose header or URL is signed too (customHmac, replayed)
	identity.ts deliveryIdentity: if (beside !== undefined) hash.update(JSON.stringify(beside));
id parts joined unescaped (hmacSha256, genuine)
	identity.ts joinIdParts: parts.map(escape).join(':') → parts.join(':')
digests compared on their first half only (hmacSha512, mutated)
	signatureHeader.ts constantTimeEqual: timingSafeEqual(a, b) → timingSafeEqual(a.subarray(0, a.length / 2), b.subarray(0, b.length / 2))
the body read per Content-Type (hmacSha256, mutated)
	receive.ts receiveDelivery: if (!mediaTypeFits(format, mediaType(request.headers))) return refuse('unsupported_media_type'); → const fits = mediaTypeFits(format, mediaType(request.headers));
	receive.ts receiveDelivery: readBody(format, rawBody) → readBody(fits ? format : format === 'json' ? 'form' : 'json', rawBody)
the body read before the request is authenticated (hmacSha256, mutated)
	receive.ts receiveDelivery: const passed = authenticate( → if (request.rawBody !== undefined) { const early = readBody(format, request.rawBody); if (!early.ok) return refusal(early.reason, format); } const passed = authenticate(
secrets looked for in header names and values in their own letter case only (hmacSha256, mutated)
	../shared/secretSpellings.ts build: 'gi') → 'g')
secrets looked for only as written: no other spelling (hmacSha256, mutated)
	../shared/secretSpellings.ts build: new Set(secrets.flatMap(writings).flatMap(jsonEscaped)) → new Set(secrets)
	../shared/secretSpellings.ts build: ENCODINGS.map((times) => encodedPattern(text, times)) → [literal(text)]
secrets not looked for inside base64 (standardWebhooks, mutated)
	../shared/secretSpellings.ts writings: written.push(inside, inside.replace(/\+/g, '-').replace(/\//g, '_'));
secrets looked for percent-encoded once at most (hmacSha256, replayed)
	../shared/secretSpellings.ts ENCODINGS: [0, 1, 2] → [0, 1]
a secret's + not read as a space (hmacSha256, replayed)
	../shared/secretSpellings.ts characterSpellings: character === '+' || character === ' ' ? ['+', ' '] : [character] → [character]
secrets not looked for JSON-escaped (hmacSha512, mutated)
	../shared/secretSpellings.ts jsonEscaped: return [text, escapedText, escapedText.replace(/\//g, '\\/')]; → return [text];
only the secrets the URL accepts kept out of the output (hmacSha256, replayed)
	receive.ts outputItem: const { verification, credentialSecrets: secrets = [] } = settings; → const { verification } = settings; const secrets = settings.acceptedSecrets.flatMap((secret) => (typeof secret === 'string' && secret.trim() !== '' ? [secret.trim()] : []));
svix- headers accepted for Standard Webhooks (standardWebhooks, mutated)
	verifications.ts ROWS: signatureHeader: ['webhook-signature'] → signatureHeader: ['webhook-signature', 'svix-signature']
	verifications.ts ROWS: idHeader: ['webhook-id'] → idHeader: ['webhook-id', 'svix-id']
	verifications.ts ROWS: timestampHeader: ['webhook-timestamp'] → timestampHeader: ['webhook-timestamp', 'svix-timestamp']
the Test URL accepts the production secrets beside its own (hmacSha256, replayed)
	settings.ts secretsOf: [undefined, undefined, test] → all
the test secret accepted at the Production URL (hmacSha256, genuine)
	settings.ts secretsOf: : all.slice(0, 2) → : all
a Body Format left from another Verification read under Standard Webhooks (standardWebhooks, genuine)
	settings.ts settingsFromParameters: settings.includes('bodyFormat') &&
the shared key compared in any letter case (secretHeader, mutated)
	authenticate.ts authenticate: constantTimeTextEqual(shared, secret) → constantTimeTextEqual(shared.toLowerCase(), secret.toLowerCase())
a top-level webhookDelivery field not refused (hmacSha256, genuine)
	receive.ts receiveDelivery: Object.prototype.hasOwnProperty.call(body.object, WEBHOOK_DELIVERY_FIELD) → false
the unsigned query beside the body (hmacSha256, mutated)
	receive.ts outputItem: body[WEBHOOK_DELIVERY_FIELD] = delivery; → Object.assign(body, request.query); body[WEBHOOK_DELIVERY_FIELD] = delivery;
JSON.parse instead of the exact reader (hmacSha256, genuine)
	exactJson.ts parseExactJson: if (!MAY_BE_INEXACT.test(text) && !NUMBER_FIRST.test(text))
the exact reading skipped for numbers with an exponent (hmacSha256, genuine)
	exactJson.ts VALUE_THAT_MAY_BE_INEXACT: (?=-?(?:\d+(?:\.\d+)?[eE]|(?:\d\.?){16})) → (?=-?(?:\d\.?){16})
digits in a string taken for a value: the text read with doubles instead (hmacSha256, genuine)
	exactJson.ts parseExactJson: return JSON.parse(quoteNumbers(text, VALUE_THAT_MAY_BE_INEXACT, isInexact, true)); → return JSON.parse(text);
strings skipped by a pattern that gives up past 1,000 escapes (as V8 gives up past a few million) (hmacSha256, genuine)
	exactJson.ts afterString: function afterString(text: string, open: number): number { → function afterString(text: string, open: number): number { const string = /"[^"\\]*(?:\\.[^"\\]*){0,1000}"/y; string.lastIndex = open; if (!string.test(text)) throw new RangeError('Maximum call stack size exceeded'); return string.lastIndex; 
form fields percent-decoded leniently (none, mutated)
	body.ts formText: return undefined; → return text;
`;

export interface Patch {
	/** From the repository's root. */
	file: string;
	within: string;
	find: string;
	replace: string;
}

export interface Defect {
	name: string;
	verification: VerificationName;
	property: 'mutated' | 'genuine' | 'replayed' | 'arbitrary';
	patches: Patch[];
}

export const DEFECTS: Defect[] = TABLE.trim()
	.split(/\n(?!\t)/)
	.map((block) => {
		const [title, ...lines] = block.split('\n');
		const [, name, verification, property] = /^(.*) \((\w+), (\w+)\)$/.exec(title) ?? [];
		if (name === undefined) throw new Error(`defects.ts: not a defect's title: ${title}`);
		const patches = lines.map((line) => {
			const [, file, within, find, replace = ''] =
				/^\t(\S+) (\w+): (.*?)(?: → (.*))?$/.exec(line) ?? [];
			if (file === undefined) throw new Error(`defects.ts: not a patch: ${line}`);
			return {
				file: new URL(file, 'file:///nodes/TenantApiTrigger/').pathname.slice(1),
				within,
				find,
				replace,
			};
		});
		return { name, verification, property, patches } as Defect;
	});

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
