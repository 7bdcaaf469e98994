/**
 * A refused delivery tells the user why, where they work: through the built trigger behind a real HTTP server and
 * n8n-core's WebhookContext (test/harness/webhook.ts). At the Test URL (manual mode) every refusal reaches the
 * Refused output with a diagnosis; in production only with Options → Record Refused Deliveries, at most once per
 * reason and window; the sender's answer is the same either way, and nothing reaches the Verified output. What each
 * diagnosis says, for every reason and Verification, is test/unit/diagnosis.test.ts.
 */
import { createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { sign } from '../../sandbox/signing';
import type { TriggerSetup, WebhookCall } from '../harness/webhook';
import { startedItems, useTriggerServer, webhookCredential } from '../harness/webhook';

const SECRET = 'whsec_refusals';
const MARKER = 'BODY-MARKER-never-shown';
const BODY = JSON.stringify({ id: 'evt_1', event: 'transfers.created', note: MARKER });
const JSON_TYPE = { 'content-type': 'application/json' };

const rig = useTriggerServer({ credential: webhookCredential(SECRET) });

/** The trigger at the Test URL (n8n runs test webhooks in manual mode). */
const atTestUrl = (setup: TriggerSetup = {}) =>
	rig.server.configure({ credential: webhookCredential(SECRET), mode: 'manual', ...setup });

/** A refused call's diagnosis: the sender got `status`, the Verified output is empty, the Refused output holds one item. */
function diagnosisOf(
	result: { status: number; text: string; call: WebhookCall },
	status = 401,
): IDataObject {
	expect(result.status).toBe(status);
	const outputs = result.call.result?.workflowData as Array<Array<{ json: IDataObject }>>;
	expect(result.call.result?.noWebhookResponse).toBe(true);
	expect(outputs.map((output) => output.length)).toEqual([0, 1]);
	const diagnosis = outputs[1][0].json;
	expect(diagnosis).not.toHaveProperty('error');
	return diagnosis;
}

describe('at the Test URL, every refusal reaches the editor', () => {
	it('says what was checked and what to change, without the body, a header value or a secret (what it says for each reason: test/unit/diagnosis.test.ts)', async () => {
		await atTestUrl({ credential: webhookCredential(SECRET, 'whsec_old') });
		const forged = sign({ secret: 'whsec_other', body: BODY });
		const result = await rig.server.post(BODY, { ...JSON_TYPE, ...forged });
		expect(JSON.parse(result.text)).toEqual({ message: 'Invalid signature' });
		const diagnosis = diagnosisOf(result);
		expect(diagnosis).toMatchObject({
			reason: 'signature_mismatch',
			answered: 401,
			url: 'Test URL',
			request: { bodyBytes: Buffer.byteLength(BODY), signatureHeaders: ['x-signature'] },
			secretsTried: ['current', 'previous'],
		});
		const shown = JSON.stringify(diagnosis);
		for (const hidden of [MARKER, SECRET, 'whsec_old', forged['x-signature']])
			expect(shown).not.toContain(hidden);
	});

	it.each([
		[
			'a form to a JSON trigger',
			{ 'content-type': 'application/x-www-form-urlencoded' },
			'a=1',
			415,
			'unsupported_media_type',
			/Set Body Format/,
		],
		['an empty body', JSON_TYPE, '', 400, 'empty_body', /sent no data/],
		[
			'a body with webhookDelivery',
			JSON_TYPE,
			'{"webhookDelivery":{}}',
			400,
			'reserved_field',
			/Rename that field/,
		],
	] as const)(
		'a verified delivery that cannot be read: %s',
		async (_name, headers, body, status, reason, action) => {
			await atTestUrl();
			const diagnosis = diagnosisOf(
				await rig.server.post(body, { ...headers, ...sign({ secret: SECRET, body }) }),
				status,
			);
			expect(diagnosis).toMatchObject({ reason, answered: status });
			expect(diagnosis.action).toMatch(action);
		},
	);

	it('set-up errors before the settings are read: no credential (recorded in production too), an unreadable credential (503)', async () => {
		await atTestUrl({ credential: null });
		expect(diagnosisOf(await rig.server.post(BODY, JSON_TYPE))).toMatchObject({
			reason: 'no_credential_selected',
			url: 'Test URL',
			action: 'Select (or create) the credential in the trigger.',
		});
		await rig.server.configure({
			credential: null,
			parameters: { options: { recordRefusals: true } },
			workflowId: 'wf-no-credential',
		});
		expect(diagnosisOf(await rig.server.post(BODY, JSON_TYPE))).toMatchObject({
			reason: 'no_credential_selected',
			url: 'Production URL',
		});
		await atTestUrl({ credentialUnreadable: true });
		expect(diagnosisOf(await rig.server.post(BODY, JSON_TYPE), 503)).toMatchObject({
			reason: 'credential_unavailable',
		});
	});

	it('a genuine delivery whose reading fails for want of stack or memory is answered 503 (the sender delivers again), never refused as not JSON', async () => {
		await atTestUrl();
		const parse = JSON.parse;
		const spy = jest.spyOn(JSON, 'parse').mockImplementation((text, reviver) => {
			if (typeof text === 'string' && text.includes(MARKER))
				throw new RangeError('Maximum call stack size exceeded');
			return parse(text, reviver);
		});
		try {
			const result = await rig.server.post(BODY, {
				...JSON_TYPE,
				...sign({ secret: SECRET, body: BODY }),
			});
			expect(JSON.parse(result.text)).toEqual({
				message: 'Temporarily unable to verify the delivery',
			});
			expect(diagnosisOf(result, 503)).toMatchObject({ reason: 'internal_error', answered: 503 });
		} finally {
			spy.mockRestore();
		}
	});
});

describe('in production', () => {
	const forged = () =>
		rig.server.post(BODY, { ...JSON_TYPE, ...sign({ secret: 'whsec_other', body: BODY }) });
	const unsigned = () => rig.server.post(BODY, JSON_TYPE);

	it('with Record Refused Deliveries (the answer unchanged; without it, trigger.test.ts), records one refusal per reason within the window; the deliveries share the count', async () => {
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: { options: { recordRefusals: true } },
			workflowId: 'wf-record-window',
		});
		const first = diagnosisOf(await forged());
		expect(first).toMatchObject({
			reason: 'signature_mismatch',
			url: 'Production URL',
			unrecordedBefore: 0,
		});
		for (let i = 0; i < 20; i++) {
			const again = await forged();
			expect([again.status, again.call.result]).toEqual([401, { noWebhookResponse: true }]);
		}
		expect(diagnosisOf(await unsigned())).toMatchObject({
			reason: 'missing_signature',
			unrecordedBefore: 0,
		});
		expect((await unsigned()).call.result).toEqual({ noWebhookResponse: true });
	});
});

describe('a signature in a header the settings do not read is named, with the setting to change', () => {
	const signature = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');

	it('its name, its Verification and the Signature Header to set; set it, and the same delivery starts', async () => {
		await atTestUrl();
		const headers = { ...JSON_TYPE, 'X-Hub-Signature-256': `sha256=${signature(BODY)}` };
		const diagnosis = diagnosisOf(await rig.server.post(BODY, headers));
		expect(diagnosis).toMatchObject({
			reason: 'missing_signature',
			request: {
				signatureHeaders: ['x-hub-signature-256'],
				otherSignatureLikeHeaders: 0,
				signatureElsewhere: {
					header: 'x-hub-signature-256',
					verification: 'HMAC-SHA256 of the Body',
				},
			},
			action:
				'Set the Signature Header to "x-hub-signature-256": it holds a signature in the form the settings read.',
		});
		expect(JSON.stringify(diagnosis)).not.toContain(signature(BODY));

		await atTestUrl({ parameters: { signatureHeader: 'x-hub-signature-256' } });
		const started = await rig.server.post(BODY, headers);
		expect([started.status, startedItems(started.call).length]).toEqual([200, 1]);
	});

	it('a removed Verification saved in the workflow: refused in production (logged with it), and at the Test URL which one to choose, with its Signature Header', async () => {
		const t = Math.floor(Date.now() / 1000);
		const v1 = createHmac('sha256', SECRET).update(`${t}.${BODY}`).digest('hex');
		const headers = { ...JSON_TYPE, 'stripe-signature': `t=${t},v1=${v1}` };
		await rig.server.configure({
			credential: webhookCredential(SECRET),
			parameters: { verification: 'stripe' },
		});
		const production = await rig.server.post(BODY, headers);
		expect([production.status, production.call.result]).toEqual([401, { noWebhookResponse: true }]);
		expect(rig.logs.entries.find((entry) => entry.level === 'error')?.metadata).toMatchObject({
			reason: 'unknown_verification',
			verification: 'stripe',
		});
		await atTestUrl({ parameters: { verification: 'stripe' } });
		expect(diagnosisOf(await rig.server.post(BODY, headers))).toMatchObject({
			reason: 'unknown_verification',
			summary: expect.stringContaining('The Verification "stripe" is not one this version offers'),
			action:
				'Set Verification to HMAC-SHA256 of Timestamp and Body (t=…,v1=… Header) and its Signature Header to "stripe-signature": it holds a signature in that form.',
		});

		await atTestUrl({
			parameters: { verification: 'timestampedSignatures', signatureHeader: 'stripe-signature' },
		});
		const started = await rig.server.post(BODY, headers);
		expect([started.status, startedItems(started.call).length]).toEqual([200, 1]);
	});
});
