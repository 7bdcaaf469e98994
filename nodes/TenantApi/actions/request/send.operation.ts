import type { IExecuteFunctions, IHttpRequestMethods, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeRequests, requestFields } from './sendRequests';

export const description: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: [
			{ name: 'DELETE', value: 'DELETE' },
			{ name: 'GET', value: 'GET' },
			{ name: 'PATCH', value: 'PATCH' },
			{ name: 'PUT', value: 'PUT' },
		],
		default: 'GET',
		description: 'HTTP method, for endpoints the spec does not show. Writes carry an Idempotency-Key too.',
		displayOptions: { show: { resource: ['request'], operation: ['send'] } },
	},
	...requestFields('send'),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeRequests(this, (itemIndex) => this.getNodeParameter('method', itemIndex) as IHttpRequestMethods);
}
