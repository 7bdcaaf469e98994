import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventAccepted, eventType, parseEventList, parseJsonBody, safeHeaders } from './delivery';
import { properties } from './description';
import type { VerificationConfig, VerificationMode } from './verification';
import { verifyDelivery } from './verification';

interface RequestWithRawBody {
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
}

interface JsonResponse {
	status(code: number): JsonResponse;
	json(body: IDataObject): unknown;
}

/** Answers the request directly and tells n8n not to answer again and not to start the workflow. */
function respond(context: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const res = context.getResponseObject() as unknown as JsonResponse;
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

/** The exact request bytes as n8n's body reader captured them (read now if not read yet). */
async function readRawBody(context: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = context.getRequestObject() as unknown as RequestWithRawBody;
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') await req.readRawBody();
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
}

function stringParameter(context: IWebhookFunctions, name: string, fallback: string): string {
	const value = context.getNodeParameter(name, fallback);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

export class TenantApiTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tenant API Trigger',
		name: 'tenantApiTrigger',
		icon: { light: 'file:tenantApiTrigger.svg', dark: 'file:tenantApiTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["events"] ? "Events: " + $parameter["events"] : "All events" }}',
		description: 'Starts the workflow when the Tenant API delivers a webhook, after verifying its signature',
		defaults: { name: 'Tenant API Trigger' },
		eventTriggerDescription: 'Waiting for a delivery to the Test URL',
		activationMessage: 'Deliveries to the Production URL now start this workflow.',
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'tenantApi',
				required: true,
				displayOptions: { show: { verification: ['hmacSha256', 'hmacSha512', 'secretHeader'] } },
			},
		],
		// 'noData': answer 200 with an empty body (n8n's default for onReceived would send the text "firstEntryJson").
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: 'noData', path: 'webhook' }],
		properties,
	};

	// The service has no API for webhooks: they are created in its dashboard, so there is nothing to
	// check, create or delete remotely. These methods only log what the user has to do by hand.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				this.logger.debug('Tenant API Trigger: webhooks are registered in the service dashboard; nothing to check', {
					node: this.getNode().name,
				});
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

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const node = this.getNode().name;
		const workflowId = this.getWorkflow().id;
		const log = (reason: string, extra: IDataObject = {}) =>
			this.logger.warn('Tenant API Trigger refused a delivery', { reason, node, workflowId, ...extra });

		try {
			const mode = this.getNodeParameter('verification', 'hmacSha256') as VerificationMode;
			const rawBody = await readRawBody(this);
			if (rawBody === undefined) {
				log('raw_body_unavailable');
				return respond(this, 400, 'Could not read the request body');
			}
			const headers = this.getHeaderData() as Record<string, string | string[] | undefined>;
			const secretHeader = stringParameter(this, 'sharedKeyHeader', 'x-webhook-secret');

			if (mode !== 'none') {
				let secrets: string[] = [];
				try {
					const credentials = await this.getCredentials('tenantApi');
					secrets = [credentials.webhookSecret, credentials.previousWebhookSecret].filter(
						(s): s is string => typeof s === 'string',
					);
				} catch (error) {
					// No credential selected is a set-up error (refuse like a bad signature). A selected one that
					// cannot be read now (e.g. the database is busy) is temporary: 503 lets the sender retry.
					const selected = this.getNode().credentials?.tenantApi !== undefined;
					log(selected ? 'credential_unavailable' : 'no_credential_selected', { error: (error as Error).message });
					return selected
						? respond(this, 503, 'Temporarily unable to verify the delivery')
						: respond(this, 401, 'Invalid signature');
				}
				const config: VerificationConfig = {
					mode,
					secrets,
					signatureHeader: stringParameter(this, 'signatureHeader', 'x-signature'),
					secretHeader,
					useTimestamp: this.getNodeParameter('useTimestamp', false) === true,
					timestampHeader: stringParameter(this, 'timestampHeader', 'x-timestamp'),
					toleranceSeconds: Number(this.getNodeParameter('toleranceSeconds', 300)),
				};
				const result = verifyDelivery(config, { rawBody, headers, nowSeconds: Math.floor(Date.now() / 1000) });
				if (!result.ok) {
					log(result.reason, { verification: mode });
					return respond(this, 401, 'Invalid signature');
				}
				if (result.secretIndex === 1) {
					this.logger.debug('Tenant API Trigger: delivery verified with the previous webhook secret', { node, workflowId });
				}
			}

			const parsed = parseJsonBody(rawBody);
			if (!parsed.ok) {
				log(parsed.reason);
				const message = { empty_body: 'Empty body', not_utf8: 'Body must be UTF-8 JSON' }[parsed.reason as string];
				return respond(this, 400, message ?? 'Body must be a JSON object');
			}

			const options = this.getNodeParameter('options', {}) as IDataObject;
			const type = eventType(parsed.body, typeof options.eventPath === 'string' ? options.eventPath : 'event');
			const accepted = parseEventList(this.getNodeParameter('events', '') as string);
			if (!eventAccepted(accepted, type)) {
				this.logger.debug('Tenant API Trigger: delivery acknowledged but filtered out', { node, workflowId, event: type ?? null });
				return {};
			}

			const json: IDataObject = { ...parsed.body };
			if (options.includeHeaders === true) json.webhookHeaders = safeHeaders(headers, [secretHeader]);
			if (options.includeQuery === true) json.webhookQuery = { ...(this.getQueryData() as IDataObject) };
			return { workflowData: [[{ json }]] };
		} catch (error) {
			this.logger.error('Tenant API Trigger could not process a delivery', { node, workflowId, error: (error as Error).message });
			return respond(this, 500, 'Could not process the delivery');
		}
	}
}
