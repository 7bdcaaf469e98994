/**
 * Whether a text holds a secret of the credential, read back every way it may have been written: percent-decoded
 * (again and again), JSON-unescaped, a `+` read as a space, base64 and base64url decoded (every run, from each of its
 * first four characters); in any letter case; and the secret's own base64 text in any letter case. Written from
 * docs/trigger.md, not from nodes/shared/secretSpellings.ts (which spells secrets out instead).
 */

const percentDecoded = (text: string) =>
	text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
		Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'),
	);

const jsonUnescaped = (text: string) =>
	text.replace(
		/\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])/g,
		(escape) => JSON.parse(`"${escape}"`) as string,
	);

/** The text as written, percent-decoded until nothing changes, each of those JSON-unescaped. */
function textReadings(text: string): string[] {
	const decoded = [text];
	let next = text.includes('%') ? percentDecoded(text) : text;
	while (next !== decoded[decoded.length - 1]) {
		decoded.push(next);
		next = percentDecoded(next);
	}
	const unescaped = decoded.filter((reading) => reading.includes('\\')).map(jsonUnescaped);
	return [...decoded, ...unescaped];
}

/**
 * What base64 or base64url text in `text` decodes to (a space read back as the `+` it was), for runs of at least
 * `shortest` characters.
 */
function base64Readings(text: string, shortest: number): string[] {
	const standard = text.replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/');
	return (standard.match(/[A-Za-z0-9+/]+/g) ?? [])
		.filter((run) => run.length >= shortest)
		.flatMap((run) =>
			[0, 1, 2, 3].map((start) => Buffer.from(run.slice(start), 'base64').toString('utf8')),
		);
}

/** Compared in any letter case, a `+` and a space as one. */
const folded = (text: string) => text.toLowerCase().replace(/\+/g, ' ');

/** The base64 and base64url text made of the secret's bytes alone, at each of its three byte offsets. */
function base64Texts(secret: string): string[] {
	const length = Buffer.byteLength(secret);
	return [0, 1, 2].flatMap((offset) => {
		const text = Buffer.from(`${'\0'.repeat(offset)}${secret}`).toString('base64');
		const inside = text.slice(Math.ceil((offset * 4) / 3), Math.floor(((offset + length) * 4) / 3));
		return [inside, inside.replace(/\+/g, '-').replace(/\//g, '_')];
	});
}

/** A test of whether a text holds one of `secrets` in any of its spellings. */
export function secretFinder(secrets: string[]): (text: string) => boolean {
	if (secrets.length === 0) return () => false;
	const plain = secrets.map(folded);
	const encoded = secrets.flatMap(base64Texts).map(folded);
	const shortest = Math.min(
		...secrets.map((secret) => Math.floor((Buffer.byteLength(secret) * 4) / 3)),
	);
	const holds = (readings: string[], wanted: string[]) =>
		readings.some((reading) => wanted.some((text) => reading.includes(text)));
	return (text) => {
		const readings = textReadings(text);
		const asText = readings.map(folded);
		return (
			holds(asText, plain) ||
			holds(asText, encoded) ||
			holds(readings.flatMap((reading) => base64Readings(reading, shortest)).map(folded), plain)
		);
	};
}

/** Every text in a value, its names included. */
export function texts(value: unknown): string[] {
	const out: string[] = [];
	const pending = [value];
	while (pending.length > 0) {
		const current = pending.pop();
		if (current === null || typeof current !== 'object') out.push(String(current));
		else
			for (const [name, inner] of Object.entries(current)) {
				out.push(name);
				pending.push(inner);
			}
	}
	return out;
}
