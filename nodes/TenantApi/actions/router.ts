import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { nodeError, TenantApiFailure } from '../transport/errors';
import { operationOf } from './operations';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const row = operationOf(resource, operation);
	if (!row)
		throw nodeError(
			this,
			new TenantApiFailure(`The operation "${operation}" of "${resource}" is not supported`),
		);
	return [await row.execute(this)];
}
