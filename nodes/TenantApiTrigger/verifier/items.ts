import type { IDataObject } from 'n8n-workflow';

import { setOwn } from '../../shared/ownProperty';

import { itemsAtPath, pathSegments, valueAtPath } from './paths';
import type { ItemFieldType, SchemeSpec } from './scheme';
import type { TemplatePart } from './template';

/**
 * Signed items inside a JSON body (Adyen payments: each NotificationRequestItem carries the HMAC of some of its
 * fields; Custom HMAC with the signature inside each item). The body holds the items and nothing else on the way to
 * them, every item is signed, each signed field is read one way, and no item repeats.
 */
export interface SignedItem {
	/** The item as the body holds it, signed and unsigned fields alike. */
	entry: IDataObject;
	/** The text of each `{item.<path>}` of the template, as signed. */
	fields: Map<string, string>;
	signature: string;
	/** The item's id: the signed text of its id fields (itemIdFields). */
	id: string[];
	/** The signed fields as the workflow reads them: the JSON value of a typed field, the signed text of any other. */
	view: IDataObject;
}

export type ItemsFailure =
	| 'unexpected_field'
	| 'malformed_items'
	| 'invalid_item_field'
	| 'missing_signature';

/**
 * Where each `{item.<path>}` meets the next field: the characters of the literal text between them. A field without
 * a type must not contain the separators on either side of it, so that the signed text splits into fields one way
 * only (`a:b` + `c` and `a` + `b:c` both sign `a:b:c`); text before the first field or after the last is fixed and
 * costs nothing. Undefined when a field touches another placeholder with nothing between them.
 */
export function itemBoundaries(parts: TemplatePart[]): Map<string, string> | undefined {
	const boundaries = new Map<string, string>();
	const add = (path: string, text: string) =>
		boundaries.set(path, (boundaries.get(path) ?? '') + text);
	for (const [index, part] of parts.entries()) {
		if (part.kind !== 'item') continue;
		add(part.path, '');
		const next = parts[index + 1];
		if (next === undefined) continue;
		if (next.kind !== 'literal') return undefined;
		const following = parts[index + 2];
		if (following?.kind !== 'item') continue;
		add(part.path, next.text);
		add(following.path, next.text);
	}
	if (
		parts.some(
			(part, index) => part.kind === 'item' && index > 0 && parts[index - 1].kind !== 'literal',
		)
	)
		return undefined;
	return boundaries;
}

/** The signed text of a typed field, or undefined when its JSON type is not the one the scheme allows. */
function typedText(value: unknown, type: ItemFieldType): string | undefined {
	if (type === 'wholeNumber') return Number.isSafeInteger(value) ? String(value) : undefined;
	if (value === undefined) return '';
	if (typeof value !== 'string') return undefined;
	return type === 'textWithoutColon' && value.includes(':') ? undefined : value;
}

/** The signed text of a field without a type: any scalar, none of the characters around it in the template. */
function untypedText(value: unknown, boundary: string): string | undefined {
	let text: string;
	if (value === undefined || value === null) text = '';
	else if (typeof value === 'string' || typeof value === 'boolean') text = String(value);
	else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
	else return undefined;
	return [...boundary].some((character) => text.includes(character)) ? undefined : text;
}

function setAtPath(target: IDataObject, path: string, value: unknown): void {
	const keys = pathSegments(path);
	let current = target;
	for (const key of keys.slice(0, -1)) {
		if (!Object.prototype.hasOwnProperty.call(current, key)) setOwn(current, key, {});
		current = current[key] as IDataObject;
	}
	setOwn(current, keys[keys.length - 1], value);
}

/** One item read: its signature, and each signed field as text; a failure when anything is not as the scheme says. */
export function readItem(
	scheme: SchemeSpec,
	boundaries: Map<string, string>,
	idFields: string[],
	item: unknown,
): SignedItem | ItemsFailure {
	if (item === null || typeof item !== 'object' || Array.isArray(item)) return 'malformed_items';
	const signature = valueAtPath(item, scheme.itemSignaturePath);
	if (typeof signature !== 'string' || signature.trim() === '') return 'missing_signature';
	const fields = new Map<string, string>();
	const view: IDataObject = {};
	for (const [path, boundary] of boundaries) {
		const value = valueAtPath(item, path);
		const type = scheme.itemFieldTypes[path];
		const text = type === undefined ? untypedText(value, boundary) : typedText(value, type);
		if (text === undefined) return 'invalid_item_field';
		fields.set(path, text);
		setAtPath(view, path, type === undefined || value === undefined ? text : value);
	}
	return {
		entry: item as IDataObject,
		fields,
		signature: signature.trim(),
		view,
		id: idFields.map((path) => fields.get(path) ?? ''),
	};
}

/** The items a body holds at the scheme's path: undefined when it holds anything else on the way (see itemsAtPath). */
export function bodyItems(scheme: SchemeSpec, body: IDataObject): unknown[] | ItemsFailure {
	const items = itemsAtPath(body, scheme.itemsPath, scheme.bodyKeys);
	if (items === undefined) return 'unexpected_field';
	return items.length === 0 ? 'missing_signature' : items;
}

/**
 * One signed item as a delivery of its own would hold it: the path to it with one element at each `*`, and at the top
 * the keys the scheme allows beside the items (`withTopKeys`, Adyen's `live`). A batch reaches the workflow as one
 * such body per item, so each item is read, named and filtered exactly as if it had come alone.
 */
export function itemAlone(
	scheme: SchemeSpec,
	body: IDataObject,
	leaf: IDataObject,
	withTopKeys: boolean,
): IDataObject {
	const wrap = (keys: string[]): unknown => {
		if (keys.length === 0) return leaf;
		const [key, ...rest] = keys;
		if (key === '*') return [wrap(rest)];
		const object: IDataObject = {};
		setOwn(object, key, wrap(rest));
		return object;
	};
	const alone = wrap(pathSegments(scheme.itemsPath)) as IDataObject;
	if (!withTopKeys) return alone;
	const top: IDataObject = {};
	for (const key of scheme.bodyKeys)
		if (Object.prototype.hasOwnProperty.call(body, key)) setOwn(top, key, body[key]);
	return { ...top, ...alone };
}

/** The fields that identify an item: the scheme's (Adyen: eventCode, pspReference, success), else every signed field. */
export function itemIdFields(scheme: SchemeSpec, boundaries: Map<string, string>): string[] {
	return scheme.itemIdFields.length > 0 ? scheme.itemIdFields : [...boundaries.keys()];
}
