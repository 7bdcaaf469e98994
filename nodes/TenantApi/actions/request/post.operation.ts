import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeRequests } from './executeRequests';
import { requestFields } from './requestFields';

export const description: INodeProperties[] = requestFields('post');

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await executeRequests(this, () => 'POST');
}
