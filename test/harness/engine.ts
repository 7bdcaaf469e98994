/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Runs this package's nodes the way n8n runs them: the built package is loaded by n8n-core's
 * PackageDirectoryLoader, workflows run through WorkflowExecute, credentials are resolved by a
 * credentials helper that applies the credential's own `authenticate`.
 *
 * Re-implemented from n8n (kept minimal): its CredentialsHelper (packages/cli/src/credentials-helper.ts),
 * which lives in n8n's server package, not in a library the tests can load without installing n8n. Here
 * credential data comes from a plain map (no database, no encryption) and `authenticate` is applied to
 * each request as n8n applies it; nothing else of that class is used by the nodes.
 */
import { randomUUID } from 'crypto';
import { join } from 'path';

import { ExecutionLifecycleHooks, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';

export const PACKAGE_ROOT = join(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-tenant-api';
export const ACTION_TYPE = `${PACKAGE_NAME}.tenantApi`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.tenantApiTrigger`;
export const ITEMS_TYPE = 'harness.items';
export const EMIT_TYPE = 'harness.emit';
export const LINES_TYPE = 'harness.lines';

/**
 * The description of a test node named `displayName` (its type name in lower camel case), one main input and output
 * unless `extra` says otherwise.
 */
export function describeNode(
	displayName: string,
	description: string,
	extra: Partial<INodeTypeDescription> = {},
): INodeTypeDescription {
	return {
		displayName,
		name: displayName[0].toLowerCase() + displayName.slice(1),
		group: ['transform'],
		version: 1,
		description,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...extra,
	};
}

/**
 * Emits the items given in its `items` parameter: a start node (Items), or after a trigger whatever comes in
 * (Emit), as an upstream listing would.
 */
class ItemsNode implements INodeType {
	constructor(readonly description: INodeTypeDescription) {}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = typeof raw === 'string' ? (JSON.parse(raw) as IDataObject[]) : raw;
		return [items.map((json, index) => ({ json, pairedItem: { item: index } }))];
	}
}
const ITEMS_PROPERTIES: INodeTypeDescription['properties'] = [
	{ displayName: 'Items', name: 'items', type: 'json', default: '[]' },
];

/**
 * What a Code node ("Run Once for All Items") that builds new items does: the `lines` of its input
 * items with an `amount` above 0, sorted by `ref`, returned without pairedItem. n8n-core then fills
 * pairedItem in itself (WorkflowExecute's assignPairedItems: item 0 after one input item).
 */
class LinesNode implements INodeType {
	description = describeNode(
		'Lines',
		"New items from the input items' lines, without item linking",
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const lines = this.getInputData().flatMap((item) => item.json.lines as IDataObject[]);
		const kept = lines.filter((line) => Number(line.amount) > 0);
		kept.sort((a, b) => String(a.ref).localeCompare(String(b.ref)));
		return [kept.map((json) => ({ json }))];
	}
}

let loaderPromise: Promise<PackageDirectoryLoader> | undefined;

/** Loads dist/ through package.json "n8n" exactly as n8n loads a community package. */
export async function loadPackage(): Promise<PackageDirectoryLoader> {
	loaderPromise ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		return loader;
	})();
	return await loaderPromise;
}

export class PackageNodeTypes implements INodeTypes {
	private readonly extra: Record<string, INodeType> = {
		[ITEMS_TYPE]: new ItemsNode(
			describeNode('Items', 'Emits fixed items', {
				group: ['input'],
				inputs: [],
				properties: ITEMS_PROPERTIES,
			}),
		),
		[EMIT_TYPE]: new ItemsNode(
			describeNode('Emit', 'Emits fixed items', { properties: ITEMS_PROPERTIES }),
		),
		[LINES_TYPE]: new LinesNode(),
	};

	constructor(private readonly loader: PackageDirectoryLoader) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		if (this.extra[nodeType]) return this.extra[nodeType];
		const prefix = `${PACKAGE_NAME}.`;
		if (!nodeType.startsWith(prefix)) throw new Error(`Unknown node type ${nodeType}`);
		return this.loader.getNode(nodeType.slice(prefix.length)).type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}

/**
 * Resolves credentials from a plain map and applies the credential type's `authenticate` the way n8n's
 * CredentialsHelper does (packages/cli/src/credentials-helper.ts, same in 1.123 and 2.40) for a function, the only
 * kind these credentials have: called with the credential data and the request options, its result is sent.
 * (n8n's HTTP Request node, in the benchmark, applies its Header Auth itself.)
 */
class TestCredentialsHelper extends ICredentialsHelper {
	/** Credential types beyond the package's (e.g. the benchmark's floor node's). */
	readonly extraTypes: Record<string, ICredentialType> = {};

	constructor(
		private readonly loader: PackageDirectoryLoader,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	private type(name: string): ICredentialType {
		return this.extraTypes[name] ?? this.loader.getCredential(name).type;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		if (typeof authenticate !== 'function')
			throw new Error(`no authenticate function in credential type ${typeName}`);
		return await authenticate(credentials, requestOptions);
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used by these nodes');
	}

	async getDecrypted(
		_additionalData: unknown,
		nodeCredentials: { id: string | null; name: string },
	): Promise<ICredentialDataDecryptedObject> {
		const found = this.data[nodeCredentials.id ?? nodeCredentials.name];
		if (!found) throw new Error(`No test credential ${nodeCredentials.id}`);
		return { ...found };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return this.type(type).properties;
	}
}

export const TEST_CREDENTIAL_ID = 'cred-tenant';

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/** The package loaded, its credential (TEST_CREDENTIAL_ID) and what n8n's server gives an execution. */
export async function createHarness(credential: ICredentialDataDecryptedObject) {
	const loader = await loadPackage();
	const credentials = { [TEST_CREDENTIAL_ID]: credential };
	const helper = new TestCredentialsHelper(loader, credentials);
	return {
		loader,
		nodeTypes: new PackageNodeTypes(loader),
		credentials,
		credentialsHelper: helper,
		additionalData: (executionId: string, workflowId: string) =>
			({
				credentialsHelper: helper,
				executionId,
				workflowId,
				currentNodeExecutionIndex: 0,
				// The URLs n8n-core reads: the trigger's public ones, and the resume URLs of every execution.
				webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
				webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
				webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
				formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
				variables: {},
			}) as unknown as IWorkflowExecuteAdditionalData,
	};
}

/**
 * Runs `workflow` through n8n-core's WorkflowExecute as a new execution: from the node `start` (a manual run, as the
 * editor's Execute does), or from run data n8n's server prepared (a webhook delivery, a retry: executions.ts).
 */
export async function execute(
	harness: Harness,
	workflow: Workflow,
	mode: WorkflowExecuteMode,
	start: string | IRunExecutionData,
): Promise<{ executionId: string; run: IRun }> {
	const executionId = randomUUID();
	const workflowId = String(workflow.id);
	const additionalData = harness.additionalData(executionId, workflowId);
	// WorkflowExecute requires lifecycle hooks.
	(additionalData as { hooks?: ExecutionLifecycleHooks }).hooks = new ExecutionLifecycleHooks(
		mode,
		executionId,
		{
			id: workflowId,
			name: 'test',
			nodes: Object.values(workflow.nodes),
			connections: workflow.connectionsBySourceNode,
			settings: {},
		} as never,
	);
	const run =
		typeof start === 'string'
			? await new WorkflowExecute(additionalData, mode).run({
					workflow,
					startNode: workflow.getNode(start)!,
				})
			: await new WorkflowExecute(additionalData, mode, start).processRunExecutionData(workflow);
	return { executionId, run };
}

export interface NodeRun {
	run: IRun;
	/** Output items of the node under test (first run, main output 0); empty when it failed. */
	items: INodeExecutionData[];
	/** The node error, if the node under test failed. */
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	/** The node's own execution time as the engine measured it. */
	executionTime?: number;
}

interface RunOptions {
	inputItems?: IDataObject[];
	workflowId?: string;
	/** Node types to use instead of the harness's (e.g. with n8n's HTTP Request node added). */
	nodeTypes?: INodeTypes;
}

export interface ActionWorkflowOptions extends RunOptions {
	parameters: IDataObject;
	/** Node settings: retryOnFail, maxTries, waitBetweenTries, onError, … */
	settings?: Partial<INode>;
}

/**
 * Executes "Items → node" through n8n-core's WorkflowExecute in manual mode, as the editor's Execute
 * does, and returns what the node produced.
 */
export async function runNodeWorkflow(
	harness: Harness,
	node: Omit<INode, 'id' | 'position'>,
	options: RunOptions = {},
): Promise<NodeRun> {
	const nodes: INode[] = [
		{
			id: 'items-node',
			name: 'Items',
			type: ITEMS_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(options.inputItems ?? [{}]) },
		},
		{ id: 'node-under-test', position: [200, 0], ...node },
	];
	const connections = {
		Items: { main: [[{ node: node.name, type: NodeConnectionTypes.Main, index: 0 }]] },
	};
	const workflow = new Workflow({
		id: options.workflowId ?? 'wf-test',
		nodes,
		connections,
		active: false,
		nodeTypes: options.nodeTypes ?? harness.nodeTypes,
	});
	const { run } = await execute(harness, workflow, 'manual', 'Items');
	const taskData = run.data.resultData.runData[node.name]?.[0];
	return {
		run,
		items: taskData?.data?.main?.[0] ?? [],
		error: (taskData?.error ?? run.data.resultData.error) as NodeRun['error'],
		executionTime: taskData?.executionTime,
	};
}

/** Request → POST to /transfers of each item's `ref` and `amount`, with the given options. */
export function postTransfersParameters(options: IDataObject): IDataObject {
	return {
		resource: 'request',
		operation: 'post',
		endpoint: '/transfers',
		body: '={{ JSON.stringify({ ref: $json.ref, amount: $json.amount }) }}',
		options,
	};
}

/**
 * Items → Tenant API Request → POST to /transfers (postTransfersParameters; one item `{ amount: 1 }` by
 * default); `parameters` go on top, their `options` on top of a 1 ms retry delay.
 */
export async function postTransfer(
	harness: Harness,
	parameters: IDataObject,
	extra: Partial<ActionWorkflowOptions> = {},
): Promise<NodeRun> {
	const { options, ...rest } = parameters;
	return await runActionWorkflow(harness, {
		inputItems: [{ amount: 1 }],
		...extra,
		parameters: {
			...postTransfersParameters({ retryBaseDelay: 1, ...(options as IDataObject) }),
			...rest,
		},
	});
}

/** Executes Items → Tenant API and returns the action node's result. */
export async function runActionWorkflow(
	harness: Harness,
	options: ActionWorkflowOptions,
): Promise<NodeRun> {
	const node = {
		name: 'Tenant API',
		type: ACTION_TYPE,
		typeVersion: 1,
		parameters: options.parameters as INode['parameters'],
		credentials: { tenantApi: { id: TEST_CREDENTIAL_ID, name: 'Tenant API test' } },
		...options.settings,
	};
	return await runNodeWorkflow(harness, node, options);
}

export function sandboxCredential(
	baseUrl: string,
	overrides: IDataObject = {},
): ICredentialDataDecryptedObject {
	return {
		environment: 'sandbox',
		baseUrl,
		secretKey: 'sk_test_sandbox',
		tenantId: 'tenant_demo',
		...overrides,
	};
}
