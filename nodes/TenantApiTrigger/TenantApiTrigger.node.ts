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

import { properties } from './description';
import type { TriggerSettings } from './receive';
import { receiveDelivery } from './receive';
import type { ParameterReader, VerificationName } from './scheme';
import { isVerificationName, settingsFromParameters, signingSecrets } from './scheme';
import { signedUrl } from './url';
import type { HeaderBag } from './verification';
import { usableSecrets } from './verification';

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

/** Whether n8n runs this webhook for the editor's Test URL (it runs test webhooks in manual mode). */
function isTestDelivery(context: IWebhookFunctions): boolean {
	return context.getMode() === 'manual';
}

/**
 * The credential's secrets (signingSecrets), or why there are none: no credential selected is a set-up error
 * (refused like a bad signature); a selected one that cannot be read now (e.g. the database is busy) is temporary
 * (503: the sender retries).
 */
async function readSigningSecrets(context: IWebhookFunctions): Promise<unknown[] | { status: 401 | 503; reason: string; error: string }> {
	try {
		return signingSecrets(await context.getCredentials(WEBHOOK_CREDENTIAL_TYPE), isTestDelivery(context));
	} catch (error) {
		const selected = context.getNode().credentials?.[WEBHOOK_CREDENTIAL_TYPE] !== undefined;
		return { status: selected ? 503 : 401, reason: selected ? 'credential_unavailable' : 'no_credential_selected', error: (error as Error).message };
	}
}

/** The trigger's settings from its parameters and the credential's secrets. */
function triggerSettings(context: IWebhookFunctions, verification: VerificationName, secrets: unknown[]): TriggerSettings {
	const read: ParameterReader = (name, fallback) => context.getNodeParameter(name, fallback as never);
	return settingsFromParameters(verification, read, secrets);
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
				if (usableSecrets([data.signingSecret]).length === 0) return { status: 'Error', message: 'The Signing Secret is empty' };
				const also = [
					usableSecrets([data.previousSigningSecret]).length > 0 ? 'the previous secret' : '',
					usableSecrets([data.testSigningSecret]).length > 0 ? 'the test secret (Test URL only)' : '',
				].filter((name) => name !== '');
				return {
					status: 'OK',
					message: `The Signing Secret${also.length > 0 ? ` and ${also.join(' and ')} are` : ' is'} set. Each delivery is checked when it arrives; a refused one is answered 401 and logged with its reason.`,
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

		try {
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
			const secrets = verification === 'none' ? [] : await readSigningSecrets(this);
			if (!Array.isArray(secrets)) {
				log(secrets.reason, { error: secrets.error });
				return secrets.status === 503 ? respond(this, 503, 'Temporarily unable to verify the delivery') : respond(this, 401, INVALID_SIGNATURE);
			}
			const settings = triggerSettings(this, verification, secrets);
			const reception = receiveDelivery(settings, {
				rawBody: await readRawBody(this),
				headers: this.getHeaderData() as HeaderBag,
				query: this.getQueryData() as IDataObject,
				url: settings.config.mode === 'hmac' ? signedUrl(this, this.getNodeParameter('signedUrl', '')) : undefined,
				nowSeconds: Math.floor(Date.now() / 1000),
			});
			if (reception.action === 'refuse') {
				log(reception.reason, { verification });
				return respond(this, reception.status, reception.message);
			}
			if (reception.action === 'acknowledge') {
				this.logger.debug('Tenant API Trigger: delivery acknowledged but filtered out', { node, workflowId, event: reception.event ?? null });
				return {};
			}
			if (reception.secretIndex === 1) {
				this.logger.debug('Tenant API Trigger: delivery verified with the previous signing secret', { node, workflowId });
			}
			return { workflowData: [[{ json: reception.json }]] };
		} catch (error) {
			// receiveDelivery never throws: this is n8n failing to give the request or the settings. Nothing was verified.
			this.logger.error('Tenant API Trigger could not process a delivery', { node, workflowId, error: (error as Error).message });
			return respond(this, 401, INVALID_SIGNATURE);
		}
	}
}
