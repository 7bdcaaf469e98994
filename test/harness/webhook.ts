/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Runs the built Tenant API Trigger the way n8n's webhook server runs it: a real local HTTP server reads the
 * request, and the node's `webhook()` runs through n8n-core's `WebhookContext` (the lifecycle methods through its
 * `HookContext`).
 *
 * It re-implements, of n8n's server package (packages/cli, which the engine tests cannot load without an n8n
 * install), only what the trigger reads: the raw body (`rawBody`), the query (one value, or a list for a repeated
 * name), two express response methods (`status`, `json`), and `executeWebhook`'s answer once `webhook()` returned
 * (nothing when the node answered itself; `200 {"message":"Webhook call received"}` without workflow data; `200`
 * with an empty body for `responseData: 'noData'`). n8n's body parser (multipart, decompression, its 422 for JSON
 * that does not parse), its payload limit and Respond "When the Workflow Finishes" are left to the end-to-end
 * suites, which run n8n itself.
 */
import { randomUUID } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { TEST_CREDENTIAL_ID, TRIGGER_TYPE, createHarness } from './engine';

export const TRIGGER_NODE_NAME = 'Tenant API Trigger';

/** Data of a Tenant Webhook API credential. */
export const webhookCredential = (signingSecret: string, previous = '', test = '') => ({
	signingSecret,
	previousSigningSecret: previous,
	testSigningSecret: test,
});
export const WEBHOOK_ID = '5b0c7e1a-5f2e-4d67-9a51-3c0f9d1e2a77';
const WORKFLOW_ID = 'wf-trigger';

export interface TriggerSetup {
	/** Trigger node parameters (defaults of the node apply to what is left out). */
	parameters?: IDataObject;
	/** Tenant Webhook API credential data; `null` = the node has no credential selected. */
	credential?: ICredentialDataDecryptedObject | null;
	/** The credential is selected but cannot be read (as when n8n's database fails). */
	credentialUnreadable?: boolean;
	/** 'webhook' = production URL, 'manual' = test URL. */
	mode?: WorkflowExecuteMode;
	/** The workflow's id (WORKFLOW_ID by default): state a node keeps per workflow is apart for another id. */
	workflowId?: string;
}

export interface WebhookCall {
	/** What the node's webhook() returned; undefined when it threw. */
	result?: IWebhookResponseData;
	error?: Error;
}

type ExpressLikeRequest = http.IncomingMessage & {
	rawBody: Buffer;
	body: unknown;
	query: Record<string, string | string[]>;
	params: Record<string, string>;
};

type ExpressLikeResponse = http.ServerResponse & {
	status(code: number): ExpressLikeResponse;
	json(body: unknown): ExpressLikeResponse;
};

/** The two express response methods n8n nodes use, on a real ServerResponse. */
function expressLike(res: http.ServerResponse): ExpressLikeResponse {
	const r = res as ExpressLikeResponse;
	r.status = (code: number) => {
		r.statusCode = code;
		return r;
	};
	r.json = (body: unknown) => {
		const text = JSON.stringify(body);
		r.setHeader('content-type', 'application/json; charset=utf-8');
		r.setHeader('content-length', Buffer.byteLength(text));
		r.end(text);
		return r;
	};
	return r;
}

/** The request as n8n hands it to a node: its bytes kept as `rawBody`, its query parsed. */
async function prepareRequest(req: http.IncomingMessage): Promise<void> {
	const r = req as ExpressLikeRequest;
	const url = new URL(req.url ?? '/', 'http://localhost');
	r.query = {};
	for (const key of new Set(url.searchParams.keys())) {
		const all = url.searchParams.getAll(key);
		r.query[key] = all.length === 1 ? all[0] : all;
	}
	r.params = {};
	r.body = {};
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	r.rawBody = Buffer.concat(chunks);
}

/** Builds a Workflow holding the trigger node, with the package loaded from dist/. */
export async function buildTriggerRig(setup: TriggerSetup = {}) {
	const harness = await createHarness(setup.credential ?? {});
	const nodeType = harness.nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1);
	const credential = {
		id: setup.credentialUnreadable ? 'unreadable' : TEST_CREDENTIAL_ID,
		name: 'Tenant Webhook test',
	};
	const node: INode = {
		id: 'trigger-node-id',
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: WEBHOOK_ID,
		parameters: (setup.parameters ?? {}) as INode['parameters'],
		credentials: setup.credential === null ? undefined : { tenantWebhookApi: credential },
	};
	const workflowId = setup.workflowId ?? WORKFLOW_ID;
	const workflow = new Workflow({
		id: workflowId,
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: harness.nodeTypes,
	});
	// Resolve the node's parameters with their defaults, as n8n stores them.
	const resolved = workflow.getNode(TRIGGER_NODE_NAME)!;
	const additionalData = harness.additionalData(randomUUID(), workflowId);
	const webhookDescription = nodeType.description.webhooks![0];
	return {
		nodeType,
		workflow,
		node: resolved,
		webhookDescription,
		additionalData,
		webhookData: (isTest = false) => ({
			httpMethod: webhookDescription.httpMethod as IWebhookData['httpMethod'],
			node: TRIGGER_NODE_NAME,
			path: `${WEBHOOK_ID}/webhook`,
			webhookDescription,
			workflowId,
			workflowExecuteAdditionalData: additionalData,
			webhookId: WEBHOOK_ID,
			isTest,
		}),
	};
}

export type TriggerRig = Awaited<ReturnType<typeof buildTriggerRig>>;

/** Runs one of webhookMethods.default.{checkExists,create,delete} through n8n-core's HookContext. */
export async function runHookMethod(
	rig: TriggerRig,
	method: 'checkExists' | 'create' | 'delete',
	activation: WorkflowActivateMode = 'activate',
): Promise<boolean | undefined> {
	const context = new HookContext(
		rig.workflow,
		rig.node,
		rig.additionalData,
		'webhook',
		activation,
		rig.webhookData(),
	);
	return await rig.nodeType.webhookMethods!.default![method]!.call(context);
}

/** The HTTP answer the sender got, and the recorded call. */
export interface Answered {
	status: number;
	/** The answer's Content-Type header ('' without one). */
	contentType: string;
	text: string;
	call: WebhookCall;
}

export interface TriggerServer {
	/** URL to POST deliveries to (shaped like n8n's production URL). */
	url: string;
	/** Replace the node parameters / credential used for the next requests. */
	configure(setup: TriggerSetup): Promise<void>;
	/** POST exact bytes (one at a time); resolves with the HTTP answer and the recorded call. */
	post(body: string | Buffer, headers?: Record<string, string>, query?: string): Promise<Answered>;
	close(): Promise<void>;
}

/** A real local HTTP server that hands each request to the trigger's webhook() via WebhookContext. */
export async function startTriggerServer(initial: TriggerSetup = {}): Promise<TriggerServer> {
	let setup = initial;
	let rig = await buildTriggerRig(setup);
	/** Each request's call, in the order they came (`post` sends one at a time). */
	const calls: Array<Promise<WebhookCall>> = [];

	const handle = async (req: http.IncomingMessage, rawRes: http.ServerResponse) => {
		const res = expressLike(rawRes);
		const call: WebhookCall = {};
		await prepareRequest(req);
		const additionalData = {
			...rig.additionalData,
			httpRequest: req,
			httpResponse: res,
		} as IWorkflowExecuteAdditionalData;
		const context = new WebhookContext(
			rig.workflow,
			rig.node,
			additionalData,
			setup.mode ?? 'webhook',
			{
				...rig.webhookData(setup.mode === 'manual'),
				workflowExecuteAdditionalData: additionalData,
			},
			[],
			null,
		);
		try {
			call.result = await rig.nodeType.webhook!.call(context);
		} catch (error) {
			call.error = error as Error;
		}
		// executeWebhook's answer when the node sent none.
		if (!rawRes.writableEnded) {
			if (call.error) res.status(500).json({ code: 0, message: call.error.message });
			// n8n would leave the sender waiting: make the node's mistake visible.
			else if (call.result?.noWebhookResponse === true)
				res.status(500).json({ message: 'noWebhookResponse without a response' });
			else if (call.result?.workflowData === undefined)
				res.status(200).json(call.result?.webhookResponse ?? { message: 'Webhook call received' });
			else if (rig.webhookDescription.responseData === 'noData') rawRes.writeHead(200).end();
			else res.status(200).json({ message: 'Workflow was started' });
		}
		return call;
	};
	const server = http.createServer((req, res) => {
		const call = handle(req, res);
		// Awaited by post(); marked handled now so a failure is never an unhandled rejection meanwhile.
		call.catch(() => {});
		calls.push(call);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	const url = `http://127.0.0.1:${port}/webhook/${WEBHOOK_ID}/webhook`;

	return {
		url,
		async configure(next) {
			setup = next;
			rig = await buildTriggerRig(setup);
		},
		async post(body, headers = {}, query = '') {
			const index = calls.length;
			const res = await fetch(url + query, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: Buffer.from(body),
			});
			const text = await res.text();
			const contentType = res.headers.get('content-type') ?? '';
			return { status: res.status, contentType, text, call: await calls[index] };
		},
		close() {
			server.closeAllConnections();
			return new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A test file's trigger server: started before its tests and closed after them; n8n's log captured around each test. */
export function useTriggerServer(initial: TriggerSetup = {}) {
	/** The server, and n8n's log during the current test. */
	const state = {} as { server: TriggerServer; logs: ReturnType<typeof captureLogs> };
	beforeAll(async () => {
		state.server = await startTriggerServer(initial);
	});
	afterAll(async () => state.server.close());
	beforeEach(() => {
		state.logs = captureLogs();
	});
	afterEach(() => state.logs.restore());
	return state;
}

/** Records what nodes log through n8n's Logger (the one `this.logger` returns) until `restore()`. */
function captureLogs() {
	const logger = Container.get(Logger);
	const levels = ['error', 'warn', 'info', 'debug'] as const;
	const entries: Array<{ level: (typeof levels)[number]; message: string; metadata?: unknown }> =
		[];
	const spies = levels.map((level) =>
		jest.spyOn(logger, level).mockImplementation((message: string, metadata?: unknown) => {
			entries.push({ level, message, metadata });
		}),
	);
	return {
		entries,
		text: () => JSON.stringify(entries),
		restore: () => spies.forEach((spy) => spy.mockRestore()),
	};
}

/** The items a call started on the Verified output, as the workflow gets them. */
export function startedItems(call: WebhookCall): IDataObject[] {
	const data = call.result?.workflowData as Array<Array<{ json: IDataObject }>> | undefined;
	return data ? data[0].map(({ json }) => json) : [];
}

/** The `webhookDelivery` of the first item a call started ({} when there is none). */
export const deliveryOf = (call: WebhookCall) =>
	(startedItems(call)[0]?.webhookDelivery ?? {}) as IDataObject;
