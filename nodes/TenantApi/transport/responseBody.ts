/** Turns the raw response bytes into JSON, or a reason a person can act on. */

export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export type DecodedBody =
	| { ok: true; empty: boolean; value: unknown }
	| { ok: false; reason: string };

function toBuffer(raw: unknown): Buffer | undefined {
	if (raw === undefined || raw === null) return undefined;
	if (Buffer.isBuffer(raw)) return raw;
	if (raw instanceof ArrayBuffer) return Buffer.from(raw);
	if (ArrayBuffer.isView(raw)) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
	if (typeof raw === 'string') return Buffer.from(raw, 'utf8');
	return Buffer.from(JSON.stringify(raw), 'utf8');
}

/** A short, tag-free excerpt of a non-JSON answer (HTML error pages say little but their title). */
export function excerpt(text: string, max = 200): string {
	const plain = text
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return plain.length > max ? `${plain.slice(0, max)}…` : plain;
}

export function decodeJsonBody(raw: unknown, contentType?: unknown): DecodedBody {
	const bytes = toBuffer(raw);
	if (!bytes || bytes.length === 0) return { ok: true, empty: true, value: undefined };
	if (bytes.length > MAX_RESPONSE_BYTES) {
		return {
			ok: false,
			reason: `The response is ${Math.round(bytes.length / 1048576)} MiB, above the ${MAX_RESPONSE_BYTES / 1048576} MiB this node accepts`,
		};
	}
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return { ok: false, reason: 'The response body is not valid UTF-8 text, so it cannot be JSON' };
	}
	if (text.trim() === '') return { ok: true, empty: true, value: undefined };
	try {
		return { ok: true, empty: false, value: JSON.parse(text) };
	} catch {
		const type = typeof contentType === 'string' && contentType ? ` (${contentType.split(';')[0]})` : '';
		return { ok: false, reason: `The response is not JSON${type}: "${excerpt(text)}"` };
	}
}
