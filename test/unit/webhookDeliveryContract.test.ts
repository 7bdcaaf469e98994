/**
 * The contract between the trigger and the Tenant API node (nodes/shared/webhookDelivery.ts): what the trigger
 * outputs is what the node reads its automatic keys from. Fails when either side changes it alone.
 */
import { deliveryIdOf, isTriggerType } from '../../nodes/shared/webhookDelivery';
import { TenantApiTrigger } from '../../nodes/TenantApiTrigger/TenantApiTrigger.node';
import { sign } from '../../sandbox/signing';
import { receive, triggerSettings } from '../harness/verifier';

it("the node finds the trigger by the trigger's own type name", () => {
	expect(isTriggerType(`n8n-nodes-tenant-api.${new TenantApiTrigger().description.name}`)).toBe(
		true,
	);
	expect(isTriggerType('n8n-nodes-base.webhook')).toBe(false);
});

it('the node reads the id the trigger puts on its output item', () => {
	const body = JSON.stringify({ id: 'evt_contract', event: 'transfers.created' });
	const settings = triggerSettings({ verification: 'hmacSha256', options: { idFields: 'id' } }, [
		'whsec_contract',
	]);
	const decision = receive(settings, {
		body,
		headers: { 'content-type': 'application/json', ...sign({ secret: 'whsec_contract', body }) },
	});
	expect(decision.action).toBe('start');
	expect(deliveryIdOf(decision.action === 'start' ? decision.item : undefined)).toBe(
		'evt_contract',
	);
});
