/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Bad deliveries to the built Tenant API Trigger, behind a real local HTTP server and n8n-core's
 * WebhookContext (test/harness/webhook.ts): forged signatures, tampering and re-serialization, replays inside and
 * outside the timestamp window, signed bodies that cannot be read, bodies n8n itself keeps no bytes of, and large
 * deliveries (each check of a request, one by one: test/unit/authenticate.test.ts and body.test.ts). Every refusal:
 * 401 {"message":"Invalid signature"} (or 400 for a verified body that cannot be read), no workflow started, no
 * secret in the answer or the log. Needs `npm run build`.
 */
import { createHmac } from 'crypto';
import { gzipSync } from 'zlib';

import { sign, type SigningScheme } from '../../sandbox/signing';
import type { TriggerSetup, WebhookCall } from '../harness/webhook';
import {
	deliveryOf,
	expectRefusal,
	startedBodies,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const SECRET = 'whsec_badinput_5d1e9b';
const API_SECRET = 'sk_test_sandbox';
const EVENT = {
	id: 'evt_9',
	event: 'transfers.created',
	created_at: 1700000000,
	data: { object: { id: 'tr_9', amount: 1250, note: 'café' } },
};
const BODY = JSON.stringify(EVENT);

const credential = (over: { signingSecret?: string; previousSigningSecret?: string } = {}) => ({
	...webhookCredential(SECRET),
	...over,
});
const signed = (
	body: string | Buffer = BODY,
	scheme: SigningScheme = 'hmac-sha256-hex',
	timestamp?: number,
	secret = SECRET,
) => sign({ secret, scheme, body, ...(timestamp === undefined ? {} : { timestamp }) });
const hmacHex = (payload: string | Buffer, secret = SECRET, algorithm = 'sha256') =>
	createHmac(algorithm, secret).update(payload).digest('hex');
const now = () => Math.floor(Date.now() / 1000);

const rig = useTriggerServer({ credential: credential() });

async function use(setup: TriggerSetup = {}) {
	await rig.server.configure({ credential: credential(), ...setup });
}

beforeEach(() => use());

const started = startedBodies;

/** A refusal: the status and message, nothing started, no secret or expected signature anywhere. */
function expectRefused(
	post: Promise<{ status: number; text: string; call: WebhookCall }>,
	status: number,
	message: string,
	reason?: string,
	mustNotShow: string[] = [SECRET, API_SECRET],
) {
	return expectRefusal(rig.logs, post, { status, message, reason, mustNotShow });
}

describe('forged signatures', () => {
	const forged: Array<[string, Record<string, string>, string]> = [
		[
			'HMAC keyed with the API Secret Key instead of the webhook secret',
			{ 'x-signature': hmacHex(BODY, API_SECRET) },
			'signature_mismatch',
		],
		[
			'the HMAC of another body (an empty one)',
			{ 'x-signature': hmacHex('') },
			'signature_mismatch',
		],
		[
			'a valid SHA-512 signature sent to a SHA-256 trigger',
			{ 'x-signature': `sha512=${hmacHex(BODY, SECRET, 'sha512')}` },
			'malformed_signature',
		],
		[
			'the webhook secret itself as the signature',
			{ 'x-signature': SECRET },
			'malformed_signature',
		],
		[
			'a valid signature in the wrong header',
			{ 'x-hub-signature': hmacHex(BODY) },
			'missing_signature',
		],
		[
			'the secret in x-webhook-secret while HMAC is expected',
			{ 'x-webhook-secret': SECRET },
			'missing_signature',
		],
	];

	it.each(forged)('refuses %s', async (_name, headers, reason) => {
		await expectRefused(rig.server.post(BODY, headers), 401, 'Invalid signature', reason);
	});

	it('refuses any signature when verification is on and the credential has only blank secrets', async () => {
		await use({ credential: credential({ signingSecret: '   ', previousSigningSecret: '' }) });
		await expectRefused(
			rig.server.post(BODY, signed(BODY, 'hmac-sha256-hex', undefined, '   ')),
			401,
			'Invalid signature',
			'no_secret_configured',
		);
	});

	it('secret in header: refuses a near miss (trailing character) and a case change', async () => {
		await use({ parameters: { verification: 'secretHeader' } });
		await expectRefused(
			rig.server.post(BODY, { 'x-webhook-secret': `${SECRET}x` }),
			401,
			'Invalid signature',
			'secret_mismatch',
		);
		await expectRefused(
			rig.server.post(BODY, { 'x-webhook-secret': SECRET.toUpperCase() }),
			401,
			'Invalid signature',
			'secret_mismatch',
			[SECRET, API_SECRET],
		);
	});
});

describe('tampered deliveries', () => {
	it.each([
		['a trailing newline appended', `${BODY}\n`],
		['the last byte cut off', BODY.slice(0, -1)],
		['a field added', JSON.stringify({ ...EVENT, extra: true })],
		['the amount changed in a nested object', BODY.replace('"amount":1250', '"amount":9250')],
		['a second JSON document appended', `${BODY}{"event":"payouts.created"}`],
	])('refuses the original signature over %s', async (_name, body) => {
		// Sent as text/plain: as application/json, n8n itself answers 422 to bodies that do not parse.
		await expectRefused(
			rig.server.post(body, { ...signed(BODY), 'content-type': 'text/plain' }),
			401,
			'Invalid signature',
			'signature_mismatch',
		);
	});

	it('accepts a gzip-compressed delivery whose signature covers the JSON: n8n verifies the decompressed bytes', async () => {
		const { status, call } = await rig.server.post(gzipSync(BODY), {
			...signed(BODY),
			'content-encoding': 'gzip',
		});
		expect(status).toBe(200);
		expect(started(call)).toEqual([EVENT]);
	});
});

describe('re-serialized deliveries (same JSON value, other bytes)', () => {
	it.each([
		[
			'keys in another order',
			JSON.stringify({
				event: EVENT.event,
				id: EVENT.id,
				created_at: EVENT.created_at,
				data: EVENT.data,
			}),
		],
		['é written as \\u00e9', BODY.replace('é', '\\u00e9')],
		['1250 written as 1250.0', BODY.replace('1250', '1250.0')],
		['a byte-order mark in front', `\ufeff${BODY}`],
	])('refuses the original signature over %s', async (_name, body) => {
		expect(JSON.parse(body.replace(/^\ufeff/, ''))).toEqual(EVENT);
		// text/plain: n8n strips a BOM before parsing JSON, the test harness does not.
		await expectRefused(
			rig.server.post(body, { ...signed(BODY), 'content-type': 'text/plain' }),
			401,
			'Invalid signature',
			'signature_mismatch',
		);
	});
});

describe('replayed deliveries', () => {
	it('without Use Timestamp, an identical copy is accepted again: the trigger does not remember deliveries (dedupe on the event id downstream)', async () => {
		const headers = signed();
		const first = await rig.server.post(BODY, headers);
		const second = await rig.server.post(BODY, headers);
		expect([first.status, second.status]).toEqual([200, 200]);
		expect(started(first.call)).toEqual([EVENT]);
		expect(started(second.call)).toEqual([EVENT]);
		// The same bytes are the same delivery: the writes of the second run are replays (triggerIdentity.test.ts).
		expect(deliveryOf(second.call).id).toBe(deliveryOf(first.call).id);
	});

	it('with Use Timestamp, a copy is accepted only while its timestamp is inside the tolerance, then refused', async () => {
		await use({ parameters: { useTimestamp: true, toleranceSeconds: 60 } });
		const fresh = signed(BODY, 'hmac-sha256-hex', now() - 30);
		expect((await rig.server.post(BODY, fresh)).status).toBe(200);
		expect((await rig.server.post(BODY, fresh)).status).toBe(200);
		const captured = signed(BODY, 'hmac-sha256-hex', now() - 61 - 2);
		await expectRefused(
			rig.server.post(BODY, captured),
			401,
			'Invalid signature',
			'timestamp_out_of_window',
		);
	});
});

describe('signed bodies that cannot be read', () => {
	it('a signed body of spaces gets 400 "Empty body"', async () => {
		await expectRefused(
			rig.server.post('   ', { ...signed('   '), 'content-type': 'text/plain' }),
			400,
			'Empty body',
			'empty_body',
		);
	});

	it.each([
		['a JSON array', '[{"event":"transfers.created"}]', 'not_an_object'],
		['JSON null', 'null', 'not_an_object'],
		['form data', 'event=transfers.created&id=evt_1', 'invalid_json'],
	])('a signed %s gets 400 "Body must be a JSON object"', async (_name, body, reason) => {
		await expectRefused(
			rig.server.post(body, { ...signed(body), 'content-type': 'text/plain' }),
			400,
			'Body must be a JSON object',
			reason,
		);
	});

	it('a signed body that is not UTF-8 (ISO-8859-1 é) gets 400 instead of a silently altered payload', async () => {
		const latin1 = Buffer.from(BODY, 'latin1');
		expect(latin1.equals(Buffer.from(BODY))).toBe(false);
		await expectRefused(
			rig.server.post(latin1, { ...signed(latin1), 'content-type': 'text/plain' }),
			400,
			'Body must be UTF-8 JSON',
			'not_utf8',
		);
	});
});

describe('large deliveries (n8n refuses bodies above N8N_PAYLOAD_SIZE_MAX, 16 MiB by default, before the node runs)', () => {
	/** A JSON event padded to `bytes` with a filler string. */
	const eventOf = (bytes: number) => {
		const head = JSON.stringify({ ...EVENT, filler: '' });
		return head.replace('"filler":""', `"filler":"${'x'.repeat(bytes - Buffer.byteLength(head))}"`);
	};

	it('a 15 MiB signed delivery is verified over every byte and starts the workflow', async () => {
		const body = eventOf(15 * 1024 * 1024);
		expect(Buffer.byteLength(body)).toBe(15 * 1024 * 1024);
		const { status, call } = await rig.server.post(body, signed(body));
		expect(status).toBe(200);
		expect(started(call)[0].id).toBe(EVENT.id);
	});

	it('a 15 MiB delivery with one byte changed at the very end is refused', async () => {
		const body = eventOf(15 * 1024 * 1024);
		const tampered = `${body.slice(0, -3)}y"}`;
		await expectRefused(
			rig.server.post(tampered, signed(body)),
			401,
			'Invalid signature',
			'signature_mismatch',
		);
	});
});

describe('multipart/form-data (n8n consumes the stream before the trigger runs: nothing can be verified)', () => {
	const boundary = '----tenant-boundary';
	const multipart = [
		`--${boundary}`,
		'Content-Disposition: form-data; name="event"',
		'',
		'transfers.created',
		`--${boundary}--`,
		'',
	].join('\r\n');
	const contentType = `multipart/form-data; boundary=${boundary}`;

	it('signed over the bytes gets 401 too: the bytes never reach the trigger', async () => {
		await expectRefused(
			rig.server.post(multipart, { 'content-type': contentType, ...signed(multipart) }),
			401,
			'Invalid signature',
			'raw_body_unavailable',
		);
	});

	it('with verification off (nothing to authenticate) it gets 415', async () => {
		await rig.server.configure({ credential: null, parameters: { verification: 'none' } });
		await expectRefused(
			rig.server.post(multipart, { 'content-type': contentType }),
			415,
			'Unsupported content type: this trigger reads application/json bodies (Body Format)',
			'unsupported_media_type',
		);
	});
});

describe('form-urlencoded deliveries (Body Format: Form Fields)', () => {
	const form = (body: string) => ({
		'content-type': 'application/x-www-form-urlencoded',
		...sign({ secret: SECRET, body }),
	});
	beforeEach(() => use({ parameters: { bodyFormat: 'form' } }));

	it.each([
		['an empty form', '', 'Empty body', 'empty_body'],
		[
			'more than 1,000 fields',
			Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&'),
			'Body must be form fields with names (at most 1,000)',
			'invalid_form',
		],
	])('a signed %s gets 400', async (_name, body, message, reason) => {
		await expectRefused(rig.server.post(body, form(body)), 400, message, reason);
	});

	it('a signed form that is not UTF-8 gets 400', async () => {
		const latin1 = Buffer.from('text=café', 'latin1');
		await expectRefused(
			rig.server.post(latin1, form(latin1 as unknown as string)),
			400,
			'Body must be UTF-8 form fields',
			'not_utf8',
		);
	});

	it('a form field changed after signing is refused', async () => {
		const body = 'event=transfers.created&amount=1250';
		await expectRefused(
			rig.server.post(body.replace('1250', '9250'), form(body)),
			401,
			'Invalid signature',
			'signature_mismatch',
		);
	});
});

describe('set-up mistakes per scheme (all 401, reason in the log, no secret anywhere)', () => {
	it('Standard Webhooks with a secret that is not whsec_<base64>', async () => {
		await use({
			credential: webhookCredential('whsec_not base64!'),
			parameters: { verification: 'standardWebhooks' },
		});
		const headers = sign({
			secret: `whsec_${Buffer.from('k').toString('base64')}`,
			scheme: 'standard-webhooks',
			body: BODY,
			id: 'evt_9',
		});
		await expectRefused(
			rig.server.post(BODY, headers),
			401,
			'Invalid signature',
			'invalid_secret',
			['whsec_not base64!', API_SECRET],
		);
	});

	it('Standard Webhooks without webhook-id, or with a 300-character id', async () => {
		const secret = `whsec_${Buffer.from('std key').toString('base64')}`;
		await use({
			credential: webhookCredential(secret),
			parameters: { verification: 'standardWebhooks' },
		});
		const headers = sign({ secret, scheme: 'standard-webhooks', body: BODY, id: 'evt_9' });
		const withoutId = { ...headers };
		delete withoutId['webhook-id'];
		await expectRefused(rig.server.post(BODY, withoutId), 401, 'Invalid signature', 'missing_id', [
			secret,
		]);
		const long = 'i'.repeat(300);
		await expectRefused(
			rig.server.post(BODY, sign({ secret, scheme: 'standard-webhooks', body: BODY, id: long })),
			401,
			'Invalid signature',
			'missing_id',
			[secret],
		);
	});
});
