/** The node's parameters and subtitle, derived from the table of operations (operations.ts). */
import type { INodeProperties } from 'n8n-workflow';

import { OPERATIONS, RESOURCES } from './operations';

type Row = (typeof OPERATIONS)[number];

const showFor = ({ resource, value }: Omit<Row, 'toolDescription'>) => ({
	resource: [resource],
	operation: [value],
});

/**
 * One pre-filled Description per operation, on the tool variant only (`@tool`): n8n generates its
 * own, from the action, only for a node without `toolDescription`.
 */
const toolDescriptionFields = OPERATIONS.map(
	({ toolDescription, ...row }): INodeProperties => ({
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: toolDescription,
		required: true,
		typeOptions: { rows: 4 },
		description:
			'What the AI agent is told this tool does. Pre-filled for the operation; adjust it to the parameters you let the model fill.',
		displayOptions: { show: { '@tool': [true], ...showFor(row) } },
	}),
);

/** The row's parameters, each shown for its resource and operation (and its own conditions). */
const parametersOf = (row: Row): INodeProperties[] =>
	row.properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...showFor(row), ...property.displayOptions?.show },
		},
	}));

const [firstResource] = Object.keys(RESOURCES);

const resourcePicker: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.entries(RESOURCES).map(([value, { name }]) => ({ name, value })),
	default: firstResource,
};

/** A resource's Operation picker, then the parameters of its operations. */
const resourceFields = Object.entries(RESOURCES).flatMap(
	([resource, { defaultOperation }]): INodeProperties[] => {
		const rows = OPERATIONS.filter((row) => row.resource === resource);
		const picker: INodeProperties = {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: rows.map(({ name, value, description, action }) => ({
				name,
				value,
				description,
				action,
			})),
			default: defaultOperation,
		};
		return [picker, ...rows.flatMap(parametersOf)];
	},
);

export const properties = [...toolDescriptionFields, resourcePicker, ...resourceFields];

const parameter = (name: string) => `$parameter[${JSON.stringify(name)}]`;

/** A row's subtitle as an expression: `POST {endpoint}` is `"POST " + $parameter["endpoint"]`. */
function subtitleOf(text: string): string {
	const parts = text.split(/\{(\w+)\}/);
	return parts
		.map((part, index) => (index % 2 === 1 ? parameter(part) : JSON.stringify(part)))
		.filter((part) => part !== '""' || parts.length === 1)
		.join(' + ');
}

/** The subtitle under the node on the canvas: the chosen operation's. */
export const subtitle = `={{ ${OPERATIONS.map(
	(row) =>
		`${parameter('resource')} === ${JSON.stringify(row.resource)} && ${parameter('operation')} === ${JSON.stringify(row.value)} ? ${subtitleOf(row.subtitle)} : `,
).join('')}"" }}`;
