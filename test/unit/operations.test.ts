/* eslint-disable @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports -- test code: n8n's lint plugin (installed with @n8n/node-cli) has no types */
import type { Linter } from 'eslint';
import { ESLint } from 'eslint';
import type { INodeParameters, INodeTypes } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/TenantApi/actions/operations';
import { TenantApi } from '../../nodes/TenantApi/TenantApi.node';
import { resolveForNode } from '../harness/expression';

/** n8n's lint rules for nodes, as `npm run lint` (through @n8n/node-cli) and n8n's scanner apply them. */
const n8nNodesBase = require('eslint-plugin-n8n-nodes-base') as ESLint.Plugin & {
	configs: { nodes: { rules: Linter.RulesRecord } };
};

const node = new TenantApi();
const { description } = node;

/** The node's subtitle as the editor shows it: n8n's expression engine over the node's parameters. */
const nodeTypes = {
	getByName: () => node,
	getByNameAndVersion: () => node,
} as unknown as INodeTypes;
const subtitle = (parameters: INodeParameters) =>
	resolveForNode(description.subtitle!, { type: 'tenantApi', parameters }, nodeTypes);

describe('the subtitle under the node on the canvas', () => {
	const cases: Array<[INodeParameters, string]> = [
		[{ resource: 'account', operation: 'getAll' }, 'Get many accounts'],
		[{ resource: 'request', operation: 'getAll', endpoint: '/transfers' }, 'Get many /transfers'],
		[{ resource: 'request', operation: 'post', endpoint: '/transfers' }, 'POST /transfers'],
		[
			{ resource: 'request', operation: 'send', method: 'GET', endpoint: '/transfers/1' },
			'GET /transfers/1',
		],
		[{ resource: 'request', operation: 'send', method: 'DELETE', endpoint: '' }, 'DELETE '],
	];

	it.each(cases)('%j shows %j', (parameters, shown) => {
		expect(subtitle(parameters)).toBe(shown);
	});

	it('has a case above for every operation of the table', () => {
		const covered = new Set(cases.map(([{ resource, operation }]) => `${resource} ${operation}`));
		expect(OPERATIONS.map(({ resource, value }) => `${resource} ${value}`)).toEqual([...covered]);
	});
});

/** A value as the object literal a node's source would hold it in. */
function literal(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
	if (!value || typeof value !== 'object') return JSON.stringify(value);
	const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
	return `{ ${Object.entries(value)
		.map(([name, field]) => `${key(name)}: ${literal(field)}`)
		.join(', ')} }`;
}

describe("the node's parameters, derived from the table", () => {
	// n8n's lint (and n8n's scanner) reads a description's literals in the source; derived ones it cannot
	// see, so they are linted here as the literals they become, with n8n's rules for node parameters.
	// Options collections merged from shared lists are not alphabetised (the order users see today):
	// the rule that asks for that is left out.
	it("pass n8n's lint for node parameters", async () => {
		const rules = { ...n8nNodesBase.configs.nodes.rules };
		delete rules['n8n-nodes-base/node-param-collection-type-unsorted-items'];
		const eslint = new ESLint({
			overrideConfigFile: true,
			overrideConfig: [{ files: ['**/*.js'], plugins: { 'n8n-nodes-base': n8nNodesBase }, rules }],
		});
		const source = `export const properties = ${literal(description.properties)};\n`;
		const [result] = await eslint.lintText(source, { filePath: 'nodes/TenantApi/properties.js' });
		expect(result.messages.map(({ ruleId, message }) => `${ruleId}: ${message}`)).toEqual([]);
		const miscased = source.replace('"Get many accounts"', '"Get Many Accounts"');
		const [refused] = await eslint.lintText(miscased, {
			filePath: 'nodes/TenantApi/properties.js',
		});
		expect(refused.messages.map(({ ruleId }) => ruleId)).toEqual([
			'n8n-nodes-base/node-param-operation-option-action-miscased',
		]);
	});
});
