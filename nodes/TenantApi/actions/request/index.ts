import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';
import * as post from './post.operation';
import * as send from './send.operation';

export { getAll, post, send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['request'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List a collection below the Base URL (e.g. /transfers), following pages, one item per record',
				action: 'Get many records from an endpoint',
			},
			{
				name: 'POST to Endpoint',
				value: 'post',
				description: 'POST a JSON object to a path below the Base URL, with an Idempotency-Key that stays the same on retries',
				action: 'Post to an endpoint',
			},
			{
				name: 'Send Request',
				value: 'send',
				description: 'GET, PUT, PATCH or DELETE an endpoint below the Base URL',
				action: 'Send a request to an endpoint',
			},
		],
		default: 'post',
	},
	...getAll.description,
	...post.description,
	...send.description,
];
