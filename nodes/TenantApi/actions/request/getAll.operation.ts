import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeListing } from '../common/executeListing';
import { listingFields } from '../common/listingFields';
import { endpointField } from '../common/parameters';

const show = { resource: ['request'], operation: ['getAll'] };

export const description: INodeProperties[] = [
	endpointField(
		show,
		'Path of the collection below the Base URL of the credential, e.g. /transfers or /accounts/acc_1/transfers. Absolute URLs and paths that climb above the Base URL are refused.',
	),
	...listingFields(show),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeListing(this, (itemIndex) => this.getNodeParameter('endpoint', itemIndex));
}
