import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account';
import * as request from './actions/request';
import { router } from './actions/router';
import { toolDescriptionFields } from './actions/toolDescription';

export class TenantApi implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tenant API',
		name: 'tenantApi',
		icon: { light: 'file:tenantApi.svg', dark: 'file:tenantApi.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ $parameter["resource"] === "request" ? ($parameter["operation"] === "getAll" ? "Get many" : $parameter["operation"] === "send" ? $parameter["method"] : "POST") + " " + $parameter["endpoint"] : "Get many accounts" }}',
		description: 'List accounts or any collection, and send idempotent JSON requests to endpoints of the Tenant API',
		defaults: { name: 'Tenant API' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'tenantApi', required: true }],
		properties: [
			...toolDescriptionFields,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Request', value: 'request' },
				],
				default: 'account',
			},
			...account.description,
			...request.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
