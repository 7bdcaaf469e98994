import type { INode, INodeParameters, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { TenantApi } from '../../nodes/TenantApi/TenantApi.node';

const node = new TenantApi();
const { description } = node;

/** The node's subtitle as the editor shows it: n8n's expression engine over the node's parameters. */
function subtitle(parameters: INodeParameters): unknown {
	const nodeTypes = {
		getByName: () => node,
		getByNameAndVersion: () => node,
	} as unknown as INodeTypes;
	const canvasNode: INode = {
		id: 'n',
		name: 'Tenant API',
		type: 'tenantApi',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [canvasNode], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(
		canvasNode,
		description.subtitle!,
		'internal',
		{},
	);
}

describe('the subtitle under the node on the canvas', () => {
	it.each([
		[{ resource: 'account', operation: 'getAll' }, 'Get many accounts'],
		[{ resource: 'request', operation: 'getAll', endpoint: '/transfers' }, 'Get many /transfers'],
		[{ resource: 'request', operation: 'post', endpoint: '/transfers' }, 'POST /transfers'],
		[
			{ resource: 'request', operation: 'send', method: 'GET', endpoint: '/transfers/1' },
			'GET /transfers/1',
		],
		[{ resource: 'request', operation: 'send', method: 'DELETE', endpoint: '' }, 'DELETE '],
	])('%j shows %j', (parameters, shown) => {
		expect(subtitle(parameters)).toBe(shown);
	});
});
