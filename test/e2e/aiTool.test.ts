/**
 * The node as an AI agent's tool in a real n8n (that of e2e-2x or e2e-1x). n8n's AI Agent runs with its OpenAI
 * Chat Model node pointed at a scripted model on loopback (fakeChatModel.ts): what that model receives is
 * exactly what an agent is shown of our tools, and the tool calls it makes run through n8n's own $fromAI and
 * tool machinery against the sandbox.
 */
import type { IDataObject, INodeTypeDescription } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox/server';
import { type ChatTool, type FakeChatModel, startFakeChatModel, textOf } from './fakeChatModel';
import {
	type CredentialRef,
	VERSION,
	nodeOutput,
	runManually,
	sessionLib,
	projectN8n,
	startSandbox,
	startLib,
	workflows,
} from './helpers';

const PACKAGE = 'n8n-nodes-tenant-api';
const MAJOR = Number(VERSION.split('.')[0]);
const TOOL_TYPE = `${PACKAGE}.tenantApiTool`;

/** What the editor's "let the model define this parameter" button writes (key from the display name). */
const fromAI = (key: string, type: string) =>
	`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, '${type}') }}`;

const PROMPTS = {
	pay: 'Pay 42 for order A-2',
	escape: 'Pay 7 through the other server',
	payouts: 'Which payouts were made?',
};

/** The model's tool calls, per prompt: what a model that read our descriptions would send. */
const SCRIPT = [
	{
		whenPromptHas: PROMPTS.pay,
		tool: 'Create_transfer',
		args: {
			Endpoint: '/transfers',
			Body: { order_id: 'A-2', amount: 42 },
			Idempotency_Key: 'order-A-2',
		},
	},
	{
		whenPromptHas: PROMPTS.escape,
		tool: 'Create_transfer',
		args: {
			Endpoint: 'https://elsewhere.example/v1/transfers',
			Body: { amount: 7 },
			Idempotency_Key: 'order-B-7',
		},
	},
	{ whenPromptHas: PROMPTS.payouts, tool: 'List_collection', args: { Endpoint: '/payouts' } },
];
/** Seeded payouts of the sandbox (po_0001…), listed in next-link pages. */
const PAYOUTS = 12;

/** Manual Trigger → AI Agent, with the scripted model and three Tenant API tools (list accounts, list a collection, create a transfer). */
function agentWorkflow(
	prompt: string,
	credentials: { tenantApi: CredentialRef; model: CredentialRef },
) {
	const { node, chain, MANUAL_TRIGGER } = workflows;
	const tool = (name: string, parameters: IDataObject) =>
		node(name, TOOL_TYPE, parameters, { credentials: { tenantApi: credentials.tenantApi } });
	const model = node(
		'Model',
		'@n8n/n8n-nodes-langchain.lmChatOpenAi',
		{ model: { __rl: true, mode: 'id', value: 'scripted-model' }, options: {} },
		{ typeVersion: 1.2, credentials: { openAiApi: credentials.model } },
	);
	const tools = [
		tool('List accounts', { resource: 'account', operation: 'getAll', returnAll: false, limit: 5 }),
		tool('List collection', {
			resource: 'request',
			operation: 'getAll',
			endpoint: fromAI('Endpoint', 'string'),
			returnAll: true,
			options: { pageSize: 5 },
		}),
		tool('Create transfer', {
			resource: 'request',
			operation: 'post',
			endpoint: fromAI('Endpoint', 'string'),
			body: fromAI('Body', 'json'),
			options: { idempotencyKey: fromAI('Idempotency_Key', 'string') },
		}),
	];
	const toAgent = (type: string) => ({ [type]: [[{ node: 'AI Agent', type, index: 0 }]] });
	const start = node('Start', MANUAL_TRIGGER);
	const agent = node(
		'AI Agent',
		'@n8n/n8n-nodes-langchain.agent',
		{ promptType: 'define', text: prompt, options: {} },
		{ typeVersion: 3 },
	);
	const flow = chain(`AI tool: ${prompt}`, [start, agent], {
		connections: {
			Model: toAgent('ai_languageModel'),
			...Object.fromEntries(tools.map((t) => [t.name, toAgent('ai_tool')])),
		},
	});
	return { ...flow, nodes: [...flow.nodes, model, ...tools] };
}

function toolShown(model: FakeChatModel, name: string): ChatTool['function'] {
	const tool = model.requests[0]?.tools?.find((t) => t.function.name === name);
	if (!tool)
		throw new Error(
			`the model was not shown a tool "${name}": ${JSON.stringify(model.requests[0]?.tools?.map((t) => t.function.name))}`,
		);
	return tool.function;
}

/** What the tool answered, as the model received it (the tool message of the conversation's last call). */
function toolAnswer(model: FakeChatModel): string {
	const last = model.requests[model.requests.length - 1];
	const message = last?.messages.find((m) => m.role === 'tool');
	if (!message) throw new Error('the model never received a tool result');
	return textOf(message);
}

describe(`n8n ${VERSION}: the node as an AI agent's tool`, () => {
	let sandbox: Sandbox;
	let model: FakeChatModel;
	const n8n = projectN8n();

	/** The agent's workflows by prompt: their ids in n8n. */
	const workflowOf: Partial<Record<keyof typeof PROMPTS, string>> = {};

	beforeAll(async () => {
		sandbox = await startSandbox({ payouts: PAYOUTS });
		model = await startFakeChatModel(SCRIPT);
		const credentials = {
			tenantApi: await startLib.createCredential(n8n, {
				name: 'Tenant API (AI tool sandbox)',
				type: 'tenantApi',
				data: startLib.tenantApiData(sandbox),
			}),
			model: await startLib.createCredential(n8n, {
				name: 'Scripted model (loopback)',
				type: 'openAiApi',
				data: { apiKey: 'scripted-model-key', url: model.url, header: false },
			}),
		};
		for (const [key, prompt] of Object.entries(PROMPTS) as Array<[keyof typeof PROMPTS, string]>)
			workflowOf[key] = await sessionLib.createWorkflow(n8n, agentWorkflow(prompt, credentials));
	});

	afterAll(async () => {
		await model?.close();
		await sandbox?.close();
	});

	/** Runs the agent's workflow for `prompt` as the editor does; the model's requests start afresh. */
	async function execute(prompt: keyof typeof PROMPTS) {
		model.requests.length = 0;
		return await runManually(n8n, workflowOf[prompt]!, 'Start');
	}

	/** Runs the agent's workflow; returns the agent's final answer. */
	async function runAgent(prompt: keyof typeof PROMPTS): Promise<string> {
		const run = await execute(prompt);
		expect(run.data.resultData.error).toBeUndefined();
		return String(nodeOutput(run, 'AI Agent')[0]?.output ?? '');
	}

	describe('a run of the AI Agent', () => {
		let firstAnswer: string;

		beforeAll(async () => {
			sandbox.reset();
			firstAnswer = await runAgent('pay');
		});

		test.each([
			[
				'Create_transfer',
				/^Sends a POST request with a JSON body to the Tenant API/,
				[
					'Endpoint: a path below the API base URL, such as /transfers',
					'never a full URL',
					'Body: a JSON object (not an array, not text)',
					'Writes are idempotent',
					'pass a business key that names the operation',
				],
				{ Body: '', Endpoint: 'string', Idempotency_Key: 'string' },
			],
			['List_accounts', /^Lists the accounts of the tenant in the Tenant API\. Read-only/, [], {}],
			[
				'List_collection',
				/^Lists the records of one collection of the Tenant API \(for example transfers or payouts\), following its pages\. Read-only/,
				[
					'Endpoint: the path of the collection below the API base URL, such as /transfers',
					'never a full URL',
				],
				{ Endpoint: 'string' },
			],
		])(
			"the model is shown %s with its operation's description; its arguments are the parameters the user let the model fill, the rest stays the user's",
			(name, start, phrases, argumentTypes) => {
				const { description, parameters } = toolShown(model, name);
				expect(description).toMatch(start);
				for (const phrase of phrases) expect(description).toContain(phrase);
				const properties = parameters.properties ?? {};
				expect(Object.keys(properties).sort()).toEqual(Object.keys(argumentTypes));
				for (const [key, type] of Object.entries(argumentTypes))
					if (type) expect({ key, type: properties[key].type }).toEqual({ key, type });
			},
		);

		test("the model's call POSTs once with its business key, and the API's answer reaches the model", () => {
			const records = sandbox.records();
			expect(records).toHaveLength(1);
			expect(records[0]).toEqual(
				expect.objectContaining({
					endpoint: '/transfers',
					idempotency_key: 'order-A-2',
					order_id: 'A-2',
					amount: 42,
				}),
			);
			expect(toolAnswer(model)).toContain(records[0].id);
			expect(firstAnswer).toContain(records[0].id);
		});

		test("the model's choice of collection is listed whole, every page, one record each, and reaches the model", async () => {
			const before = sandbox.stats().byRoute['GET /v1/payouts'] ?? 0;
			const answer = await runAgent('payouts');
			// 12 payouts in next-link pages of 5: 3 pages.
			expect((sandbox.stats().byRoute['GET /v1/payouts'] ?? 0) - before).toBe(3);
			const shown = toolAnswer(model);
			for (let i = 1; i <= PAYOUTS; i++)
				expect(shown).toContain(`po_${String(i).padStart(4, '0')}`);
			expect(answer).toContain(`po_${String(PAYOUTS).padStart(4, '0')}`);
		});

		test('an endpoint outside the Base URL is refused before anything is sent, with a message that says why', async () => {
			const before = sandbox.stats().requests;
			const run = await execute('escape');
			expect(sandbox.stats().requests).toBe(before);
			expect(sandbox.records()).toHaveLength(1);
			const refusal = 'must be a path relative to the Base URL (e.g. /transfers)';
			if (MAJOR >= 2) {
				// n8n 2.x hands a tool's error to the model, which can correct its call.
				expect(run.data.resultData.error).toBeUndefined();
				expect(toolAnswer(model)).toContain(refusal);
			} else {
				// n8n 1.x ends the execution with the tool node's error instead.
				expect(run.data.resultData.error?.message).toContain(refusal);
			}
		});
	});

	test('n8n generated tenantApiTool from usableAsTool: an AI tool under AI → Tools, one pre-filled Description per operation shown only on the tool, no generic "Set Automatically" switch, $fromAI allowed where an agent may fill', async () => {
		const types = await n8n.request<INodeTypeDescription[]>('GET', '/types/nodes.json', {
			cookie: n8n.cookie,
		});
		const tool = types.json?.find((t) => t.name === TOOL_TYPE);
		expect([
			tool?.displayName,
			tool?.inputs,
			tool?.outputs,
			tool?.codex?.subcategories?.AI,
		]).toEqual(['Tenant API Tool', [], ['ai_tool'], ['Tools']]);
		const properties = tool!.properties;
		const property = (name: string, operation: string) => {
			const found = properties.find(
				(p) => p.name === name && p.displayOptions?.show?.operation?.includes(operation),
			);
			if (!found) throw new Error(`no ${name} property for ${operation}`);
			return found;
		};
		const descriptions = properties.filter((p) => p.name === 'toolDescription');
		expect(
			descriptions.map(({ displayOptions }) => [
				`${displayOptions?.show?.resource?.[0]} ${displayOptions?.show?.operation?.[0]}`,
				displayOptions?.show?.['@tool'],
			]),
		).toEqual(
			['account getAll', 'request getAll', 'request post', 'request send'].map((op) => [
				op,
				[true],
			]),
		);
		expect(String(property('toolDescription', 'send').default)).toMatch(
			/GET, PUT, PATCH or DELETE.*path below the API base URL.*JSON object/s,
		);
		expect(properties.some((p) => p.name === 'descriptionType')).toBe(false);
		const idempotencyKey = property('options', 'post').options?.find(
			(o) => 'name' in o && o.name === 'idempotencyKey',
		);
		expect(idempotencyKey && 'type' in idempotencyKey && idempotencyKey.type).toBe('string');
		// Where an agent may fill ($fromAI), the parameter takes an expression.
		for (const [operation, name, type] of [
			['post', 'endpoint', 'string'],
			['post', 'body', 'json'],
			['send', 'endpoint', 'string'],
			['getAll', 'endpoint', 'string'],
		]) {
			const { type: actual, noDataExpression } = property(name, operation);
			expect([operation, name, actual, !!noDataExpression]).toEqual([operation, name, type, false]);
		}
	});
});
