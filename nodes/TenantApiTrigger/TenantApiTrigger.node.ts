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

import { bodyKind, mediaType, parseBody } from './body';
import { WEBHOOK_DELIVERY_FIELD, deliveryIdentity, eventAccepted, eventType, parseEventList, safeHeaders } from './delivery';
import { properties } from './description';
import type { ParameterReader } from './scheme';
import { deliveryIdFields, isVerificationName, verificationConfig } from './scheme';
import { signedUrl } from './url';
import type { HeaderBag } from './verification';
import { usableSecrets, verifyDelivery } from './verification';

const WEBHOOK_CREDENTIAL_TYPE = 'tenantWebhookApi';

/** n8n's response mode for the Respond parameter, evaluated by n8n for each request. */
const RESPONSE_MODE = '={{ $parameter["respond"] === "whenFinished" ? "lastNode" : "onReceived" }}';

interface RequestWithRawBody {
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
}

interface JsonResponse {
	status(code: number): JsonResponse;
	json(body: IDataObject): unknown;
}

const INVALID_SIGNATURE = 'Invalid signature';

/** The 400 answer for a verified body that cannot be read. */
function bodyMessage(kind: 'json' | 'form', reason: string): string {
	if (reason === 'empty_body') return 'Empty body';
	if (kind === 'form') return reason === 'not_utf8' ? 'Body must be UTF-8 form fields' : 'Body must be form fields (at most 1,000)';
	return reason === 'not_utf8' ? 'Body must be UTF-8 JSON' : 'Body must be a JSON object';
}

/** Answers the request directly and tells n8n not to answer again and not to start the workflow. */
function respond(context: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const res = context.getResponseObject() as unknown as JsonResponse;
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

/**
 * The exact request bytes as n8n's body reader captured them (read now if not read yet). Undefined when n8n
 * consumed the stream itself (multipart/form-data, which it parses before the node runs) or reading failed.
 */
async function readRawBody(context: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = context.getRequestObject() as unknown as RequestWithRawBody;
	try {
		if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') await req.readRawBody();
	} catch {
		return undefined;
	}
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
}

/**
 * The credential's secrets, or why there are none: no credential selected is a set-up error (refused like a bad
 * signature); a selected one that cannot be read now (e.g. the database is busy) is temporary (503: the sender
 * retries).
 */
async function readSigningSecrets(context: IWebhookFunctions): Promise<string[] | { status: 401 | 503; reason: string; error: string }> {
	try {
		const credentials = await context.getCredentials(WEBHOOK_CREDENTIAL_TYPE);
		return [credentials.signingSecret, credentials.previousSigningSecret].filter((s): s is string => typeof s === 'string');
	} catch (error) {
		const selected = context.getNode().credentials?.[WEBHOOK_CREDENTIAL_TYPE] !== undefined;
		return { status: selected ? 503 : 401, reason: selected ? 'credential_unavailable' : 'no_credential_selected', error: (error as Error).message };
	}
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
				// n8n answers: onReceived → 200 once webhook() returns; lastNode → 200 when the execution
				// succeeded, 500 "Error in workflow" when it failed. Any other saved value answers on receipt.
				responseMode: RESPONSE_MODE,
				// 200 with an empty body (n8n's default for onReceived would send the text "firstEntryJson").
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties,
	};

	methods = {
		credentialTest: {
			// Nothing can be called with a signing secret: check it locally, say what will happen.
			async tenantWebhookApiTest(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
				const data = credential.data ?? {};
				const secrets = usableSecrets([data.signingSecret, data.previousSigningSecret]);
				if (usableSecrets([data.signingSecret]).length === 0) return { status: 'Error', message: 'The Signing Secret is empty' };
				return {
					status: 'OK',
					message: `${secrets.length === 2 ? 'Both secrets are' : 'The secret is'} set. Each delivery is checked when it arrives; a refused one is answered 401 and logged with its reason.`,
				};
			},
		},
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

		let verified = false;
		try {
			const read: ParameterReader = (name, fallback) => this.getNodeParameter(name, fallback as never);
			const verification = this.getNodeParameter('verification', 'hmacSha256');
			if (!isVerificationName(verification)) {
				// E.g. saved by a newer version of this package: a set-up error, answered like a refusal (final, not 5xx).
				this.logger.error('Tenant API Trigger: unknown Verification setting; every delivery is refused until it is changed', {
					reason: 'unknown_verification',
					verification: String(verification),
					node,
					workflowId,
				});
				return respond(this, 401, INVALID_SIGNATURE);
			}
			const headers = this.getHeaderData() as HeaderBag;
			const type = mediaType(headers['content-type']);
			const rawBody = await readRawBody(this);
			if (rawBody === undefined) {
				log('raw_body_unavailable', { contentType: type });
				if (verification !== 'none') return respond(this, 401, INVALID_SIGNATURE);
				return bodyKind(type) === undefined ? respond(this, 415, 'Unsupported content type') : respond(this, 400, 'Could not read the request body');
			}

			const secrets = verification === 'none' ? [] : await readSigningSecrets(this);
			if (!Array.isArray(secrets)) {
				log(secrets.reason, { error: secrets.error });
				return secrets.status === 503 ? respond(this, 503, 'Temporarily unable to verify the delivery') : respond(this, 401, INVALID_SIGNATURE);
			}
			const config = verificationConfig(verification, read, secrets);
			const url = config.mode === 'hmac' ? signedUrl(this, read('signedUrl', '')) : undefined;
			const result = verifyDelivery(config, { rawBody, headers, nowSeconds: Math.floor(Date.now() / 1000), url, mediaType: type });
			if (!result.ok) {
				log(result.reason, { verification });
				return respond(this, 401, INVALID_SIGNATURE);
			}
			verified = true;
			if (result.secretIndex === 1) {
				this.logger.debug('Tenant API Trigger: delivery verified with the previous signing secret', { node, workflowId });
			}

			const kind = bodyKind(type);
			if (kind === undefined) {
				log('unsupported_media_type', { contentType: type });
				return respond(this, 415, 'Unsupported content type: send application/json or application/x-www-form-urlencoded');
			}
			const parsed = parseBody(kind, rawBody);
			if (!parsed.ok) {
				log(parsed.reason);
				return respond(this, 400, bodyMessage(kind, parsed.reason));
			}

			const options = this.getNodeParameter('options', {}) as IDataObject;
			const event = eventType(parsed.body, typeof options.eventPath === 'string' ? options.eventPath : 'event');
			if (!eventAccepted(parseEventList(this.getNodeParameter('events', '') as string), event)) {
				this.logger.debug('Tenant API Trigger: delivery acknowledged but filtered out', { node, workflowId, event: event ?? null });
				return {};
			}

			const json: IDataObject = { ...parsed.body };
			if (options.includeHeaders === true) json.webhookHeaders = safeHeaders(headers, [read('sharedKeyHeader', 'x-webhook-secret') as string]);
			if (options.includeQuery === true) json.webhookQuery = { ...(this.getQueryData() as IDataObject) };
			json[WEBHOOK_DELIVERY_FIELD] = deliveryIdentity(config, result, headers, parsed.body, deliveryIdFields(config, read), verification, kind);
			return { workflowData: [[{ json }]] };
		} catch (error) {
			this.logger.error('Tenant API Trigger could not process a delivery', { node, workflowId, verified, error: (error as Error).message });
			// Only a verified delivery may make the sender retry; anything else is refused.
			return verified ? respond(this, 500, 'Could not process the delivery') : respond(this, 401, INVALID_SIGNATURE);
		}
	}
}
