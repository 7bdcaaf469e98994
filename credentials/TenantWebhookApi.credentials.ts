import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * Only what the Tenant API Trigger needs to verify deliveries: no API key, no Base URL. Tested by
 * the trigger's `tenantWebhookApiTest` method (the secrets are checked locally: there is nothing to
 * call).
 */
export class TenantWebhookApi implements ICredentialType {
	name = 'tenantWebhookApi';

	displayName = 'Tenant Webhook API';

	icon: Icon = {
		light: 'file:../nodes/TenantApiTrigger/tenantApiTrigger.svg',
		dark: 'file:../nodes/TenantApiTrigger/tenantApiTrigger.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-tenant-api/n8n-nodes-tenant-api#webhook-credential';

	properties: INodeProperties[] = [
		{
			displayName:
				'Used by the Tenant API Trigger to check that deliveries really come from the Tenant API. Paste the webhook Secret Key exactly as the dashboard shows it when the Webhook URL is generated (whsec_… for Standard Webhooks).',
			name: 'webhookNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The webhook secret the sender signs deliveries with (the service dashboard: Webhook URL → Generate)',
		},
		{
			displayName: 'Previous Signing Secret',
			name: 'previousSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Optional. Also accepted: the old secret during a rotation. Clear it once all deliveries use the new secret.',
		},
		{
			displayName: 'Test URL Signing Secret',
			name: 'testSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"Optional. The secret of a webhook registered for the trigger's Test URL. Accepted only for deliveries to the Test URL while the editor listens, never in production.",
		},
	];
}
