import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { nodeError, TenantApiFailure } from '../transport/errors';
import * as getMany from './getMany.operation';
import * as sendRequests from './sendRequests.operation';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	if ((resource === 'account' || resource === 'request') && operation === 'getAll')
		return [await getMany.execute(this, resource)];
	if (resource === 'request' && (operation === 'post' || operation === 'send'))
		return [await sendRequests.execute(this, operation)];
	throw nodeError(
		this,
		new TenantApiFailure(`The operation "${operation}" of "${resource}" is not supported`),
	);
}
