import type { INodeProperties } from 'n8n-workflow';

import * as post from './post.operation';

export { post };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['request'] } },
		options: [
			{
				name: 'POST to Endpoint',
				value: 'post',
				description: 'Send a JSON POST with an automatic Idempotency-Key',
				action: 'Post to an endpoint',
			},
		],
		default: 'post',
	},
	...post.description,
];
