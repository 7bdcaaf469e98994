'use strict';

const crypto = require('node:crypto');

/**
 * Signs webhook deliveries the way each provider does (the sender's side only: verification is the
 * product's job, in nodes/TenantApiTrigger/verifier, and the tests check one against the other).
 *
 * Schemes:
 * - `hmac-sha256-hex` (default), `hmac-sha256-base64`, `hmac-sha256-prefixed` (`sha256=<hex>`), `hmac-sha512-hex`:
 *   HMAC of the raw body in `x-signature`; with `timestamp`, of `<timestamp>.<body>` and the timestamp in `x-timestamp`.
 * - `secret-header`: the secret itself in `x-webhook-secret`. `none`: nothing.
 * - `standard-webhooks` / `svix`: `webhook-*` / `svix-*` headers, `v1,<base64>` of `<id>.<timestamp>.<body>`, the
 *   secret is `whsec_<base64 key>`.
 * - `stripe`: `Stripe-Signature: t=<ts>,v1=<hex of "<ts>.<body>">`. `slack`: `v0=<hex of "v0:<ts>:<body>">` +
 *   `X-Slack-Request-Timestamp`. `paddle`: `Paddle-Signature: ts=<ts>;h1=<hex of "<ts>:<body>">`.
 * - `github`: `X-Hub-Signature-256: sha256=<hex>`. `shopify`: `X-Shopify-Hmac-Sha256: <base64>`.
 * - `square`: base64 HMAC of `<url><body>` in `x-square-hmacsha256-signature`.
 * - `adyen-platform`: base64 HMAC (hex key) of the body in `HmacSignature`. `adyen-payments`: the body is an Adyen
 *   notification whose items carry `additionalData.hmacSignature` (hex key, the documented field list).
 * - `twilio`: base64 HMAC-SHA1 of the URL followed by the form fields sorted by name, in `X-Twilio-Signature`;
 *   a JSON body instead gets `bodySHA256=<hex sha256 of the body>` appended to the URL, which is signed.
 *
 * @typedef {'hmac-sha256-hex'|'hmac-sha256-base64'|'hmac-sha256-prefixed'|'hmac-sha512-hex'|'secret-header'|'none'
 *   |'standard-webhooks'|'svix'|'stripe'|'slack'|'paddle'|'github'|'shopify'|'square'|'adyen-platform'|'adyen-payments'|'twilio'} SigningScheme
 * @typedef {{ id: string, event: string, created_at: number, data: { object: unknown } }} WebhookEvent
 * @typedef {{ notificationItems: Array<{ NotificationRequestItem: Record<string, unknown> }> } & Record<string, unknown>} AdyenNotification
 */

/** @type {readonly SigningScheme[]} */
const SCHEMES = [
	'hmac-sha256-hex',
	'hmac-sha256-base64',
	'hmac-sha256-prefixed',
	'hmac-sha512-hex',
	'secret-header',
	'none',
	'standard-webhooks',
	'svix',
	'stripe',
	'slack',
	'paddle',
	'github',
	'shopify',
	'square',
	'adyen-platform',
	'adyen-payments',
	'twilio',
];

const SIGNATURE_HEADER = 'x-signature';
const TIMESTAMP_HEADER = 'x-timestamp';
const SECRET_HEADER = 'x-webhook-secret';

/** The fields of an Adyen payments notification item that are signed, in order. */
const ADYEN_SIGNED_FIELDS = [
	'pspReference',
	'originalReference',
	'merchantAccountCode',
	'merchantReference',
	'amount.value',
	'amount.currency',
	'eventCode',
	'success',
];

/**
 * @param {unknown} scheme
 * @returns {scheme is SigningScheme}
 */
function isScheme(scheme) {
	return typeof scheme === 'string' && /** @type {readonly string[]} */ (SCHEMES).includes(scheme);
}

/** @param {Buffer|string} body */
const bytes = (body) => (Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'));

/**
 * @param {'sha1'|'sha256'|'sha512'} algorithm
 * @param {Buffer|string} key
 * @param {Array<Buffer|string>} parts
 */
function hmac(algorithm, key, parts) {
	const mac = crypto.createHmac(algorithm, key);
	for (const part of parts) mac.update(part);
	return mac.digest();
}

/** Standard Webhooks keys are `whsec_<base64>`: the HMAC key is the decoded bytes. @param {string} secret */
function base64Key(secret) {
	return Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
}

/** Adyen keys are hex. @param {string} secret */
function hexKey(secret) {
	if (!/^([0-9a-f]{2})+$/i.test(secret)) throw new Error('adyen schemes need a hex HMAC key');
	return Buffer.from(secret, 'hex');
}

/**
 * Form fields sorted by name, each name followed by its value (Twilio: a repeated name, its distinct values sorted).
 * @param {Buffer} body
 */
function sortedFormFields(body) {
	/** @type {Map<string, string[]>} */
	const fields = new Map();
	for (const [name, value] of new URLSearchParams(body.toString('utf8')))
		fields.set(name, [...(fields.get(name) ?? []), value]);
	return [...fields.keys()]
		.sort()
		.map((name) =>
			[...new Set(fields.get(name))]
				.sort()
				.map((value) => name + value)
				.join(''),
		)
		.join('');
}

/** @param {number|string|boolean|undefined|null} timestamp */
function timestampText(timestamp) {
	if (timestamp === true) return String(Math.floor(Date.now() / 1000));
	if (timestamp === false || timestamp === undefined || timestamp === null) return undefined;
	return String(timestamp);
}

/**
 * Signature headers (lower-case names) for one delivery whose signature travels in headers.
 * `timestamp: true` means now; schemes that always sign a timestamp use now when none is given.
 * `id` is the message id (Standard Webhooks, Svix); `url` the URL the delivery is sent to (Square, Twilio);
 * `contentType` tells Twilio whether the body is form fields.
 * @param {{ secret: string, scheme?: SigningScheme, body: Buffer|string, timestamp?: number|string|boolean, id?: string, url?: string, contentType?: string }} opts
 */
function sign({
	secret,
	scheme = 'hmac-sha256-hex',
	body,
	timestamp,
	id = 'msg_sandbox',
	url,
	contentType,
}) {
	if (!isScheme(scheme)) throw new Error(`unknown signing scheme: ${String(scheme)}`);
	if (scheme === 'adyen-payments')
		throw new Error('adyen-payments signs inside the body: use signAdyenPayments()');
	const raw = bytes(body);
	if (scheme === 'none' || scheme === 'secret-header') {
		/** @type {Record<string, string>} */
		const headers = {};
		const ts = timestampText(timestamp);
		if (ts !== undefined) headers[TIMESTAMP_HEADER] = ts;
		if (scheme === 'secret-header') headers[SECRET_HEADER] = secret;
		return headers;
	}
	if (typeof secret !== 'string' || secret === '')
		throw new Error('a secret is required for HMAC schemes');
	const now = timestampText(timestamp ?? true);
	switch (scheme) {
		case 'standard-webhooks':
		case 'svix': {
			const p = scheme === 'svix' ? 'svix' : 'webhook';
			const sig = hmac('sha256', base64Key(secret), [`${id}.${now}.`, raw]).toString('base64');
			return { [`${p}-id`]: id, [`${p}-timestamp`]: String(now), [`${p}-signature`]: `v1,${sig}` };
		}
		case 'stripe':
			return {
				'stripe-signature': `t=${now},v1=${hmac('sha256', secret, [`${now}.`, raw]).toString('hex')}`,
			};
		case 'slack':
			return {
				'x-slack-request-timestamp': String(now),
				'x-slack-signature': `v0=${hmac('sha256', secret, [`v0:${now}:`, raw]).toString('hex')}`,
			};
		case 'paddle':
			return {
				'paddle-signature': `ts=${now};h1=${hmac('sha256', secret, [`${now}:`, raw]).toString('hex')}`,
			};
		case 'github':
			return {
				'x-hub-signature-256': `sha256=${hmac('sha256', secret, [raw]).toString('hex')}`,
				'x-github-delivery': id,
			};
		case 'shopify':
			return {
				'x-shopify-hmac-sha256': hmac('sha256', secret, [raw]).toString('base64'),
				'x-shopify-webhook-id': id,
			};
		case 'square':
			if (!url) throw new Error('square signs the notification URL: pass url');
			return {
				'x-square-hmacsha256-signature': hmac('sha256', secret, [url, raw]).toString('base64'),
			};
		case 'adyen-platform':
			return {
				hmacsignature: hmac('sha256', hexKey(secret), [raw]).toString('base64'),
				protocol: 'HmacSHA256',
			};
		case 'twilio': {
			if (!url) throw new Error('twilio signs the URL: pass url');
			const form = /^application\/x-www-form-urlencoded/i.test(contentType ?? '');
			return {
				'x-twilio-signature': hmac('sha1', secret, [
					url,
					form ? sortedFormFields(raw) : '',
				]).toString('base64'),
			};
		}
		default: {
			const ts = timestampText(timestamp);
			const payload = ts === undefined ? [raw] : [`${ts}.`, raw];
			const mac = hmac(scheme === 'hmac-sha512-hex' ? 'sha512' : 'sha256', secret, payload);
			/** @type {Record<string, string>} */
			const headers = ts === undefined ? {} : { [TIMESTAMP_HEADER]: ts };
			if (scheme === 'hmac-sha256-base64') headers[SIGNATURE_HEADER] = mac.toString('base64');
			else if (scheme === 'hmac-sha256-prefixed')
				headers[SIGNATURE_HEADER] = 'sha256=' + mac.toString('hex');
			else headers[SIGNATURE_HEADER] = mac.toString('hex');
			return headers;
		}
	}
}

/**
 * @param {unknown} item
 * @param {string} path
 */
function fieldText(item, path) {
	let value = item;
	for (const key of path.split('.'))
		value =
			value === null || typeof value !== 'object'
				? undefined
				: /** @type {Record<string, unknown>} */ (value)[key];
	return value === undefined || value === null ? '' : String(value);
}

/**
 * An Adyen payments notification with `additionalData.hmacSignature` set in every item (a copy; the input is kept).
 * @template {AdyenNotification} T
 * @param {T} notification
 * @param {string} secret hex HMAC key
 * @returns {T}
 */
function signAdyenPayments(notification, secret) {
	const key = hexKey(secret);
	return {
		...notification,
		notificationItems: notification.notificationItems.map(({ NotificationRequestItem: item }) => {
			const signed = ADYEN_SIGNED_FIELDS.map((path) => fieldText(item, path)).join(':');
			const hmacSignature = hmac('sha256', key, [signed]).toString('base64');
			const additionalData = /** @type {Record<string, unknown>|undefined} */ (item.additionalData);
			return {
				NotificationRequestItem: {
					...item,
					additionalData: { ...(additionalData ?? {}), hmacSignature },
				},
			};
		}),
	};
}

/**
 * An event as an Adyen payments notification (one item), the shape `adyen-payments` deliveries have.
 * @param {WebhookEvent} event
 */
function adyenNotification(event) {
	const object = /** @type {Record<string, unknown>} */ (event.data?.object ?? {});
	return {
		live: 'false',
		notificationItems: [
			{
				NotificationRequestItem: {
					pspReference: event.id,
					originalReference: '',
					merchantAccountCode: 'TenantSandbox',
					merchantReference: String(object.id ?? ''),
					amount: { value: Number(object.amount ?? 0), currency: String(object.currency ?? 'EUR') },
					eventCode: event.event,
					eventDate: new Date(event.created_at * 1000).toISOString(),
					success: 'true',
					additionalData: {},
				},
			},
		],
	};
}

/**
 * The form fields of an event: its scalar fields as they are, objects as JSON text.
 * @param {Record<string, unknown>} event
 */
function eventAsForm(event) {
	const form = new URLSearchParams();
	for (const [name, value] of Object.entries(event))
		form.append(
			name,
			value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value),
		);
	return Buffer.from(form.toString(), 'utf8');
}

/**
 * One whole delivery of `event` in `scheme`: the body bytes, the headers (content type included) and the URL to post to
 * (Twilio JSON deliveries carry the body hash in it). Slack and Twilio deliveries are form fields unless
 * `bodyFormat: 'json'`; the others JSON unless `bodyFormat: 'form'`.
 * @param {{ secret: string, scheme?: SigningScheme, event: WebhookEvent, url: string, signedUrl?: string, timestamp?: number|string|boolean, bodyFormat?: 'json'|'form' }} opts
 * @returns {{ body: Buffer, headers: Record<string, string>, url: string }}
 */
function signedDelivery({
	secret,
	scheme = 'hmac-sha256-hex',
	event,
	url,
	signedUrl,
	timestamp,
	bodyFormat,
}) {
	const form =
		(bodyFormat ?? (scheme === 'twilio' || scheme === 'slack' ? 'form' : 'json')) === 'form';
	const contentType = form ? 'application/x-www-form-urlencoded' : 'application/json';
	if (scheme === 'adyen-payments') {
		const body = Buffer.from(
			JSON.stringify(signAdyenPayments(adyenNotification(event), secret)),
			'utf8',
		);
		return { body, headers: { 'content-type': contentType }, url };
	}
	const body = form
		? eventAsForm(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (event)))
		: Buffer.from(JSON.stringify(event), 'utf8');
	let target = url;
	let signed = signedUrl ?? url;
	if (scheme === 'twilio' && !form) {
		const hash = `bodySHA256=${crypto.createHash('sha256').update(body).digest('hex')}`;
		const join = (/** @type {string} */ u) => `${u}${u.includes('?') ? '&' : '?'}${hash}`;
		target = join(url);
		signed = join(signed);
	}
	const headers = sign({ secret, scheme, body, timestamp, id: event.id, url: signed, contentType });
	return { body, headers: { 'content-type': contentType, ...headers }, url: target };
}

/**
 * Demo secrets that are valid for every scheme's key format (base64 for Standard Webhooks/Svix, hex for Adyen).
 * @param {SigningScheme} scheme
 */
function demoSecret(scheme) {
	if (scheme === 'standard-webhooks' || scheme === 'svix')
		return `whsec_${Buffer.from('tenant-api-sandbox-signing-key').toString('base64')}`;
	if (scheme === 'adyen-platform' || scheme === 'adyen-payments')
		return '44782def547aaa06c910c43932b1eb0c71fc68d9d0c057550c48ec2acf6ba056';
	return 'whsec_sandbox';
}

/**
 * The Tenant API Trigger settings that verify deliveries of `scheme` (what `npm start --scheme` and the tests use),
 * for bodies in `bodyFormat` (by default, what signedDelivery sends: form fields for Slack and Twilio, else JSON;
 * the trigger reads Twilio's JSON by the body hash in the URL, and has no Body Format for the JSON-only presets).
 * @param {SigningScheme} scheme
 * @param {'json'|'form'} [bodyFormat]
 * @returns {Record<string, unknown>}
 */
function triggerParameters(scheme, bodyFormat) {
	/** @type {Record<string, Record<string, unknown>>} */
	const settings = {
		'hmac-sha256-hex': { verification: 'hmacSha256' },
		'hmac-sha256-base64': { verification: 'hmacSha256' },
		'hmac-sha256-prefixed': { verification: 'hmacSha256' },
		'hmac-sha512-hex': { verification: 'hmacSha512' },
		'secret-header': { verification: 'secretHeader' },
		none: { verification: 'none' },
		'standard-webhooks': { verification: 'standardWebhooks' },
		svix: { verification: 'standardWebhooks' },
		stripe: { verification: 'stripe' },
		slack: { verification: 'slack' },
		paddle: { verification: 'paddle' },
		github: { verification: 'hmacSha256', signatureHeader: 'X-Hub-Signature-256' },
		shopify: { verification: 'hmacSha256', signatureHeader: 'X-Shopify-Hmac-Sha256' },
		square: { verification: 'square' },
		'adyen-platform': { verification: 'adyenPlatform' },
		'adyen-payments': { verification: 'adyenPayments' },
		twilio: { verification: 'twilio' },
	};
	const verification = settings[scheme].verification;
	const hasBodyFormat = ['hmacSha256', 'hmacSha512', 'secretHeader', 'none', 'slack'].includes(
		String(verification),
	);
	return hasBodyFormat && bodyFormat !== undefined
		? { ...settings[scheme], bodyFormat }
		: { ...settings[scheme] };
}

module.exports = {
	sign,
	signAdyenPayments,
	hmac,
	base64Key,
	hexKey,
	sortedFormFields,
	fieldText,
	ADYEN_SIGNED_FIELDS,
	adyenNotification,
	signedDelivery,
	demoSecret,
	triggerParameters,
	isScheme,
	SCHEMES,
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	SECRET_HEADER,
};
