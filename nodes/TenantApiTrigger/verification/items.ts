import type { IDataObject } from 'n8n-workflow';

import { itemsAtPath, valueAtPath } from './paths';
import type { ItemFieldType, SchemeSpec } from './scheme';
import type { TemplatePart } from './template';

/**
 * Signed items inside a JSON body (Adyen payments: each NotificationRequestItem carries the HMAC of some of its
 * fields). Every item must be signed, each signed field must have its type, and no item may repeat.
 */
export interface SignedItem {
	/** The text of each `{item.<path>}` of the template. */
	fields: Map<string, string>;
	signature: string;
	/** The item's id (`itemIdFields` joined with ':'), or undefined when one of them is empty. */
	id?: string;
}

export type ItemsFailure = 'unexpected_field' | 'malformed_items' | 'invalid_item_field' | 'duplicate_item' | 'missing_signature';

/** The text a field is signed as, or undefined when its JSON type is not the one the scheme allows. */
function fieldText(value: unknown, type: ItemFieldType | undefined): string | undefined {
	if (type === 'wholeNumber') return Number.isSafeInteger(value) ? String(value) : undefined;
	if (type !== undefined) {
		if (value === undefined) return '';
		if (typeof value !== 'string') return undefined;
		return type === 'textWithoutColon' && value.includes(':') ? undefined : value;
	}
	if (value === undefined || value === null) return '';
	if (typeof value === 'string' || typeof value === 'boolean') return String(value);
	return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

function itemFields(scheme: SchemeSpec, parts: TemplatePart[], item: unknown): Map<string, string> | undefined {
	const fields = new Map<string, string>();
	for (const part of parts) {
		if (part.kind !== 'item' || fields.has(part.path)) continue;
		const text = fieldText(valueAtPath(item, part.path), scheme.itemFieldTypes[part.path]);
		if (text === undefined) return undefined;
		fields.set(part.path, text);
	}
	return fields;
}

function itemId(scheme: SchemeSpec, item: unknown): string | undefined {
	if (scheme.itemIdFields.length === 0) return undefined;
	const parts = scheme.itemIdFields.map((path) => valueAtPath(item, path));
	return parts.every((part): part is string => typeof part === 'string' && part !== '') ? parts.join(':') : undefined;
}

export function signedItems(scheme: SchemeSpec, parts: TemplatePart[], body: IDataObject): SignedItem[] | ItemsFailure {
	if (scheme.bodyKeys.length > 0 && Object.keys(body).some((key) => !scheme.bodyKeys.includes(key))) return 'unexpected_field';
	const items = itemsAtPath(body, scheme.itemsPath);
	if (items === undefined) return 'malformed_items';
	if (items.length === 0) return 'missing_signature';
	const seen = new Set<string>();
	const signed: SignedItem[] = [];
	for (const item of items) {
		if (item === null || typeof item !== 'object' || Array.isArray(item)) return 'malformed_items';
		const signature = valueAtPath(item, scheme.itemSignaturePath);
		if (typeof signature !== 'string' || signature.trim() === '') return 'missing_signature';
		const fields = itemFields(scheme, parts, item);
		if (fields === undefined) return 'invalid_item_field';
		const identity = JSON.stringify([...fields.values()]);
		if (seen.has(identity)) return 'duplicate_item';
		seen.add(identity);
		signed.push({ fields, signature: signature.trim(), id: itemId(scheme, item) });
	}
	return signed;
}

/** The delivery id of signed items: their ids sorted and joined with ','; undefined when an item has none. */
export function itemsId(items: SignedItem[]): string | undefined {
	const ids = items.map((item) => item.id);
	return ids.every((id): id is string => id !== undefined) && ids.length > 0 ? [...ids].sort().join(',') : undefined;
}
