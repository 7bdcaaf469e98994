/**
 * What the generators must reach, read from the product's description, not from them: every row of VERIFICATIONS,
 * and under each every setting shown for it (displayOptions evaluated as n8n does), each option value, both switch
 * values, a text at its default and set; the options; the credential's fields; both URLs; each secret signed with;
 * Signed Content splitting one way and refused for each rule. The campaign and the unit test fail on any not reached.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { TenantWebhookApi } from '../../credentials/TenantWebhookApi.credentials';
import { properties } from '../../nodes/TenantApiTrigger/description';
import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import { VERIFICATION_NAMES } from '../../nodes/TenantApiTrigger/verifications';

import type { Setup } from './settings';
import { TEMPLATE_PROBLEMS, templateProblems } from './templates';

type Property = INodeProperties;
type Conditions = Record<string, unknown[] | undefined>;

/** The node's settings: every property but notices and Verification (a row each), the options by their own name. */
const SETTINGS = properties.filter(
	(property) => property.type !== 'notice' && property.name !== 'verification',
);
const OPTION_COLLECTION = SETTINGS.find((property) => property.type === 'collection') as Property;
const OPTIONS = (OPTION_COLLECTION.options ?? []) as Property[];

/** A parameter's value as n8n reads it: the one saved, else the property's default. */
function valueOf(parameters: IDataObject, name: string): unknown {
	if (parameters[name] !== undefined) return parameters[name];
	return SETTINGS.find((property) => property.name === name)?.default;
}

/** Whether n8n shows a property for these parameters: every `show` condition met, no `hide` condition. */
function shown(property: Property, parameters: IDataObject): boolean {
	const show = (property.displayOptions?.show ?? {}) as Conditions;
	const hide = (property.displayOptions?.hide ?? {}) as Conditions;
	const meets = ([name, values]: [string, unknown[] | undefined]) =>
		(values ?? []).includes(valueOf(parameters, name));
	return Object.entries(show).every(meets) && !Object.entries(hide).some(meets);
}

/** Whether a property can show under a Verification (its other conditions are settings of their own). */
function showsUnder(property: Property, verification: VerificationName): boolean {
	const show = (property.displayOptions?.show ?? {}) as Conditions;
	const hide = (property.displayOptions?.hide ?? {}) as Conditions;
	return (
		(show.verification?.includes(verification) ?? true) &&
		!(hide.verification?.includes(verification) ?? false)
	);
}

/** The values a property's coverage counts: each option, both switch values, a text or number at its default or set. */
function valuesOf(property: Property): string[] {
	if (property.type === 'options')
		return (property.options ?? []).map((option) => String((option as { value: unknown }).value));
	if (property.type === 'boolean') return ['false', 'true'];
	return ['default', 'set'];
}

function valueClass(property: Property, value: unknown): string {
	if (property.type === 'options' || property.type === 'boolean')
		return String(value ?? property.default);
	return value === undefined || value === property.default ? 'default' : 'set';
}

const dimension = (verification: string, setting: string) => `${verification} › ${setting}`;

const CREDENTIAL_FIELDS = new TenantWebhookApi().properties
	.filter((property) => property.type !== 'notice')
	.map((property) => property.name);
const credentialShown = (verification: VerificationName) => verification !== 'none';

/** Everything the generated cases must reach, as [dimension, value]. */
export function requiredCoverage(
	verifications: VerificationName[] = VERIFICATION_NAMES,
): Array<[string, string]> {
	return verifications.flatMap((verification) => {
		const nodeSettings = SETTINGS.filter(
			(property) => property !== OPTION_COLLECTION && showsUnder(property, verification),
		);
		const unique = [...new Map(nodeSettings.map((property) => [property.name, property])).values()];
		return [
			[dimension('verification', 'row of VERIFICATIONS'), verification] as [string, string],
			...unique.flatMap((property) =>
				valuesOf(property).map((value): [string, string] => [
					dimension(verification, property.name),
					value,
				]),
			),
			// An option not added is at its default: added, a text counts as set.
			...OPTIONS.flatMap((option) =>
				['unset', ...valuesOf(option).filter((v) => v !== 'default')].map(
					(value): [string, string] => [dimension(verification, `options.${option.name}`), value],
				),
			),
			...(credentialShown(verification)
				? [
						...CREDENTIAL_FIELDS.flatMap((field) =>
							(field === 'signingSecret' ? ['set'] : ['set', 'unset']).map(
								(value): [string, string] => [
									dimension(verification, `credential.${field}`),
									value,
								],
							),
						),
						...['current', 'previous', 'test'].map((secret): [string, string] => [
							dimension(verification, 'signed with'),
							secret,
						]),
					]
				: []),
			...['Test URL', 'production'].map((url): [string, string] => [
				dimension(verification, 'delivered to'),
				url,
			]),
			...(verification === 'customHmac'
				? ['one-way', ...TEMPLATE_PROBLEMS].map((value): [string, string] => [
						dimension(verification, 'Signed Content'),
						value,
					])
				: []),
		];
	});
}

/** The coverage a set-up reaches, from its parameters and credential as the node reads them. */
export function settingDims(setup: Setup): Array<[string, string]> {
	const { verification, parameters } = setup;
	const options = (parameters.options ?? {}) as IDataObject;
	const dims: Array<[string, string]> = [
		[dimension('verification', 'row of VERIFICATIONS'), verification],
	];
	const seen = new Set<string>();
	for (const property of SETTINGS) {
		if (property === OPTION_COLLECTION || seen.has(property.name) || !shown(property, parameters))
			continue;
		seen.add(property.name);
		dims.push([
			dimension(verification, property.name),
			valueClass(property, parameters[property.name]),
		]);
	}
	for (const option of OPTIONS)
		dims.push([
			dimension(verification, `options.${option.name}`),
			options[option.name] === undefined ? 'unset' : valueClass(option, options[option.name]),
		]);
	if (credentialShown(verification)) {
		for (const field of CREDENTIAL_FIELDS)
			dims.push([
				dimension(verification, `credential.${field}`),
				String(setup.credential[field as keyof Setup['credential']]).trim() === ''
					? 'unset'
					: 'set',
			]);
		dims.push([dimension(verification, 'signed with'), setup.signWith ?? 'nothing']);
	}
	dims.push([dimension(verification, 'delivered to'), setup.testUrl ? 'Test URL' : 'production']);
	if (verification === 'customHmac') {
		const problems = templateProblems(setup.meaning.template, setup.format);
		for (const value of problems.length === 0 ? ['one-way'] : problems)
			dims.push([dimension(verification, 'Signed Content'), value]);
	}
	return dims;
}

/** Whether a setting is one the node shows for a Verification (so that a setting of another row can be left in). */
export function showsSetting(verification: VerificationName, name: string): boolean {
	return SETTINGS.some((property) => property.name === name && showsUnder(property, verification));
}

/** The required coverage the reached coverage lacks. */
export function unreached(
	required: Array<[string, string]>,
	reached: Map<string, number>,
): string[] {
	return required
		.map(([dim, value]) => `${dim}: ${value}`)
		.filter((key) => (reached.get(key) ?? 0) === 0);
}
