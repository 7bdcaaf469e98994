/**
 * Delivery ids made of several signed fields. Joined as they were (`acme:42` + `7` and `acme` + `42:7` both gave
 * `acme:42:7`), two events could share an id, and the writes of the second would be taken for replays of the first.
 * So every part percent-encodes (RFC 3986) `%`, `:` and `,`, the characters that join parts and items; ordinary
 * ids read as before (`evt:1`).
 */
const SEPARATORS = /[%:,]/g;

function escapePart(text: string): string {
	return text.replace(
		SEPARATORS,
		(character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

/** One part as it is; several joined with `:`, each escaped, so the text splits into the same parts one way only. */
export function joinIdParts(parts: string[]): string {
	return parts.length === 1 ? parts[0] : parts.map(escapePart).join(':');
}

/** Several items' ids (each its parts, joined) in one text that does not depend on their order. */
export function joinItemIds(ids: string[][]): string {
	return ids
		.map((parts) => parts.map(escapePart).join(':'))
		.sort()
		.join(',');
}
