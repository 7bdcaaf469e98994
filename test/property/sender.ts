/**
 * The sender's side of a set-up, written from each scheme's description, not from the trigger's code: it signs a
 * body (and a timestamp, a message id, the URL it calls, a header, as its scheme says) with a secret of the
 * credential, writes the signature as senders of the scheme do (hex in either case, base64 with or without padding,
 * base64url, an `<algorithm>=` prefix, several signatures while it rotates secrets, entries of other versions), and
 * posts it with a Content-Type, a query and header names in any case. Now and then it is a faulty sender (FAULTS),
 * whose deliveries must be refused.
 */
import { createHmac } from 'crypto';

import fc from 'fast-check';

import { fraction, listOf, pick } from './common';
import { hmacKey } from './oracle';
import type { Format } from './reading';
import type { HmacSender, SecretName, Sender, Setup, SignatureText } from './settings';
import { CREDENTIAL_FIELDS, PRODUCTION_URL, TEST_URL } from './settings';
import type { HeaderLines, Transport } from './transport';
import { sendable } from './transport';

/** n8n's clock in the model: the time a genuine delivery is received, unless a replay says otherwise. */
export const NOW = 1_700_000_000;

/** A request as sent: its bytes, header lines, raw query string ('' or '?…'), where and when it arrives. */
export interface Delivery {
	/** The exact bytes; undefined when n8n keeps none (it parsed a multipart body itself). */
	body: Buffer | undefined;
	lines: HeaderLines;
	query: string;
	transport: Transport;
	testUrl: boolean;
	/** n8n's clock when it arrives (unix seconds). */
	receivedAt: number;
}

/** What a sender signed for one delivery: each placeholder's value, the signed bytes, the keys it signed with. */
export interface Signed {
	values: { body: Buffer; timestamp?: string; id?: string; url?: string; header?: string };
	text: Buffer;
	/** The credential's secrets the signatures were made with (a faulty sender may use another key too). */
	secrets: SecretName[];
}

/** A genuine delivery and what its sender did. */
export interface Genuine {
	request: Delivery;
	/** For HMAC schemes: what was signed. */
	signed?: Signed;
	/** A sender's fault (its delivery must be refused), or 'none'. */
	fault: Fault;
}

const FAULTS = listOf(
	'none|milliseconds timestamp|a key the credential does not hold|a signature form the setting does not read|an id over 256 characters',
);
type Fault = (typeof FAULTS)[number];

/** The sender's choices for one delivery (sampled with the body). */
type Choices = ReturnType<typeof choices> extends fc.Arbitrary<infer T> ? T : never;

// ---- what a sender writes besides the body ----

const CONTENT_TYPES: Record<Format, string[]> = {
	json: listOf(
		'application/json|application/json|application/json; charset=utf-8|APPLICATION/JSON|text/plain|application/cloudevents+json',
	),
	form: listOf(
		'application/x-www-form-urlencoded|application/x-www-form-urlencoded|application/x-www-form-urlencoded; charset=UTF-8|Application/X-WWW-Form-Urlencoded',
	),
};
/** Content-Types the other format's senders use, and none: the Body Format does not read them. */
const MISFIT_TYPES: Record<Format, Array<string | undefined>> = {
	json: ['application/x-www-form-urlencoded', 'text/html', undefined],
	form: ['application/json', undefined, 'text/plain'],
};

const contentType = (format: Format) =>
	fc.oneof(
		{
			arbitrary: pick<string | undefined>(
				...CONTENT_TYPES[format],
				...(format === 'json' ? [undefined] : []),
			),
			weight: 12,
		},
		{ arbitrary: pick(...MISFIT_TYPES[format]), weight: 1 },
	);

export const queries = fc.oneof(
	fc.constant(''),
	fc
		.array(
			fc.tuple(
				fc.oneof(
					fc.string({ minLength: 1, maxLength: 4 }),
					pick('event', 'id', 'approved', 'a[b]'),
				),
				fc.string({ maxLength: 4 }),
			),
			{ minLength: 1, maxLength: 3 },
		)
		.map(
			(pairs) =>
				`?${new URLSearchParams(pairs.map(([n, v]) => [n, v.replace(/[\ud800-\udfff]/g, '')]))}`,
		),
);

/**
 * Message ids and signed header values: plain ones, ones holding the separators of templates (so that bytes could
 * move across a boundary if a template let them), JSON-like text, Latin-1, the longest allowed and one more.
 */
const freeText = fc.oneof(
	{ arbitrary: fc.stringMatching(/^msg_[a-zA-Z0-9]{1,10}$/), weight: 6 },
	{
		arbitrary: fc
			.tuple(
				fc.stringMatching(/^[a-z0-9]{1,4}$/),
				pick('.', ':', '|', '::', ' / ', '-', ',', '.v1.', 'v0:', '{'),
				fc.stringMatching(/^[a-z0-9]{1,4}$/),
			)
			.map((parts) => parts.join('')),
		weight: 3,
	},
	{
		arbitrary: pick('{"a":', '1700000000', 'a.1700000000', 'x{', 'caf\u00e9', 'ab\u00ff', 'a, b'),
		weight: 1,
	},
	{ arbitrary: pick('m'.repeat(256)), weight: 1 },
);

/** The literal text of a sender's template: ids, signed headers and queries that hold it could be split elsewhere. */
function literalsOf(sender: Sender): string[] {
	if (sender.kind !== 'hmac') return [];
	return sender.template.flatMap((piece) =>
		'literal' in piece && piece.literal !== '' ? [piece.literal] : [],
	);
}

/** Free text that holds a literal of the template between two words (or ends with it). */
const word = fc.stringMatching(/^[a-z0-9]{1,4}$/);
const holding = (literals: string[]) =>
	fc
		.tuple(word, fc.constantFrom(...literals), fc.oneof(fc.constant(''), word))
		.map((parts) => parts.join(''));

export function choices(format: Format, bodies: fc.Arbitrary<Buffer>, sender: Sender) {
	const literals = literalsOf(sender);
	// A URL carries printable ASCII unescaped, a fragment aside.
	const inUrls = literals.filter(
		(literal) => /^[\x21-\x7e]+$/.test(literal) && !literal.includes('#'),
	);
	const alsoHolding = (
		usual: fc.Arbitrary<string>,
		usable: string[],
		wrap = (text: string) => text,
	) =>
		usable.length === 0
			? usual
			: fc.oneof(
					{ arbitrary: usual, weight: 2 },
					{ arbitrary: holding(usable).map(wrap), weight: 1 },
				);
	return fc.record({
		body: bodies,
		contentType: contentType(format),
		query: alsoHolding(queries, inUrls, (text) => `?q=${text}`),
		id: alsoHolding(freeText, literals),
		headerValue: alsoHolding(freeText, literals),
		skew: fc.oneof(
			{ arbitrary: fc.constant(0), weight: 6 },
			{ arbitrary: fc.integer({ min: -400, max: 400 }), weight: 2 },
			{ arbitrary: pick(-301, 301, -300, 300, -86_401, 2, 1), weight: 1 },
		),
		text: fraction,
		prefixed: fc.boolean(),
		rotation: pick('none', 'none', 'two secrets', 'a retired key too'),
		decoy: fc.boolean(),
		nameCase: pick('lower', 'capitalized', 'upper'),
		transport: pick<Transport>('node', 'node', 'direct'),
		fault: fc.oneof(
			{ arbitrary: fc.constant<Fault>('none'), weight: 14 },
			{ arbitrary: pick(...FAULTS.slice(1)), weight: 1 },
		),
	});
}

// ---- keys and signatures ----

/** A key no credential of the model holds. */
const RETIRED_KEY = Buffer.from('a retired key the credential no longer holds');

function hmac(algorithm: HmacSender['algorithm'], key: Buffer, text: Buffer): Buffer {
	return createHmac(algorithm, key).update(text).digest();
}

/** A digest written in one of the forms. */
export function written(digest: Buffer, form: SignatureText): string {
	if (form === 'hex') return digest.toString('hex');
	if (form === 'HEX') return digest.toString('hex').toUpperCase();
	if (form === 'base64') return digest.toString('base64');
	if (form === 'base64url') return digest.toString('base64url');
	return digest.toString('base64').replace(/=+$/, '');
}

/** The signature header's value in the sender's format. */
function signatureValue(
	sender: HmacSender,
	signatures: string[],
	timestamp: string | undefined,
	c: Choices,
): string {
	const { label } = sender;
	if (sender.format === 'keyValue') {
		const entries = signatures.map((sig) => `${label}=${sig}`);
		if (c.decoy) entries.push(`v0=${'0'.repeat(16)}`);
		const stamped =
			timestamp === undefined ? entries : [`${sender.timestampKey}=${timestamp}`, ...entries];
		// The timestamp first, or (when no signature entry shares its key) last.
		const last = !c.prefixed && label !== sender.timestampKey;
		const ordered = last ? [...stamped.slice(1), stamped[0]] : stamped;
		return ordered.join(sender.pairSeparator === ',' && c.decoy ? ', ' : sender.pairSeparator);
	}
	if (sender.format === 'versioned') {
		const entries = signatures.map((sig) => `${label},${sig}`);
		return (c.decoy ? [...entries, 'v1a,AAAA'] : entries).join(' ');
	}
	const separator = c.decoy ? ' ' : ', ';
	if (sender.format === 'prefixed')
		return signatures.map((sig) => `${label}${sig}`).join(separator);
	const prefix =
		sender.algorithmPrefix && c.prefixed
			? `${c.nameCase === 'upper' ? sender.algorithm.toUpperCase() : sender.algorithm}=`
			: '';
	return signatures.map((sig) => `${prefix}${sig}`).join(separator);
}

/** A form of signature the setting does not read, for a faulty sender. */
function misfit(sender: HmacSender, digest: Buffer): string {
	if (sender.texts.includes('hex') && !sender.texts.includes('base64'))
		return digest.toString('base64');
	if (!sender.texts.includes('hex')) return digest.toString('hex');
	// Both read: an algorithm the setting does not use, named in the prefix.
	return `${sender.algorithm === 'sha1' ? 'sha256' : 'sha1'}=${digest.toString('hex')}`;
}

// ---- header names ----

/** A header name as a sender may write it: as it is (lower case), capitalized, or in upper case. */
export function cased(name: string, nameCase: string): string {
	if (nameCase === 'upper') return name.toUpperCase();
	if (nameCase === 'capitalized')
		return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
	return name;
}

// ---- signing ----

function secretOf(setup: Setup, name: SecretName): string {
	return setup.credential[CREDENTIAL_FIELDS[name]];
}

/** The secrets a sender signs with: its own, and while it rotates, another of the credential. */
function signingSecrets(setup: Setup, c: Choices): SecretName[] {
	const own = setup.signWith as SecretName;
	if (c.rotation !== 'two secrets') return [own];
	const other = (['current', 'previous', 'test'] as SecretName[]).find(
		(name) => name !== own && secretOf(setup, name).trim() !== '',
	);
	return other === undefined ? [own] : [own, other];
}

const placeholderOf = (piece: HmacSender['template'][number]) =>
	'placeholder' in piece ? piece.placeholder : 'header' in piece ? 'header' : undefined;

/** The placeholder values and signed bytes of a delivery. */
interface Content {
	body: Buffer;
	timestamp: string;
	id: string;
	url: string;
	header: string;
	text: Buffer;
}

function signedContent(sender: HmacSender, setup: Setup, c: Choices, timestamp: string): Content {
	const id = c.fault === 'an id over 256 characters' ? 'i'.repeat(257) : c.id;
	const values = {
		body: c.body,
		timestamp,
		id,
		// Signed URL when set, else the webhook's URL.
		url: (sender.signedUrl ?? (setup.testUrl ? TEST_URL : PRODUCTION_URL)) + c.query,
		header: c.headerValue,
	};
	const text = Buffer.concat(
		sender.template.map((piece) => {
			const name = placeholderOf(piece);
			if (name === undefined) return Buffer.from((piece as { literal: string }).literal, 'utf8');
			return name === 'body' ? c.body : Buffer.from(values[name], 'utf8');
		}),
	);
	return { ...values, text };
}

/** A fault of the sender only counts where its scheme signs what it gets wrong. */
function faultThatApplies(fault: Fault, uses: Set<string | undefined>): Fault {
	if (fault === 'milliseconds timestamp' && !uses.has('timestamp')) return 'none';
	if (fault === 'an id over 256 characters' && !uses.has('id')) return 'none';
	return fault;
}

/** The request a sender sends with its choices, received at n8n's clock now. */
const sent = (setup: Setup, c: Choices, lines: HeaderLines, transport: Transport): Delivery => ({
	body: c.body,
	lines,
	query: c.query,
	transport,
	testUrl: setup.testUrl,
	receivedAt: NOW,
});

function hmacDelivery(setup: Setup, sender: HmacSender, c: Choices): Genuine {
	const sentAt = NOW + c.skew;
	const timestamp = c.fault === 'milliseconds timestamp' ? `${sentAt}000` : String(sentAt);
	const content = signedContent(sender, setup, c, timestamp);
	const secrets = signingSecrets(setup, c);
	// A secret not valid in the key's encoding is used as text: no slot may take its signature.
	const keys = secrets.map((name) => {
		const secret = secretOf(setup, name).trim();
		return hmacKey(secret, sender.keyEncoding) ?? Buffer.from(secret);
	});
	if (c.fault === 'a key the credential does not hold') keys.splice(0, keys.length, RETIRED_KEY);
	if (c.rotation === 'a retired key too') keys.push(RETIRED_KEY);
	const form = sender.texts[Math.floor(c.text * sender.texts.length)];
	const digests = keys.map((key) => hmac(sender.algorithm, key, content.text));
	const signatures =
		c.fault === 'a signature form the setting does not read'
			? digests.map((digest) => misfit(sender, digest))
			: digests.map((digest) => written(digest, form));
	const uses = new Set(sender.template.map(placeholderOf));
	const lines: HeaderLines = [];
	const fault = faultThatApplies(c.fault, uses);
	const add = (name: string, value: string) => lines.push([cased(name, c.nameCase), value]);
	if (c.contentType !== undefined) add('content-type', c.contentType);
	const inHeader = sender.format === 'keyValue';
	add(
		sender.signatureHeader,
		signatureValue(sender, signatures, inHeader ? timestamp : undefined, c),
	);
	if (uses.has('timestamp') && !inHeader) add(sender.timestampHeader, timestamp);
	if (uses.has('id')) add(sender.idHeader, content.id);
	const signedHeader = sender.template.find((piece) => 'header' in piece);
	if (signedHeader !== undefined && 'header' in signedHeader)
		add(signedHeader.header, content.header);
	add('user-agent', 'tenant-api-sender/1.0');
	const { text, ...values } = content;
	const signedValues: Signed['values'] = { body: c.body };
	for (const name of ['timestamp', 'id', 'url', 'header'] as const)
		if (uses.has(name)) signedValues[name] = values[name];
	return {
		request: sent(setup, c, lines, lines.every(sendable) ? c.transport : 'direct'),
		signed: {
			values: signedValues,
			text,
			secrets: fault === 'a key the credential does not hold' ? [] : secrets,
		},
		fault,
	};
}

/** A genuine delivery of the set-up's sender, with its choices. */
export function deliver(setup: Setup, c: Choices): Genuine {
	const { sender } = setup;
	if (sender.kind === 'hmac') return hmacDelivery(setup, sender, c);
	const lines: HeaderLines =
		c.contentType === undefined ? [] : [[cased('content-type', c.nameCase), c.contentType]];
	if (sender.kind === 'secretHeader') {
		const secret = secretOf(setup, setup.signWith as SecretName);
		const sent =
			c.fault === 'a key the credential does not hold' ? 'Not-The-Shared-Key-42' : secret;
		lines.push([
			cased(sender.header, c.nameCase),
			c.transport === 'direct' && c.decoy ? ` ${sent} ` : sent,
		]);
	}
	const fault: Fault =
		sender.kind === 'secretHeader' && c.fault === 'a key the credential does not hold'
			? c.fault
			: 'none';
	return { request: sent(setup, c, lines, c.transport), fault };
}
