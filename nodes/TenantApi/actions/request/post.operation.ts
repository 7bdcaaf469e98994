import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { ApiClient } from '../../transport/apiClient';
import { resolveEndpoint } from '../../transport/apiUrl';
import type { IdempotencyScope } from '../../transport/idempotencyKey';
import { deriveIdempotencyKey, validateIdempotencyKeyOverride } from '../../transport/idempotencyKey';
import { asNodeError } from '../common/asNodeError';
import { runItems } from '../common/runItems';
import { readTransportOptions, transportOptionFields } from '../common/transportOptions';
import { parseJsonObjectBody, toOutputJson } from './jsonBody';

const showFor = { resource: ['request'], operation: ['post'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Endpoint',
		name: 'endpoint',
		type: 'string',
		required: true,
		default: '',
		placeholder: '/transfers',
		description: 'Path below the Base URL of the credential, e.g. /transfers. Absolute URLs and paths that climb above the Base URL are refused.',
		displayOptions: { show: showFor },
	},
	{
		displayName: 'Body',
		name: 'body',
		type: 'json',
		default: '{}',
		description: 'JSON object sent as the request body',
		displayOptions: { show: showFor },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showFor },
		options: [
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 64 },
				default: 5,
				description: 'How many items are sent at the same time. Output order always follows input order.',
			},
			{
				displayName: 'Idempotency Key',
				name: 'idempotencyKey',
				type: 'string',
				default: '',
				placeholder: '={{ $json.orderId }}',
				description:
					'Overrides the automatic key for each item. Use a business key (e.g. an order ID) to stay safe across "Retry execution" and re-runs, which get new automatic keys.',
			},
			{
				displayName: 'Include Request Metadata',
				name: 'includeMetadata',
				type: 'boolean',
				default: false,
				description:
					'Whether to output { statusCode, idempotencyKey, attempts, replayed, body } instead of the response body alone',
			},
			...transportOptionFields,
		],
	},
];

function idempotencyScope(fn: IExecuteFunctions): IdempotencyScope {
	return {
		workflowId: String(fn.getWorkflow().id ?? ''),
		executionId: String(fn.getExecutionId() ?? ''),
		nodeId: fn.getNode().id,
		runIndex: Number(fn.getWorkflowDataProxy(0).$runIndex ?? 0),
	};
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	// A credential problem (no Secret Key, unsafe Base URL) fails every item with the same error inside
	// runItems, so that Continue On Fail gives error items instead of passing the input items through.
	const clientReady = ApiClient.create(this, readTransportOptions(this));
	clientReady.catch(() => undefined);
	const scope = idempotencyScope(this);
	const concurrency = (this.getNodeParameter('options.concurrency', 0, 5) as number) || 1;

	return await runItems(this, concurrency, async (itemIndex) => {
		const client = await clientReady;
		const endpoint = this.getNodeParameter('endpoint', itemIndex);
		const bodyParameter = this.getNodeParameter('body', itemIndex, '{}');
		const override = this.getNodeParameter('options.idempotencyKey', itemIndex, '') as unknown;
		const { url, jsonBody, idempotencyKey } = asNodeError(
			this,
			itemIndex,
			() => ({
				url: resolveEndpoint(client.base, endpoint),
				jsonBody: JSON.stringify(parseJsonObjectBody(bodyParameter)),
				idempotencyKey:
					override === '' || override === undefined || override === null
						? deriveIdempotencyKey(scope, itemIndex)
						: validateIdempotencyKeyOverride(override),
			}),
			'Nothing was sent. Fix the parameter and run again.',
		);
		const result = await client.send({ method: 'POST', url, jsonBody, idempotencyKey }, itemIndex);
		const includeMetadata = this.getNodeParameter('options.includeMetadata', itemIndex, false) as boolean;
		const body = toOutputJson(result.body);
		const json: IDataObject = includeMetadata
			? {
					statusCode: result.statusCode,
					idempotencyKey,
					attempts: result.attempts,
					replayed: result.replayed,
					body,
				}
			: body;
		return [json];
	});
}
