import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { TENANT_API_CREDENTIAL } from '../../credentials/credentialTypes';
import { properties, subtitle } from './actions/description';
import { router } from './actions/router';

export class TenantApi implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tenant API',
		name: 'tenantApi',
		icon: { light: 'file:tenantApi.svg', dark: 'file:tenantApi.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle,
		description:
			'List accounts or any collection, and send idempotent JSON requests to endpoints of the Tenant API',
		defaults: { name: 'Tenant API' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: TENANT_API_CREDENTIAL, required: true }],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
