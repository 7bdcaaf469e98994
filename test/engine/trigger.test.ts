/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: fixture signing secrets, not real ones */
/**
 * The built Tenant API Trigger behind a real local HTTP server, called through n8n-core's WebhookContext (and
 * HookContext for the lifecycle methods): what only n8n gives the trigger (the log, the request's query, the public
 * and Test URLs, the mode of a Test URL call), and how a refused delivery tells the user why, where they work. At
 * the Test URL (manual mode) every refusal reaches the Refused output with a diagnosis; in production only with
 * Options → Record Refused Deliveries, at most once per reason and window; the sender's answer is the same either
 * way, and nothing reaches the Verified output.
 *
 * The deliveries the sandbox sends on its own are decided by the trigger in test/sandbox/webhooks.test.ts; what the
 * trigger decides for a request is proven once in test/unit and, over generated requests, by the property campaign
 * (test/unit/deliveryProperties.test.ts); what each diagnosis says, for every reason and Verification, in
 * test/unit/diagnosis.test.ts; every scheme's answer (Verification None without a credential too) in
 * triggerAnswers.test.ts. Needs `npm run build` first.
 */
import { createHmac } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { sign } from '../../sandbox/signing';
import { withoutDelivery } from '../harness/verifier';
import type { TriggerSetup, WebhookCall } from '../harness/webhook';
import {
	WEBHOOK_ID,
	buildTriggerRig,
	deliveryOf,
	runHookMethod,
	startedItems,
	useTriggerServer,
	webhookCredential,
} from '../harness/webhook';

const SECRET = 'whsec_current_3f9a7c';
const PREVIOUS = 'whsec_previous_81d2e4';
const TEST = 'whsec_test_url';
const MARKER = 'BODY-MARKER-never-shown';
const BODY = JSON.stringify({ id: 'evt_1', event: 'transfers.created', note: MARKER });
/** n8n's public URL of the webhook (what a sender signs for `{url}`), unlike the harness's local listener URL. */
const PUBLIC_URL = `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`;
const TEST_URL = PUBLIC_URL.replace('/webhook/', '/webhook-test/');
const JSON_TYPE = { 'content-type': 'application/json' };

const signed = (secret = SECRET, body = BODY) => ({ ...JSON_TYPE, ...sign({ secret, body }) });

const rig = useTriggerServer();

const use = (setup: TriggerSetup) =>
	rig.server.configure({ credential: webhookCredential(SECRET), ...setup });
/** The trigger at the Test URL (n8n runs test webhooks in manual mode). */
const atTestUrl = (setup: TriggerSetup = {}) => use({ mode: 'manual', ...setup });

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

it('the query and headers n8n hands over sit under webhookDelivery, named unsigned: they never replace a signed field', async () => {
	await use({ parameters: { options: { includeQuery: true, includeHeaders: true } } });
	const body = JSON.stringify({ id: 'evt_1', webhookQuery: { approved: 'false' } });
	const { status, call } = await rig.server.post(
		body,
		{ ...signed(SECRET, body), role: 'admin' },
		'?approved=true',
	);
	expect(status).toBe(200);
	expect(startedItems(call).map(withoutDelivery)).toEqual([JSON.parse(body)]);
	expect(deliveryOf(call)).toMatchObject({
		unsignedQuery: { approved: 'true' },
		unsignedHeaders: expect.objectContaining({ role: 'admin' }),
	});
});

it('a refusal without Record Refused Deliveries: 401, nothing started or recorded, its reason in the log; neither the answer nor the log holds a secret or the expected signature', async () => {
	await use({ credential: webhookCredential(SECRET, PREVIOUS) });
	const expected = createHmac('sha256', SECRET).update(BODY).digest();
	const { status, text, call } = await rig.server.post(BODY, {
		'x-signature': `sha256=${'0'.repeat(64)}`,
	});
	expect([status, text, call.result]).toEqual([
		401,
		'{"message":"Invalid signature"}',
		{ noWebhookResponse: true },
	]);
	expect(rig.logs.entries).toContainEqual(
		expect.objectContaining({
			level: 'warn',
			message: expect.stringMatching(
				/^Tenant API Trigger refused a delivery: The signature does not match/,
			),
			metadata: expect.objectContaining({ reason: 'signature_mismatch' }),
		}),
	);
	for (const hidden of [SECRET, PREVIOUS, expected.toString('hex'), expected.toString('base64')])
		expect([text, rig.logs.text()]).not.toEqual(
			expect.arrayContaining([expect.stringContaining(hidden)]),
		);
});

it('lifecycle methods through HookContext: checkExists/create/delete are logged no-ops, create names the public URL', async () => {
	const hookRig = await buildTriggerRig({ credential: webhookCredential(SECRET) });
	expect(await runHookMethod(hookRig, 'checkExists')).toBe(false);
	expect(await runHookMethod(hookRig, 'create')).toBe(true);
	expect(await runHookMethod(hookRig, 'delete', 'manual')).toBe(true);
	const create = rig.logs.entries.find((e) => e.message.includes('register this URL'));
	expect((create?.metadata as IDataObject).url).toBe(PUBLIC_URL);
	expect(rig.logs.entries.filter((e) => e.message.startsWith('Tenant API Trigger'))).toHaveLength(
		3,
	);
	expect(rig.logs.text()).not.toContain(SECRET);
});

describe("Custom HMAC's {url}: n8n's public webhook URL (or the Signed URL setting), with the query as received", () => {
	const parameters = { verification: 'customHmac', customSignedContent: '{url}{body}' };
	const signedFor = (url: string) => ({
		...JSON_TYPE,
		'x-signature': createHmac('sha256', SECRET).update(url).update(BODY).digest('hex'),
	});
	const statusOf = async (headers: Record<string, string>, query = '') =>
		(await rig.server.post(BODY, headers, query)).status;

	it('at the Production URL', async () => {
		await use({ parameters });
		const query = '?source=sandbox&b=1';
		expect(await statusOf(signedFor(PUBLIC_URL + query), query)).toBe(200);
		// Signed over the URL the sender itself called (the local listener), not what n8n publishes; another query.
		expect(await statusOf(signedFor(rig.server.url + query), query)).toBe(401);
		expect(await statusOf(signedFor(PUBLIC_URL + query), '?source=other&b=1')).toBe(401);
		await use({
			parameters: { ...parameters, signedUrl: 'https://proxy.example/hooks/tenant?x=1' },
		});
		expect(await statusOf(signedFor(`https://proxy.example/hooks/tenant${query}`), query)).toBe(
			200,
		);
	});

	it('on the Test URL (manual mode) the Test URL is the signed one', async () => {
		await use({ parameters, mode: 'manual' });
		expect(await statusOf(signedFor(TEST_URL))).toBe(200);
		expect(await statusOf(signedFor(PUBLIC_URL))).toBe(401);
	});
});

describe('the Test URL secret', () => {
	const answer = async (secret: string) => {
		const { status, call } = await rig.server.post(BODY, signed(secret));
		return [
			status,
			status === 200 ? deliveryOf(call).secret : call.result?.workflowData?.[1][0].json.reason,
		];
	};

	// Without one, the Test URL takes the production secrets (the Custom HMAC Test URL case above; the keys of the event then stay the event's: exactlyOnce.test.ts).
	it('is the only secret the Test URL accepts once set (a captured production delivery replayed there is refused), and never accepted at the Production URL', async () => {
		await use({ credential: webhookCredential(SECRET, PREVIOUS, TEST), mode: 'manual' });
		expect(await answer(TEST)).toEqual([200, 'test']);
		expect(await answer(SECRET)).toEqual([401, 'signature_mismatch']);
		expect(await answer(PREVIOUS)).toEqual([401, 'signature_mismatch']);
		await use({ credential: webhookCredential(SECRET, PREVIOUS, TEST) });
		expect(await answer(TEST)).toEqual([401, undefined]);
		expect(await answer(SECRET)).toEqual([200, 'current']);
	});
});

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

	it('a verified delivery that cannot be read: its own answer (a form to a JSON trigger: 415), and what to change (the answer and words for every reason: test/unit/diagnosis.test.ts)', async () => {
		await atTestUrl();
		const headers = { 'content-type': 'application/x-www-form-urlencoded' };
		const diagnosis = diagnosisOf(
			await rig.server.post('a=1', { ...headers, ...sign({ secret: SECRET, body: 'a=1' }) }),
			415,
		);
		expect(diagnosis).toMatchObject({ reason: 'unsupported_media_type', answered: 415 });
		expect(diagnosis.action).toMatch(/Set Body Format/);
	});

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
			const result = await rig.server.post(BODY, signed());
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
	const forged = () => rig.server.post(BODY, signed('whsec_other'));
	const unsigned = () => rig.server.post(BODY, JSON_TYPE);

	it('with Record Refused Deliveries (the answer unchanged; without it, above), records one refusal per reason within the window; the deliveries share the count', async () => {
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
		// What the diagnosis holds for each header and form is test/unit/diagnosis.test.ts's.
		expect(diagnosis).toMatchObject({
			reason: 'missing_signature',
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
