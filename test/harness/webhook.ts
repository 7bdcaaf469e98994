/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Runs the built Tenant API Trigger the way n8n's webhook server runs it: a real local HTTP server reads the
 * request, and the node's `webhook()` runs through n8n-core's `WebhookContext` (the lifecycle methods through its
 * `HookContext`).
 *
 * What this rebuilds of n8n's server package (packages/cli, which the engine tests cannot load without an n8n
 * install), and only what the trigger reads: the raw body reader (`rawBody`, gzip/deflate decoded; for
 * multipart/form-data, n8n parses the stream itself and `readRawBody()` then throws), the request's query, two
 * express response methods (`status`, `json`), and `executeWebhook`'s answer once `webhook()` returned (nothing
 * when the node answered itself; `200 {"message":"Webhook call received"}` without workflow data; `200` with an
 * empty body for `responseData: 'noData'`). n8n's body parser (the trigger reads only the raw bytes), its 422 for
 * JSON that does not parse, its payload limit and Respond "When the Workflow Finishes" are left to the end-to-end
 * suites, which run n8n itself.
 */
import { randomUUID } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { gunzipSync, inflateSync } from 'zlib';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/server';
import { sign } from '../../sandbox/signing';

import type { Harness } from './engine';
import { TEST_CREDENTIAL_ID, TRIGGER_TYPE, createHarness, sandboxCredential } from './engine';
import { withoutDelivery } from './verifier';

export const TRIGGER_NODE_NAME = 'Tenant API Trigger';

/** Data of a Tenant Webhook API credential. */
export function webhookCredential(
	signingSecret: string,
	previousSigningSecret = '',
	testSigningSecret = '',
): ICredentialDataDecryptedObject {
	return { signingSecret, previousSigningSecret, testSigningSecret };
}
export const WEBHOOK_ID = '5b0c7e1a-5f2e-4d67-9a51-3c0f9d1e2a77';
export const WORKFLOW_ID = 'wf-trigger';

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
	/** The HTTP answer the sender got. */
	status: number;
	responseBody: string;
	/** What the node saw. */
	rawBody: Buffer;
}

export interface LogEntry {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: unknown;
}

type ExpressLikeRequest = http.IncomingMessage & {
	rawBody?: Buffer;
	readRawBody?: () => Promise<void>;
	body: unknown;
	query: Record<string, string | string[]>;
	params: Record<string, string>;
	contentType?: string;
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

function readBytes(req: http.IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** Like n8n's raw body reader: decompress and keep the bytes; multipart consumed as n8n consumes it. */
async function prepareRequest(req: http.IncomingMessage): Promise<void> {
	const r = req as ExpressLikeRequest;
	r.contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	const url = new URL(req.url ?? '/', 'http://localhost');
	r.query = {};
	for (const key of new Set(url.searchParams.keys())) {
		const all = url.searchParams.getAll(key);
		r.query[key] = all.length === 1 ? all[0] : all;
	}
	r.params = {};
	r.body = {};
	const raw = await readBytes(req);
	if (r.contentType === 'multipart/form-data') {
		// n8n parses multipart itself (formidable) and never keeps the bytes; the node's read then fails.
		r.readRawBody = async () => {
			throw new Error('Request body stream was aborted or is not readable');
		};
		return;
	}
	const encoding = req.headers['content-encoding'];
	r.rawBody =
		encoding === 'gzip' ? gunzipSync(raw) : encoding === 'deflate' ? inflateSync(raw) : raw;
}

export interface TriggerRig {
	harness: Harness;
	nodeType: INodeType;
	workflow: Workflow;
	node: INode;
	webhookDescription: IWebhookDescription;
	additionalData: IWorkflowExecuteAdditionalData;
	webhookData(isTest?: boolean): IWebhookData;
}

/** Builds a Workflow holding the trigger node, with the package loaded from dist/. */
export async function buildTriggerRig(setup: TriggerSetup = {}): Promise<TriggerRig> {
	const harness = await createHarness(setup.credential ?? {});
	const nodeType = harness.nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1);
	const node: INode = {
		id: 'trigger-node-id',
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: WEBHOOK_ID,
		parameters: (setup.parameters ?? {}) as INode['parameters'],
		...(setup.credential === null
			? {}
			: {
					credentials: {
						tenantWebhookApi: {
							id: setup.credentialUnreadable ? 'unreadable' : TEST_CREDENTIAL_ID,
							name: 'Tenant Webhook test',
						},
					},
				}),
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
		harness,
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
	const fn = rig.nodeType.webhookMethods?.default?.[method];
	if (!fn) throw new Error(`webhookMethods.default.${method} is missing`);
	return await fn.call(context);
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
	calls: WebhookCall[];
	/** Replace the node parameters / credential used for the next requests. */
	configure(setup: TriggerSetup): Promise<void>;
	/** POST exact bytes; resolves with the HTTP answer and the recorded call. */
	post(body: string | Buffer, headers?: Record<string, string>, query?: string): Promise<Answered>;
	/** Resolves once `n` calls have been handled. */
	waitForCalls(n: number, ms?: number): Promise<void>;
	close(): Promise<void>;
}

/** A real local HTTP server that hands each request to the trigger's webhook() via WebhookContext. */
export async function startTriggerServer(initial: TriggerSetup = {}): Promise<TriggerServer> {
	let setup = initial;
	let rig = await buildTriggerRig(setup);
	const calls: WebhookCall[] = [];
	let waiters: Array<{ n: number; resolve: () => void }> = [];

	const server = http.createServer((req, rawRes) => {
		const res = expressLike(rawRes);
		void (async () => {
			const call: WebhookCall = { status: 0, responseBody: '', rawBody: Buffer.alloc(0) };
			const sent: Buffer[] = [];
			const originalEnd = rawRes.end.bind(rawRes) as (chunk?: unknown) => http.ServerResponse;
			(rawRes as unknown as { end: (chunk?: unknown) => http.ServerResponse }).end = (
				chunk?: unknown,
			) => {
				if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) sent.push(Buffer.from(chunk));
				return originalEnd(chunk);
			};
			try {
				await prepareRequest(req);
				call.rawBody = (req as ExpressLikeRequest).rawBody ?? Buffer.alloc(0);
				const additionalData = {
					...rig.additionalData,
					httpRequest: req,
					httpResponse: res,
				} as IWorkflowExecuteAdditionalData;
				const isTest = setup.mode === 'manual';
				const context = new WebhookContext(
					rig.workflow,
					rig.node,
					additionalData,
					setup.mode ?? 'webhook',
					{ ...rig.webhookData(isTest), workflowExecuteAdditionalData: additionalData },
					[],
					null,
				);
				try {
					call.result = await rig.nodeType.webhook!.call(context);
				} catch (error) {
					call.error = error as Error;
				}
				if (!rawRes.writableEnded) {
					if (call.error) res.status(500).json({ code: 0, message: call.error.message });
					else if (call.result?.noWebhookResponse === true)
						res.status(500).json({ message: 'noWebhookResponse without a response' });
					else if (call.result?.workflowData === undefined)
						res
							.status(200)
							.json(call.result?.webhookResponse ?? { message: 'Webhook call received' });
					else if (rig.webhookDescription.responseData === 'noData') rawRes.writeHead(200).end();
					else res.status(200).json({ message: 'Workflow was started' });
				}
			} catch (error) {
				call.error = error as Error;
				if (!rawRes.writableEnded) res.status(500).json({ message: 'harness error' });
			}
			call.status = rawRes.statusCode;
			call.responseBody = Buffer.concat(sent).toString('utf8');
			calls.push(call);
			waiters = waiters.filter((w) => {
				if (calls.length >= w.n) w.resolve();
				return calls.length < w.n;
			});
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	const url = `http://127.0.0.1:${port}/webhook/${WEBHOOK_ID}/webhook`;

	const send = (body: string | Buffer, headers: Record<string, string>, query: string) =>
		new Promise<Omit<Answered, 'call'>>((resolve, reject) => {
			const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
			const req = http.request(
				url + query,
				{
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						...headers,
						'content-length': String(bytes.length),
					},
				},
				(res) => {
					readBytes(res).then(
						(data) =>
							resolve({
								status: res.statusCode ?? 0,
								contentType: res.headers['content-type'] ?? '',
								text: data.toString('utf8'),
							}),
						reject,
					);
				},
			);
			req.on('error', reject);
			req.end(bytes);
		});

	const server_: TriggerServer = {
		url,
		calls,
		async configure(next) {
			setup = next;
			rig = await buildTriggerRig(setup);
		},
		async post(body, headers = {}, query = '') {
			const before = calls.length;
			const answer = await send(body, headers, query);
			await server_.waitForCalls(before + 1);
			return { ...answer, call: calls[before] };
		},
		waitForCalls(n, ms = 5000) {
			if (calls.length >= n) return Promise.resolve();
			return new Promise<void>((resolve, reject) => {
				const timer = setTimeout(
					() => reject(new Error(`only ${calls.length} of ${n} webhook calls arrived`)),
					ms,
				);
				waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
			});
		},
		close() {
			server.closeAllConnections();
			return new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	return server_;
}

export interface TriggerServerInTests {
	readonly server: TriggerServer;
	/** n8n's log during the current test. */
	readonly logs: ReturnType<typeof captureLogs>;
	/** `expectRefusal` with this test's log: the status, the message and the logged reason. */
	refused(
		post: ReturnType<TriggerServer['post']>,
		status: number,
		message: string,
		reason: string,
	): Promise<void>;
}

/** A test file's trigger server: started before its tests and closed after them; n8n's log captured around each test. */
export function useTriggerServer(initial: TriggerSetup = {}): TriggerServerInTests {
	const state = {
		refused: (post, status, message, reason) =>
			expectRefusal(state.logs, post, { status, message, reason }),
	} as TriggerServerInTests & { server: TriggerServer; logs: ReturnType<typeof captureLogs> };
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

/** A test file's trigger in front of the Tenant API sandbox, for workflows that start from the trigger's output. */
export interface TriggerToSandbox {
	readonly sandbox: Sandbox;
	/** The engine harness, its Tenant API credential pointing at the sandbox. */
	readonly harness: Harness;
	readonly trigger: TriggerServer;
	/** What the trigger's webhook() returned for exactly `body`, signed with the secret (HMAC-SHA256 of the body). */
	deliver(body: string): Promise<INodeExecutionData[][]>;
}

/**
 * The sandbox, the harness and a trigger server with `secret` (default settings): started before the file's tests,
 * closed after them; the sandbox reset before each test.
 */
export function useTriggerToSandbox(secret: string): TriggerToSandbox {
	const state = {
		async deliver(body: string) {
			const { status, call } = await state.trigger.post(body, {
				'content-type': 'application/json',
				...sign({ secret, body }),
			});
			expect(status).toBe(200);
			return call.result!.workflowData as INodeExecutionData[][];
		},
	} as TriggerToSandbox & { sandbox: Sandbox; harness: Harness; trigger: TriggerServer };
	beforeAll(async () => {
		state.sandbox = await startSandbox();
		state.harness = await createHarness(sandboxCredential(state.sandbox.baseUrl));
		state.trigger = await startTriggerServer({ credential: webhookCredential(secret) });
	});
	afterAll(async () => {
		await state.trigger.close();
		await state.sandbox.close();
	});
	beforeEach(() => state.sandbox.reset());
	return state;
}

/** Records what nodes log through n8n's Logger (the one `this.logger` returns) until `restore()`. */
export function captureLogs(): { entries: LogEntry[]; text(): string; restore(): void } {
	const logger = Container.get(Logger);
	const entries: LogEntry[] = [];
	const levels = ['error', 'warn', 'info', 'debug'] as const;
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

/** The bodies of the items a call started (without the trigger's `webhookDelivery`). */
export function startedBodies(call: WebhookCall): IDataObject[] {
	return startedItems(call).map(withoutDelivery);
}

/** The `webhookDelivery` of the first item a call started ({} when there is none). */
export function deliveryOf(call: WebhookCall): IDataObject {
	return (call.result!.workflowData![0][0].json.webhookDelivery ?? {}) as IDataObject;
}

/**
 * A refusal: the status and message, nothing started, the reason in the log (when given), and none of
 * `mustNotShow` (secrets) in the answer or the log.
 */
export async function expectRefusal(
	logs: ReturnType<typeof captureLogs>,
	post: Promise<{ status: number; text: string; call: WebhookCall }>,
	expected: { status: number; message: string; reason?: string; mustNotShow?: string[] },
): Promise<void> {
	const { status, text, call } = await post;
	expect(status).toBe(expected.status);
	expect(JSON.parse(text)).toEqual({ message: expected.message });
	expect(call.result).toEqual({ noWebhookResponse: true });
	expect(startedBodies(call)).toEqual([]);
	if (expected.reason)
		expect(logs.entries.map((e) => (e.metadata as IDataObject | undefined)?.reason)).toContain(
			expected.reason,
		);
	for (const secret of expected.mustNotShow ?? []) {
		expect(text).not.toContain(secret);
		expect(logs.text()).not.toContain(secret);
	}
}
