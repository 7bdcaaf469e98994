/**
 * The contract between the trigger and the Tenant API node (nodes/shared/webhookDelivery.ts): what the trigger
 * outputs is what the node reads its automatic keys from. Fails when either side changes it alone.
 */
import { deliveryIdOf, isTriggerType } from '../../nodes/shared/webhookDelivery';
import { TenantApiTrigger } from '../../nodes/TenantApiTrigger/TenantApiTrigger.node';
import { receiveDelivery } from '../../nodes/TenantApiTrigger/receive';
import { settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import { sign } from '../../sandbox/signing';
import { parameterReader } from '../harness/verifier';

it("the node finds the trigger by the trigger's own type name", () => {
	expect(isTriggerType(`n8n-nodes-tenant-api.${new TenantApiTrigger().description.name}`)).toBe(
		true,
	);
	expect(isTriggerType('n8n-nodes-base.webhook')).toBe(false);
});

it('the node reads the id the trigger puts on its output item', () => {
	const body = Buffer.from(JSON.stringify({ id: 'evt_contract', event: 'transfers.created' }));
	const settings = settingsFromParameters(
		'hmacSha256',
		parameterReader({}),
		['whsec_contract'],
		['whsec_contract'],
	);
	const reception = receiveDelivery(settings, {
		rawBody: body,
		headers: { 'content-type': 'application/json', ...sign({ secret: 'whsec_contract', body }) },
		query: {},
		nowSeconds: 1_700_000_000,
	});
	expect(reception.action).toBe('start');
	expect(deliveryIdOf(reception.action === 'start' ? reception.items[0] : undefined)).toBe(
		'evt_contract',
	);
});
