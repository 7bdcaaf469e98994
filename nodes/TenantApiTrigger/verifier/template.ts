/** The signed-content template of a scheme (`{id}.{timestamp}.{body}`), parsed once into parts. */
export type TemplatePart =
	| { kind: 'literal'; text: string }
	| { kind: 'id' | 'timestamp' | 'body' | 'url' | 'formFields' }
	| { kind: 'item'; path: string };

const PLACEHOLDER = /\{([^{}]*)\}/g;
/** Placeholder names are case-insensitive (`{URL}` = `{url}`); `item.` paths are not. */
const NAMED: Record<string, 'id' | 'timestamp' | 'body' | 'url' | 'formFields'> = {
	id: 'id',
	timestamp: 'timestamp',
	body: 'body',
	url: 'url',
	formfields: 'formFields',
};

/** Parts of a template, or undefined when it names a placeholder that does not exist (a typo such as `{boby}`). */
export function parseTemplate(template: string): TemplatePart[] | undefined {
	const parts: TemplatePart[] = [];
	let last = 0;
	for (const match of template.matchAll(PLACEHOLDER)) {
		const index = match.index ?? 0;
		if (index > last) parts.push({ kind: 'literal', text: template.slice(last, index) });
		const name = match[1].trim();
		const named = Object.prototype.hasOwnProperty.call(NAMED, name.toLowerCase())
			? NAMED[name.toLowerCase()]
			: undefined;
		if (named) parts.push({ kind: named });
		else if (name.startsWith('item.') && name.length > 5)
			parts.push({ kind: 'item', path: name.slice(5) });
		else return undefined;
		last = index + match[0].length;
	}
	if (last < template.length) parts.push({ kind: 'literal', text: template.slice(last) });
	return parts.length > 0 ? parts : undefined;
}

/** The value of every placeholder for one delivery (or one body item). */
export interface TemplateValues {
	id?: string;
	timestamp?: string;
	body: Buffer;
	url?: string;
	/** Already in signing order; passed part by part, never concatenated. */
	formFields?: string[];
	item?: (path: string) => string;
}

/** The bytes of each part, in order (the body is passed as is, never copied). */
export function renderParts(parts: TemplatePart[], values: TemplateValues): Array<Buffer | string> {
	return parts.flatMap((part): Array<Buffer | string> => {
		switch (part.kind) {
			case 'literal':
				return [part.text];
			case 'body':
				return [values.body];
			case 'item':
				return [values.item ? values.item(part.path) : ''];
			case 'formFields':
				return values.formFields ?? [];
			default:
				return [values[part.kind] ?? ''];
		}
	});
}

export function usesPart(parts: TemplatePart[], kind: TemplatePart['kind']): boolean {
	return parts.some((part) => part.kind === kind);
}

/**
 * Whether the signed text splits back into its parts one way only where two placeholders meet with no literal text
 * between them. A sender's bytes could otherwise move from one part to the next under the same signature
 * (`{url}{body}` with form fields: the end of the query string into the first field). Allowed: a part followed by
 * `{url}` (it starts with the webhook's own address), a JSON body on either side (one object: `{` … `}`), and
 * `{url}{formFields}` (Twilio's rule, whose limits are documented).
 */
export function partsSplitOneWay(parts: TemplatePart[], bodyFormat: 'json' | 'form'): boolean {
	return parts.every((part, index) => {
		const next = parts[index + 1];
		if (next === undefined || part.kind === 'literal' || next.kind === 'literal') return true;
		if (next.kind === 'url') return true;
		if (bodyFormat === 'json' && (part.kind === 'body' || next.kind === 'body')) return true;
		return part.kind === 'url' && next.kind === 'formFields';
	});
}
