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

/** Whether n8n shows a property for these parameters: every `show` condition met, no `hide` one (only those on
 * `names` when given). */
function shown(property: Property, parameters: IDataObject, names?: string[]): boolean {
	const conditions = (kind: 'show' | 'hide') =>
		Object.entries((property.displayOptions?.[kind] ?? {}) as Conditions).filter(
			([name]) => names?.includes(name) ?? true,
		);
	const meets = ([name, values]: [string, unknown[] | undefined]) =>
		(values ?? []).includes(valueOf(parameters, name));
	return conditions('show').every(meets) && !conditions('hide').some(meets);
}

/** Whether a property can show under a Verification (its other conditions are settings of their own). */
const showsUnder = (property: Property, verification: VerificationName) =>
	shown(property, { verification }, ['verification']);

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
const ROW = dimension('verification', 'row of VERIFICATIONS');

const CREDENTIAL_FIELDS = new TenantWebhookApi().properties
	.filter((property) => property.type !== 'notice')
	.map((property) => property.name as keyof Setup['credential']);

/** A setting of a Verification: the values it must reach, and those a set-up reaches. */
type Dimension = [setting: string, values: string[], reached: (setup: Setup) => string[]];

function dimensionsOf(verification: VerificationName): Dimension[] {
	const own = SETTINGS.filter((p) => p !== OPTION_COLLECTION && showsUnder(p, verification));
	// A name the description gives twice counts the values of its last property, and the one shown.
	const settings = [...new Map(own.map((property) => [property.name, property])).values()].map(
		(property): Dimension => [
			property.name,
			valuesOf(property),
			({ parameters }) => {
				const showing = own.find((p) => p.name === property.name && shown(p, parameters));
				return showing ? [valueClass(showing, parameters[property.name])] : [];
			},
		],
	);
	// An option not added is at its default: added, a text counts as set.
	const options = OPTIONS.map(
		(option): Dimension => [
			`options.${option.name}`,
			['unset', ...valuesOf(option).filter((value) => value !== 'default')],
			({ parameters }) => {
				const value = ((parameters.options ?? {}) as IDataObject)[option.name];
				return [value === undefined ? 'unset' : valueClass(option, value)];
			},
		],
	);
	const credential: Dimension[] = [
		...CREDENTIAL_FIELDS.map(
			(field): Dimension => [
				`credential.${field}`,
				field === 'signingSecret' ? ['set'] : ['set', 'unset'],
				(setup) => [setup.credential[field].trim() === '' ? 'unset' : 'set'],
			],
		),
		['signed with', ['current', 'previous', 'test'], (setup) => [setup.signWith ?? 'nothing']],
	];
	const signedContent: Dimension = [
		'Signed Content',
		['one-way', ...TEMPLATE_PROBLEMS],
		(setup) => {
			const problems = templateProblems(setup.meaning.template, setup.format);
			return problems.length === 0 ? ['one-way'] : problems;
		},
	];
	return [
		...settings,
		...options,
		...(verification === 'none' ? [] : credential),
		[
			'delivered to',
			['Test URL', 'production'],
			(setup) => [setup.testUrl ? 'Test URL' : 'production'],
		],
		...(verification === 'customHmac' ? [signedContent] : []),
	];
}

const DIMENSIONS = new Map(VERIFICATION_NAMES.map((name) => [name, dimensionsOf(name)]));

/** Everything the generated cases must reach, as [dimension, value]. */
export function requiredCoverage(
	verifications: VerificationName[] = VERIFICATION_NAMES,
): Array<[string, string]> {
	return verifications.flatMap((verification) => [
		[ROW, verification] as [string, string],
		...(DIMENSIONS.get(verification) ?? []).flatMap(([setting, values]) =>
			values.map((value): [string, string] => [dimension(verification, setting), value]),
		),
	]);
}

/** The coverage a set-up reaches, from its parameters and credential as the node reads them. */
export function settingDims(setup: Setup): Array<[string, string]> {
	const { verification } = setup;
	return [
		[ROW, verification],
		...(DIMENSIONS.get(verification) ?? []).flatMap(([setting, , reached]) =>
			reached(setup).map((value): [string, string] => [dimension(verification, setting), value]),
		),
	];
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
