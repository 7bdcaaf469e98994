/**
 * Every signing scheme the sandbox sends, verified by the product's verifier with the settings the node builds
 * (the sandbox only signs; the product only verifies). For each: genuine accepted, tampered body, wrong secret,
 * stale and future timestamps, changed id and changed timestamp refused, two secrets, several signatures. Then the
 * Custom HMAC settings that express each preset.
 */
import { customScheme, verificationConfig } from '../../nodes/TenantApiTrigger/settings';
import type { PresetName, VerificationConfig } from '../../nodes/TenantApiTrigger/verifier';
import { PRESETS, verifyDelivery } from '../../nodes/TenantApiTrigger/verifier';
import type { SigningScheme, WebhookEvent } from '../../sandbox/signing';
import { SCHEMES, demoSecret, signedDelivery, triggerParameters } from '../../sandbox/signing';
import { VERIFICATION_NAMES } from '../../nodes/TenantApiTrigger/verifications';
import { configForScheme, parameterReader as reader, verifyReceived } from '../harness/verifier';

const URL_ = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
const EVENT: WebhookEvent = {
	id: 'evt_1',
	event: 'transfers.created',
	created_at: 1700000000,
	data: { object: { id: 'tr_1', amount: 1250, currency: 'EUR' } },
};
const NOW = Math.floor(Date.now() / 1000);

const configFor = (scheme: SigningScheme, secrets: string[]) => configForScheme(scheme, secrets);

/** A second secret of the same key format. */
function otherSecret(scheme: SigningScheme): string {
	const secret = demoSecret(scheme);
	if (scheme === 'standard-webhooks' || scheme === 'svix')
		return `whsec_${Buffer.from('another signing key').toString('base64')}`;
	if (/^[0-9a-f]+$/.test(secret)) return 'ab'.repeat(32);
	return 'whsec_another';
}

interface Sent {
	body: Buffer;
	headers: Record<string, string>;
	url: string;
}

function deliver(scheme: SigningScheme, secret = demoSecret(scheme), timestamp?: number): Sent {
	return signedDelivery({
		secret,
		scheme,
		event: EVENT,
		url: URL_,
		...(timestamp === undefined ? {} : { timestamp }),
	});
}

const check = (config: VerificationConfig, sent: Sent) =>
	verifyReceived(config, { ...sent, now: NOW });

const replaceInBody = (sent: Sent, from: string, to: string): Sent => {
	const text = sent.body.toString('utf8');
	expect(text).toContain(from);
	return { ...sent, body: Buffer.from(text.split(from).join(to)) };
};

/** Every scheme the sandbox signs with an HMAC (not `none`, not the secret itself in a header). */
const HMAC_SCHEMES = SCHEMES.filter((scheme) => scheme !== 'none' && scheme !== 'secret-header');
const TIMESTAMPED: SigningScheme[] = ['standard-webhooks', 'svix', 'stripe', 'slack', 'paddle'];
const ID_HEADER: Partial<Record<SigningScheme, string>> = {
	'standard-webhooks': 'webhook-id',
	svix: 'svix-id',
};
const TIMESTAMP_IN: Partial<
	Record<SigningScheme, (h: Record<string, string>, ts: string) => Record<string, string>>
> = {
	'standard-webhooks': (h, ts) => ({ ...h, 'webhook-timestamp': ts }),
	svix: (h, ts) => ({ ...h, 'svix-timestamp': ts }),
	slack: (h, ts) => ({ ...h, 'x-slack-request-timestamp': ts }),
	stripe: (h, ts) => ({
		...h,
		'stripe-signature': h['stripe-signature'].replace(/^t=\d+/, `t=${ts}`),
	}),
	paddle: (h, ts) => ({
		...h,
		'paddle-signature': h['paddle-signature'].replace(/^ts=\d+/, `ts=${ts}`),
	}),
};

describe.each(HMAC_SCHEMES)('%s', (scheme) => {
	const secret = demoSecret(scheme);
	const config = configFor(scheme, [secret]);

	it('a genuine delivery is accepted', () => {
		const result = check(config, deliver(scheme));
		expect(result).toMatchObject({ ok: true, reason: 'ok', secretIndex: 0 });
	});

	it('a tampered body is refused', () => {
		const result = check(config, replaceInBody(deliver(scheme), '1250', '9250'));
		expect(result.ok).toBe(false);
		expect(result.reason).toBe('signature_mismatch');
	});

	it('another secret is refused', () => {
		expect(check(config, deliver(scheme, otherSecret(scheme)))).toEqual({
			ok: false,
			reason: 'signature_mismatch',
		});
	});

	it('a changed id is refused (wherever the scheme keeps it)', () => {
		const sent = deliver(scheme);
		const header = ID_HEADER[scheme];
		const changed = header
			? { ...sent, headers: { ...sent.headers, [header]: 'evt_2' } }
			: replaceInBody(sent, 'evt_1', 'evt_2');
		expect(check(config, changed).ok).toBe(false);
	});

	it('both secrets of the credential are accepted, the matching one is reported', () => {
		const other = otherSecret(scheme);
		expect(check(configFor(scheme, [other, secret]), deliver(scheme))).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
		expect(check(configFor(scheme, [secret, other]), deliver(scheme, other))).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
	});

	if (scheme !== 'adyen-payments') {
		it('several signatures in one header (sender-side rotation): one valid is enough', () => {
			const good = deliver(scheme);
			const ts = extractTimestamp(scheme, good.headers);
			const bad = deliver(scheme, otherSecret(scheme), ts === undefined ? undefined : Number(ts));
			const name = signatureHeaderOf(scheme);
			const joined = joinSignatures(scheme, bad.headers[name], good.headers[name]);
			expect(
				check(config, { ...good, headers: { ...good.headers, [name]: joined } }),
			).toMatchObject({ ok: true });
		});
	}

	if (TIMESTAMPED.includes(scheme)) {
		it('a stale or future timestamp is refused (default 300 s), inside the window accepted', () => {
			expect(check(config, deliver(scheme, secret, NOW - 301))).toEqual({
				ok: false,
				reason: 'timestamp_out_of_window',
			});
			expect(check(config, deliver(scheme, secret, NOW + 301))).toEqual({
				ok: false,
				reason: 'timestamp_out_of_window',
			});
			expect(check(config, deliver(scheme, secret, NOW - 299)).ok).toBe(true);
			expect(check(config, deliver(scheme, secret, NOW + 299)).ok).toBe(true);
		});

		it('a changed timestamp is refused', () => {
			const sent = deliver(scheme, secret, NOW - 10);
			const moved = TIMESTAMP_IN[scheme]!(sent.headers, String(NOW - 9));
			expect(check(config, { ...sent, headers: moved })).toEqual({
				ok: false,
				reason: 'signature_mismatch',
			});
		});

		it('reports the signed timestamp', () => {
			expect(check(config, deliver(scheme, secret, NOW - 10)).timestamp).toBe(NOW - 10);
		});
	}
});

/** The header each scheme signs in (the sandbox's choice mirrors the provider). */
function signatureHeaderOf(scheme: SigningScheme): string {
	const byScheme: Partial<Record<SigningScheme, string>> = {
		'standard-webhooks': 'webhook-signature',
		svix: 'svix-signature',
		stripe: 'stripe-signature',
		slack: 'x-slack-signature',
		paddle: 'paddle-signature',
		github: 'x-hub-signature-256',
		shopify: 'x-shopify-hmac-sha256',
		square: 'x-square-hmacsha256-signature',
		'adyen-platform': 'hmacsignature',
		twilio: 'x-twilio-signature',
	};
	return byScheme[scheme] ?? 'x-signature';
}

function extractTimestamp(
	scheme: SigningScheme,
	headers: Record<string, string>,
): string | undefined {
	if (scheme === 'stripe') return /t=(\d+)/.exec(headers['stripe-signature'])?.[1];
	if (scheme === 'paddle') return /ts=(\d+)/.exec(headers['paddle-signature'])?.[1];
	return (
		headers['webhook-timestamp'] ??
		headers['svix-timestamp'] ??
		headers['x-slack-request-timestamp']
	);
}

/** Two signature header values as one header carrying both, in each scheme's own list syntax. */
function joinSignatures(scheme: SigningScheme, first: string, second: string): string {
	if (scheme === 'stripe') return `${second},v1=${/v1=([0-9a-f]+)/.exec(first)![1]}`;
	if (scheme === 'paddle') return `${second};h1=${/h1=([0-9a-f]+)/.exec(first)![1]}`;
	if (scheme === 'standard-webhooks' || scheme === 'svix') return `${first} ${second}`;
	return `${first}, ${second}`;
}

describe('delivery identity from the verifier', () => {
	it('Standard Webhooks and Svix: the signed message id', () => {
		expect(
			check(
				configFor('standard-webhooks', [demoSecret('standard-webhooks')]),
				deliver('standard-webhooks'),
			).id,
		).toBe('evt_1');
		expect(check(configFor('svix', [demoSecret('svix')]), deliver('svix')).id).toBe('evt_1');
	});

	it('schemes that sign no id header report none (the id comes from the body)', () => {
		expect(
			check(configFor('stripe', [demoSecret('stripe')]), deliver('stripe')).id,
		).toBeUndefined();
	});
});

describe("Custom HMAC expresses every preset's signature", () => {
	/**
	 * The Custom HMAC settings a user enters for each preset (docs/trigger.md, "Custom HMAC"). What a preset adds beyond the
	 * signature stays with the preset: Twilio reads JSON when the signed URL carries bodySHA256; Adyen payments
	 * types its signed fields, allows only its own top-level keys and names its items by their ids.
	 */
	const CUSTOM: Record<PresetName, Record<string, unknown>> = {
		standardWebhooks: {
			customSecretEncoding: 'base64',
			customSignedContent: '{id}.{timestamp}.{body}',
			customSignatureHeader: 'webhook-signature, svix-signature',
			customSignatureFormat: 'versioned',
			customSignatureLabel: 'v1',
			customSignatureEncoding: 'base64',
			customIdHeader: 'webhook-id, svix-id',
			customTimestampHeader: 'webhook-timestamp, svix-timestamp',
		},
		stripe: {
			customSignatureHeader: 'stripe-signature',
			customSignatureFormat: 'keyValue',
			customSignatureLabel: 'v1',
			customTimestampKey: 't',
			customSignatureEncoding: 'hex',
		},
		slack: {
			customSignedContent: 'v0:{timestamp}:{body}',
			customSignatureHeader: 'x-slack-signature',
			customSignatureFormat: 'prefixed',
			customSignatureLabel: 'v0=',
			customSignatureEncoding: 'hex',
			customTimestampHeader: 'x-slack-request-timestamp',
			bodyFormat: 'form',
		},
		paddle: {
			customSignedContent: '{timestamp}:{body}',
			customSignatureHeader: 'paddle-signature',
			customSignatureFormat: 'keyValue',
			customSignatureLabel: 'h1',
			customPairSeparator: ';',
			customTimestampKey: 'ts',
			customSignatureEncoding: 'hex',
		},
		hmacSha256: { customSignedContent: '{body}' },
		hmacSha512: { customAlgorithm: 'sha512', customSignedContent: '{body}' },
		square: {
			customSignedContent: '{url}{body}',
			customSignatureHeader: 'x-square-hmacsha256-signature',
			customSignatureEncoding: 'base64',
		},
		adyenPlatform: {
			customSecretEncoding: 'hex',
			customSignedContent: '{body}',
			customSignatureHeader: 'hmacsignature',
			customSignatureEncoding: 'base64',
		},
		adyenPayments: {
			customSecretEncoding: 'hex',
			customSignedContent: PRESETS.adyenPayments.signedContent,
			customSignatureIn: 'items',
			customSignatureEncoding: 'base64',
			customItemsPath: 'notificationItems.*.NotificationRequestItem',
			customItemSignaturePath: 'additionalData.hmacSignature',
		},
		twilio: {
			customAlgorithm: 'sha1',
			customSignedContent: '{url}{formFields}',
			customSignatureHeader: 'x-twilio-signature',
			customSignatureEncoding: 'base64',
			customBodyHashParameter: 'bodySHA256',
			bodyFormat: 'form',
		},
	};

	/**
	 * Fields that differ only where they have no effect for that preset (e.g. the id header of a scheme without {id}),
	 * or that a preset adds beyond the signature (body and id rules).
	 */
	const effective = (spec: typeof PRESETS.stripe) => {
		const uses = (p: string) => spec.signedContent.includes(`{${p}}`);
		return {
			...spec,
			bodyFormat: spec.bodyFormat === 'formUnlessBodyHash' ? 'form' : spec.bodyFormat,
			itemFieldTypes: {},
			bodyKeys: [],
			itemIdFields: [],
			itemsOutput: 'signedFields',
			idFields: [],
			idPattern: '',
			idHeader: uses('id') ? spec.idHeader : '',
			timestampHeader:
				uses('timestamp') && spec.signatureFormat !== 'keyValue' ? spec.timestampHeader : '',
			signatureLabel:
				spec.signatureFormat === 'plain' || spec.signatureIn === 'items' ? '' : spec.signatureLabel,
			pairSeparator: spec.signatureFormat === 'keyValue' ? spec.pairSeparator : '',
			timestampKey: spec.signatureFormat === 'keyValue' ? spec.timestampKey : '',
			signatureHeader: spec.signatureIn === 'header' ? spec.signatureHeader : '',
			signatureFormat: spec.signatureIn === 'header' ? spec.signatureFormat : 'plain',
			itemsPath: spec.signatureIn === 'items' ? spec.itemsPath : '',
			itemSignaturePath: spec.signatureIn === 'items' ? spec.itemSignaturePath : '',
			toleranceSeconds: uses('timestamp') ? spec.toleranceSeconds : 0,
		};
	};

	it.each(Object.keys(CUSTOM) as PresetName[])('%s', (name) => {
		const custom = customScheme(reader(CUSTOM[name]));
		expect(effective(custom)).toEqual(effective(PRESETS[name]));
	});

	it.each([
		['standard-webhooks', 'standardWebhooks'],
		['stripe', 'stripe'],
		['slack', 'slack'],
		['paddle', 'paddle'],
		['github', 'hmacSha256'],
		['square', 'square'],
		['adyen-platform', 'adyenPlatform'],
		['adyen-payments', 'adyenPayments'],
		['twilio', 'twilio'],
	] as Array<[SigningScheme, PresetName]>)(
		'a %s delivery is accepted by the Custom HMAC settings of %s',
		(scheme, preset) => {
			const parameters = {
				...CUSTOM[preset],
				...(scheme === 'github' ? { customSignatureHeader: 'x-hub-signature-256' } : {}),
			};
			const config = verificationConfig('customHmac', reader(parameters), [demoSecret(scheme)]);
			// Custom HMAC takes nothing unsigned beside signed items: Adyen's top-level `live` is a rule of its preset.
			const sent =
				scheme === 'adyen-payments'
					? replaceInBody(deliver(scheme), '"live":"false",', '')
					: deliver(scheme);
			expect(check(config, sent)).toMatchObject({ ok: true });
			expect(check(config, deliver(scheme, otherSecret(scheme))).ok).toBe(false);
			if (scheme === 'adyen-payments')
				expect(check(config, deliver(scheme))).toEqual({ ok: false, reason: 'unexpected_field' });
		},
	);
});

describe('body coverage and URLs', () => {
	const twilio = configFor('twilio', [demoSecret('twilio')]);

	it('Twilio form deliveries sign the URL and the sorted form fields; JSON ones the URL with bodySHA256', () => {
		const form = signedDelivery({
			secret: demoSecret('twilio'),
			scheme: 'twilio',
			event: EVENT,
			url: URL_,
		});
		expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(check(twilio, form).ok).toBe(true);
		const json = signedDelivery({
			secret: demoSecret('twilio'),
			scheme: 'twilio',
			event: EVENT,
			url: URL_,
			bodyFormat: 'json',
		});
		expect(json.url).toMatch(/\?bodySHA256=[0-9a-f]{64}$/);
		expect(check(twilio, json).ok).toBe(true);
		expect(check(twilio, { ...json, url: URL_ })).toEqual({
			ok: false,
			reason: 'signature_mismatch',
		});
		expect(check(twilio, replaceInBody(json, '1250', '9250'))).toEqual({
			ok: false,
			reason: 'body_hash_mismatch',
		});
	});

	it('a signature over the URL alone does not vouch for a JSON body without a body hash', () => {
		const json = signedDelivery({
			secret: demoSecret('twilio'),
			scheme: 'twilio',
			event: EVENT,
			url: URL_,
			bodyFormat: 'json',
		});
		const config: VerificationConfig = {
			mode: 'hmac',
			secrets: [demoSecret('twilio')],
			scheme: { ...PRESETS.twilio, bodyFormat: 'json', bodyHashParameter: '' },
		};
		expect(check(config, json)).toEqual({ ok: false, reason: 'missing_body_hash' });
	});

	it('a URL-signed delivery checked against another URL is refused', () => {
		const sent = deliver('square');
		expect(
			check(configFor('square', [demoSecret('square')]), {
				...sent,
				url: 'https://elsewhere.example/webhook',
			}),
		).toEqual({
			ok: false,
			reason: 'signature_mismatch',
		});
		expect(
			verifyDelivery(configFor('square', [demoSecret('square')]), {
				rawBody: sent.body,
				headers: sent.headers,
				nowSeconds: NOW,
			}),
		).toMatchObject({
			ok: false,
			reason: 'missing_url',
		});
	});

	it('Adyen payments: every item must carry a valid signature', () => {
		const sent = deliver('adyen-payments');
		const notification = JSON.parse(sent.body.toString());
		const second = JSON.parse(JSON.stringify(notification.notificationItems[0]));
		second.NotificationRequestItem.pspReference = 'evt_2';
		notification.notificationItems.push(second);
		const config = configFor('adyen-payments', [demoSecret('adyen-payments')]);
		expect(check(config, { ...sent, body: Buffer.from(JSON.stringify(notification)) })).toEqual({
			ok: false,
			reason: 'signature_mismatch',
		});
		expect(
			check(config, { ...sent, body: Buffer.from('{"live":"false","notificationItems":[]}') }),
		).toEqual({ ok: false, reason: 'missing_signature' });
	});
});

describe('the sandbox signs for every preset of the Verification table', () => {
	it.each(VERIFICATION_NAMES.filter((name) => name !== 'customHmac'))('%s', (name) => {
		expect(SCHEMES.filter((scheme) => triggerParameters(scheme).verification === name)).not.toEqual(
			[],
		);
	});
});
