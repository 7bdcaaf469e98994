import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeListing } from '../common/executeListing';
import { listingFields } from '../common/listingFields';

export const description: INodeProperties[] = listingFields({ resource: ['account'], operation: ['getAll'] });

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeListing(this, () => '/accounts');
}
