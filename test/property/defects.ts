/**
 * Deliberate defects of the trigger, each a finding the delivery campaign must catch: its text in a product source
 * (found exactly once) and what to put instead, the Verification whose set-ups reach it, and the property meant to
 * catch it. test/property/mutants.ts runs the campaign with each applied (mutantHook.ts, in memory).
 */
import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';

export interface Patch {
	/** From the repository's root. */
	file: string;
	find: string;
	replace: string;
}

export interface Defect {
	name: string;
	verification: VerificationName;
	/** The first word of the property's name (campaign.ts `--property`). */
	property: 'mutated' | 'replayed';
	patches: Patch[];
}

const TRIGGER = 'nodes/TenantApiTrigger';

/** The signed items' old identity: one unit for the whole body, named by every item's id, sorted (read.ts had it so). */
const BATCH_UNIT = `const { scheme } = config;
	let next = 0;
	const view = (value: unknown, keys: string[]): unknown =>
		keys.length === 0 ? items[next++].view : keys[0] === '*' ? (value as unknown[]).map((v) => view(v, keys.slice(1))) : { [keys[0]]: view((value as IDataObject)[keys[0]], keys.slice(1)) };
	const signed = view(body.object, scheme.itemsPath.split('.')) as IDataObject;
	return [{ object: scheme.itemsOutput === 'body' ? body.object : signed, signed, itemId: items.map((item) => item.id) as never }];
	return items.map((item) => {`;

export const DEFECTS: Defect[] = [
	{
		name: 'Delivery ID Fields used under open field boundaries (Twilio form)',
		verification: 'twilio',
		property: 'replayed',
		patches: [
			{
				file: `${TRIGGER}/delivery.ts`,
				find: "return chosenIdFields.length > 0\n\t\t\t? 'unprotected_id'\n\t\t\t: [result.signedTextSha256, SIGNED_TEXT_ID_SOURCE];",
				replace:
					'return chosenIdFields.length > 0 ? bodyFieldsId(unit.signed, chosenIdFields) : [result.signedTextSha256, SIGNED_TEXT_ID_SOURCE];',
			},
		],
	},
	{
		name: 'the old batch identity: one item for the whole body, the ids of all items joined and sorted',
		verification: 'adyenPayments',
		property: 'replayed',
		patches: [
			{
				file: `${TRIGGER}/verifier/read.ts`,
				find: 'const { scheme } = config;\n\treturn items.map((item) => {',
				replace: BATCH_UNIT,
			},
			{
				file: `${TRIGGER}/delivery.ts`,
				find: 'joinItemIds([unit.itemId])',
				replace: 'joinItemIds(unit.itemId as never)',
			},
		],
	},
	{
		name: 'the Test URL accepts the production secrets beside its own',
		verification: 'hmacSha256',
		property: 'replayed',
		patches: [
			{
				file: `${TRIGGER}/settings.ts`,
				find: 'return [undefined, undefined, test];',
				replace: 'return [current, previous, test];',
			},
		],
	},
	{
		name: 'only the accepted secrets kept out of the output (the test secret shown at the Production URL)',
		verification: 'stripe',
		property: 'replayed',
		patches: [
			{
				file: `${TRIGGER}/receive.ts`,
				find: 'const { config, credentialSecrets } = settings;',
				replace: 'const { config } = settings;\n\tconst credentialSecrets = secretsOf(config);',
			},
		],
	},
	{
		name: 'two items with the same id not refused',
		verification: 'adyenPayments',
		property: 'replayed',
		patches: [
			{
				file: `${TRIGGER}/receive.ts`,
				find: "if (repeatsAnEvent(units)) return refusal('duplicate_item');",
				replace: '',
			},
		],
	},
	{
		name: 'the signed-text digest over the fields in the order received',
		verification: 'twilio',
		property: 'replayed',
		patches: [
			{
				file: `${TRIGGER}/verifier/verify.ts`,
				find: 'signedTextSha256: sha256Of(renderParts(parts, values))',
				replace:
					"signedTextSha256: sha256Of(body?.format === 'form' ? [...body.fields].flatMap(([name, list]) => [name, ...list]) : [])",
			},
		],
	},
	{
		name: 'the unsigned query beside the body',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/receive.ts`,
				find: 'return { ...body, [WEBHOOK_DELIVERY_FIELD]: delivery };',
				replace: 'return { ...body, ...request.query, [WEBHOOK_DELIVERY_FIELD]: delivery };',
			},
		],
	},
	{
		name: 'ids trimmed',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/delivery.ts`,
				find: "if (typeof value === 'string') return value === '' ? undefined : value;",
				replace:
					"if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();",
			},
		],
	},
	{
		name: 'id parts joined unescaped',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/verifier/idText.ts`,
				find: "return parts.length === 1 ? parts[0] : parts.map(escapePart).join(':');",
				replace: "return parts.join(':');",
			},
		],
	},
	{
		name: 'JSON.parse instead of the exact reader',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/verifier/body.ts`,
				find: 'if (exactAt === undefined) parsed = makeNumbersExact(',
				replace: 'if (exactAt === null) parsed = makeNumbersExact(',
			},
			{
				file: `${TRIGGER}/verifier/body.ts`,
				find: 'else if (exactAt.firstItemHasNumbers(parsed))',
				replace: 'else if (exactAt === null)',
			},
		],
	},
	{
		name: 'the test secret accepted at the Production URL',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/settings.ts`,
				find: 'return [current, previous];',
				replace: 'return [current, previous, test];',
			},
		],
	},
	{
		name: 'a top-level webhookDelivery field not refused',
		verification: 'hmacSha256',
		property: 'mutated',
		patches: [
			{
				file: `${TRIGGER}/receive.ts`,
				find: "if (Object.prototype.hasOwnProperty.call(unit.object, WEBHOOK_DELIVERY_FIELD))\n\t\treturn refusal('reserved_field');",
				replace: '',
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
