import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as getMany from './actions/getMany.operation';
import { router } from './actions/router';
import * as sendRequests from './actions/sendRequests.operation';
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
		description:
			'List accounts or any collection, and send idempotent JSON requests to endpoints of the Tenant API',
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
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['account'] } },
				options: [
					{
						name: 'Get Many',
						value: 'getAll',
						description: 'List accounts, following pages',
						action: 'Get many accounts',
					},
				],
				default: 'getAll',
			},
			...getMany.accountDescription,
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['request'] } },
				options: [
					{
						name: 'Get Many',
						value: 'getAll',
						description:
							'List a collection below the Base URL (e.g. /transfers), following pages, one item per record',
						action: 'Get many records from an endpoint',
					},
					{
						name: 'POST to Endpoint',
						value: 'post',
						description:
							'POST a JSON object to a path below the Base URL, with an Idempotency-Key that stays the same on retries',
						action: 'Post to an endpoint',
					},
					{
						name: 'Send Request',
						value: 'send',
						description: 'GET, PUT, PATCH or DELETE an endpoint below the Base URL',
						action: 'Send a request to an endpoint',
					},
				],
				default: 'post',
			},
			...getMany.requestDescription,
			...sendRequests.postDescription,
			...sendRequests.sendDescription,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
