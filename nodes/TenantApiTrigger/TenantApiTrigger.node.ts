import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { TenantWebhookApi } from '../../credentials/TenantWebhookApi.credentials';
import { TRIGGER_NODE_NAME } from '../shared/webhookDelivery';

import { properties } from './description';
import type { Evidence } from './diagnosis';
import { diagnose } from './diagnosis';
import type { HeaderBag } from './headers';
import type { Decision, ReceivedRequest, Refusal } from './receive';
import { receiveDelivery, refusal } from './receive';
import { admitRefusal } from './refusalRecords';
import type { NodeSettings } from './settings';
import { readSettings, savedVerification, usableSecret } from './settings';
import { signedUrl } from './url';

/** The credential's type (the description names it too: n8n's linter checks the name there). */
const WEBHOOK_CREDENTIAL = new TenantWebhookApi().name;

/** n8n's response mode for the Respond parameter, evaluated by n8n for each request. */
const RESPONSE_MODE = '={{ $parameter["respond"] === "whenFinished" ? "lastNode" : "onReceived" }}';

/**
 * The exact request bytes as n8n's body reader captured them (read now if not read yet). Undefined
 * when n8n consumed the stream itself (multipart/form-data, which it parses before the node runs)
 * or reading failed.
 */
async function readRawBody(
	req: ReturnType<IWebhookFunctions['getRequestObject']>,
): Promise<Buffer | undefined> {
	try {
		if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function')
			await req.readRawBody();
	} catch {
		return undefined;
	}
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
}

/**
 * n8n's public URL of this webhook: the Test URL while the editor listens (n8n 2.x), else the
 * Production URL.
 */
function webhookUrl(context: IWebhookFunctions): string | undefined {
	const withTest = context as IWebhookFunctions & {
		getWebhookResourceUrl?: (name: 'default') => string | undefined;
	};
	return typeof withTest.getWebhookResourceUrl === 'function'
		? withTest.getWebhookResourceUrl('default')
		: context.getNodeWebhookUrl('default');
}

/**
 * The request as n8n hands it over, the decision on it, and what a refusal is explained from.
 * Never throws: n8n failing to give the request, or a defect in reading it, is refused (the flow's
 * one catch-all).
 */
async function judge(
	context: IWebhookFunctions,
	{ settings }: NodeSettings,
	testUrl: boolean,
	nowSeconds: number,
): Promise<{ decision: Decision; evidence: Evidence }> {
	let request: ReceivedRequest = { headers: {}, query: {}, nowSeconds };
	let decision: Decision;
	try {
		const req = context.getRequestObject();
		const signed = 'failure' in settings ? undefined : settings.signedUrl;
		request = {
			headers: context.getHeaderData() as HeaderBag,
			rawBody: await readRawBody(req),
			query: context.getQueryData() as IDataObject,
			// Only a Verification that shows Signed URL can sign `{url}`: no other request pays for it.
			url:
				signed === undefined
					? undefined
					: signedUrl(webhookUrl(context), signed, req.originalUrl ?? req.url ?? ''),
			nowSeconds,
		};
		decision =
			'failure' in settings ? refusal(settings.failure) : receiveDelivery(settings, request);
	} catch {
		decision = refusal('internal_error');
	}
	const { headers, rawBody } = request;
	return {
		decision,
		evidence: { settings, headers, bodyBytes: rawBody?.length ?? 0, testUrl, nowSeconds },
	};
}

/**
 * Answers the request now (n8n then sends nothing of its own: the caller returns
 * `noWebhookResponse`).
 */
function send(context: IWebhookFunctions, status: number, message?: string): void {
	const res = context.getResponseObject();
	const json = { 'content-type': 'application/json; charset=utf-8' };
	res.writeHead(status, message === undefined ? {} : json);
	res.end(message === undefined ? undefined : JSON.stringify({ message }));
}

/**
 * A refused delivery: the sender gets its answer, and nothing runs from the main output. The
 * Refused output carries the diagnosis at the Test URL (the editor shows it), and in production
 * with Record Refused Deliveries, at most once per reason and window (refusalRecords.ts). The log
 * holds the same diagnosis.
 */
function refuseDelivery(
	context: IWebhookFunctions,
	refused: Refusal,
	evidence: Evidence,
	recordRefusals: boolean,
): IWebhookResponseData {
	const node = context.getNode().name;
	const workflowId = context.getWorkflow().id ?? '';
	const diagnosis = diagnose(refused, evidence);
	// A setting no delivery can pass (or n8n failing the node) is an error in the log; a refused
	// delivery a warning.
	const level =
		refused.reason === 'unknown_verification' || refused.reason === 'internal_error'
			? 'error'
			: 'warn';
	context.logger[level](`Tenant API Trigger refused a delivery: ${String(diagnosis.summary)}`, {
		reason: refused.reason,
		node,
		workflowId,
		verification: String(savedVerification(evidence.settings)),
	});
	send(context, refused.status, refused.message);
	if (!evidence.testUrl) {
		if (!recordRefusals) return { noWebhookResponse: true };
		const decision = admitRefusal(workflowId, node, refused.reason, evidence.nowSeconds * 1000);
		if (!decision.record) return { noWebhookResponse: true };
		diagnosis.unrecordedBefore = decision.unrecordedBefore;
	}
	return { noWebhookResponse: true, workflowData: [[], [{ json: diagnosis }]] };
}

export class TenantApiTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tenant API Trigger',
		name: TRIGGER_NODE_NAME,
		icon: { light: 'file:tenantApiTrigger.svg', dark: 'file:tenantApiTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["events"] ? "Events: " + $parameter["events"] : "All events" }}',
		description:
			'Starts the workflow when the Tenant API delivers a webhook, after verifying its signature',
		defaults: { name: 'Tenant API Trigger' },
		eventTriggerDescription: 'Waiting for a delivery to the Test URL',
		activationMessage: 'Deliveries to the Production URL now start this workflow.',
		inputs: [],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Verified', 'Refused'],
		credentials: [
			{
				name: 'tenantWebhookApi',
				required: true,
				testedBy: 'tenantWebhookApiTest',
				displayOptions: { hide: { verification: ['none'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// n8n answers only with lastNode (When the Workflow Finishes): 200 with an empty body when
				// the execution succeeded, 500 "Error in workflow" when it failed. Any other saved value
				// answers on receipt.
				responseMode: RESPONSE_MODE,
				// An empty body (n8n's default would send the text "firstEntryJson").
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties,
	};

	methods = {
		credentialTest: {
			// Nothing can be called with a signing secret: check it locally, say what will happen.
			async tenantWebhookApiTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const data = credential.data ?? {};
				if (usableSecret(data.signingSecret) === undefined)
					return { status: 'Error', message: 'The Signing Secret is empty' };
				const also = [
					...(usableSecret(data.previousSigningSecret) ? ['the previous secret'] : []),
					...(usableSecret(data.testSigningSecret) ? ['the test secret (Test URL only)'] : []),
				];
				return {
					status: 'OK',
					message: `The Signing Secret${also.length > 0 ? ` and ${also.join(' and ')} are` : ' is'} set. Each delivery is checked when it arrives; a refused one is answered 401, and the trigger's Refused output says why (at the Test URL, and in production with Options → Record Refused Deliveries).`,
				};
			},
		},
	};

	// The service has no API for webhooks: they are created in its dashboard, so there is nothing to
	// check, create or delete remotely. These methods only log what the user has to do by hand.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				this.logger.debug(
					'Tenant API Trigger: webhooks are registered in the service dashboard; nothing to check',
					{ node: this.getNode().name },
				);
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				this.logger.info(
					'Tenant API Trigger: register this URL in the service dashboard (Webhook URL → Generate) and put the secret into the credential',
					{ node: this.getNode().name, url: this.getNodeWebhookUrl('default') },
				);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				this.logger.info(
					'Tenant API Trigger: deactivated; remove the webhook in the service dashboard if it should stop sending',
					{ node: this.getNode().name },
				);
				return true;
			},
		},
	};

	/**
	 * Every answer but one is sent here, at once: refusals, filtered-out events, and verified
	 * deliveries with Respond On Receipt (200, empty). With Respond When the Workflow Finishes, n8n
	 * answers once the workflow ends.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// n8n runs the editor's Test URL in manual mode, production webhooks in webhook mode.
		const testUrl = this.getMode() === 'manual';
		const nowSeconds = Math.floor(Date.now() / 1000);
		const node = await readSettings(
			{
				read: (name, fallback) => this.getNodeParameter(name, fallback as never),
				credential: async () =>
					this.getNode().credentials?.[WEBHOOK_CREDENTIAL] === undefined
						? undefined
						: await this.getCredentials<IDataObject>(WEBHOOK_CREDENTIAL),
			},
			testUrl,
		);
		const { decision, evidence } = await judge(this, node, testUrl, nowSeconds);
		if (decision.action === 'refuse')
			return refuseDelivery(this, decision, evidence, node.recordRefusals);
		if (decision.action === 'acknowledge') {
			this.logger.debug('Tenant API Trigger: delivery acknowledged but filtered out', {
				node: this.getNode().name,
				event: decision.event ?? null,
			});
			send(this, 200);
			return { noWebhookResponse: true };
		}
		const workflowData = [[{ json: decision.item }], []];
		if (node.respondWhenFinished) return { workflowData };
		send(this, 200);
		return { noWebhookResponse: true, workflowData };
	}
}
