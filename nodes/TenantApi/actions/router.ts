import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as account from './account';
import * as request from './request';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	if (resource === 'account' && operation === 'getAll') return [await account.getAll.execute.call(this)];
	if (resource === 'request' && operation === 'getAll') return [await request.getAll.execute.call(this)];
	if (resource === 'request' && operation === 'post') return [await request.post.execute.call(this)];
	if (resource === 'request' && operation === 'send') return [await request.send.execute.call(this)];
	throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
}
