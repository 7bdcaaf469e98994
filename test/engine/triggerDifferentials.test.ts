/**
 * Deliveries that verify but could be read as something other than what was signed, through the built trigger
 * behind a real HTTP server and n8n-core's WebhookContext (test/harness/webhook.ts): the same signed bytes sent with
 * another Content-Type are refused, whatever the Verification, so they are never read another way than the Body
 * Format says. The property-based tests (test/property/) generalise these.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SigningScheme } from '../../sandbox/signing';
import { SCHEMES, demoSecret, sign, triggerParameters } from '../../sandbox/signing';
import { useTriggerServer, webhookCredential } from '../harness/webhook';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

const rig = useTriggerServer({ credential: webhookCredential('whsec_differentials') });

/** The trigger set up for a sandbox signing scheme with its demo secret. */
function useScheme(scheme: SigningScheme, parameters: IDataObject = {}) {
	return rig.server.configure({
		credential: webhookCredential(demoSecret(scheme)),
		parameters: { ...(triggerParameters(scheme) as IDataObject), ...parameters },
	});
}

const { refused } = rig;

describe('signed JSON re-sent as a form', () => {
	const injected = JSON.stringify({
		id: 'evt_1',
		event: 'customer.updated',
		data: { object: { note: 'x&event=payout.approved&amount=1000000&id=evt_new&y=' } },
	});
	const JSON_SCHEMES = SCHEMES.filter((scheme) => scheme !== 'none');

	it.each(JSON_SCHEMES)(
		'%s: the same signed bytes with a form Content-Type get 415 and start nothing',
		async (scheme) => {
			await useScheme(scheme);
			const headers = sign({
				secret: demoSecret(scheme),
				scheme,
				body: injected,
				id: 'evt_1',
			});
			expect((await rig.server.post(injected, { ...JSON_TYPE, ...headers })).status).toBe(200);
			await refused(
				rig.server.post(injected, { ...FORM, ...headers }),
				415,
				'Unsupported content type: this trigger reads application/json bodies (Body Format)',
				'unsupported_media_type',
			);
		},
	);

	it('none: the Body Format decides too', async () => {
		await rig.server.configure({ credential: null, parameters: { verification: 'none' } });
		await refused(
			rig.server.post(injected, FORM),
			415,
			'Unsupported content type: this trigger reads application/json bodies (Body Format)',
			'unsupported_media_type',
		);
	});

	it('a form trigger refuses signed JSON', async () => {
		await useScheme('hmac-sha256-hex', { bodyFormat: 'form' });
		const json = '{"command":"/pay","text":"10"}';
		await refused(
			rig.server.post(json, {
				...JSON_TYPE,
				...sign({ secret: demoSecret('hmac-sha256-hex'), body: json }),
			}),
			415,
			'Unsupported content type: this trigger reads application/x-www-form-urlencoded bodies (Body Format)',
			'unsupported_media_type',
		);
	});
});
