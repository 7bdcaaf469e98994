import type { IExecuteFunctions, IHttpRequestMethods, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeRequests } from './executeRequests';
import { requestFields } from './requestFields';

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

const METHODS: readonly IHttpRequestMethods[] = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'];

/** The Method parameter; an expression may return it in any case (`"post"`), or something else entirely. */
export function normaliseMethod(value: unknown): IHttpRequestMethods {
	const method = String(value ?? '').trim().toUpperCase() as IHttpRequestMethods;
	if (!METHODS.includes(method)) {
		throw new Error(`The Method must be one of ${METHODS.join(', ')}, not ${JSON.stringify(value) ?? String(value)}`);
	}
	return method;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeRequests(this, (itemIndex) => normaliseMethod(this.getNodeParameter('method', itemIndex)));
}
