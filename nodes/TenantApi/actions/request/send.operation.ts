import type { IExecuteFunctions, IHttpRequestMethods, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeRequests } from './executeRequests';
import { requestFields } from './requestFields';

/** What the Method parameter offers: POST has its own operation. */
const OFFERED_METHODS: readonly IHttpRequestMethods[] = ['DELETE', 'GET', 'PATCH', 'PUT'];

/** What it accepts: an expression may also return POST (sent with the Body, as POST to Endpoint sends it). */
const ACCEPTED_METHODS: readonly IHttpRequestMethods[] = [...OFFERED_METHODS, 'POST' as const].sort();

export const description: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: OFFERED_METHODS.map((method) => ({ name: method, value: method })),
		default: 'GET',
		description: 'HTTP method, for endpoints the spec does not show. Writes carry an Idempotency-Key too.',
		displayOptions: { show: { resource: ['request'], operation: ['send'] } },
	},
	...requestFields('send'),
];

/**
 * The Method parameter as one of ACCEPTED_METHODS; an expression may return it in any case (`"post"`),
 * or something else entirely, which is refused.
 */
export function acceptedMethod(value: unknown): IHttpRequestMethods {
	const method = String(value ?? '').trim().toUpperCase() as IHttpRequestMethods;
	if (!ACCEPTED_METHODS.includes(method)) {
		throw new Error(`The Method must be one of ${ACCEPTED_METHODS.join(', ')}, not ${JSON.stringify(value) ?? String(value)}`);
	}
	return method;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeRequests(this, (itemIndex) => acceptedMethod(this.getNodeParameter('method', itemIndex)));
}
