import type { IDataObject, INode, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

/**
 * An expression as n8n resolves it for a node outside any execution (a node's subtitle in the editor,
 * a credential test's URL): n8n-workflow's own evaluator, over a workflow of that node alone.
 */
export function resolveForNode(
	expression: string,
	node: Pick<INode, 'type' | 'parameters'>,
	nodeTypes: INodeTypes,
	additionalKeys: IDataObject = {},
): unknown {
	const alone: INode = { id: 'n', name: 'n', typeVersion: 1, position: [0, 0], ...node };
	const workflow = new Workflow({ nodes: [alone], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(
		alone,
		expression,
		'internal',
		additionalKeys as never,
	);
}
