/**
 * The product's delivery flow with the settings the trigger builds for a sandbox signing scheme (sandbox/signing.js
 * `triggerParameters`): how tests and the benchmark check what the sandbox signs. Pure modules, no n8n.
 */
import type { IDataObject } from 'n8n-workflow';

import { WEBHOOK_DELIVERY_FIELD } from '../../nodes/shared/webhookDelivery';
import type { Decision } from '../../nodes/TenantApiTrigger/receive';
import { receiveDelivery } from '../../nodes/TenantApiTrigger/receive';
import type { ParameterReader, TriggerSettings } from '../../nodes/TenantApiTrigger/settings';
import { settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import type { VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import type { SigningScheme } from '../../sandbox/signing';
import { triggerParameters } from '../../sandbox/signing';

/** Reads node parameters from a plain object; what it lacks takes the node's default. */
export const parameterReader =
	(parameters: Record<string, unknown>): ParameterReader =>
	(name, fallback) =>
		parameters[name] === undefined ? fallback : parameters[name];

/** The trigger's settings for node parameters (`verification` among them) and the credential's secrets. */
export function triggerSettings(
	parameters: Record<string, unknown>,
	secrets: unknown[],
): TriggerSettings {
	const { verification, ...rest } = parameters;
	return settingsFromParameters(verification as VerificationName, parameterReader(rest), {
		accepted: secrets,
		all: secrets,
	});
}

/** The trigger's settings for `scheme` (`parameters` override its settings). */
export function settingsForScheme(
	scheme: SigningScheme,
	secrets: string[],
	parameters: Record<string, unknown> = {},
): TriggerSettings {
	return triggerSettings({ ...triggerParameters(scheme), ...parameters }, secrets);
}

export interface ReceivedDelivery {
	body: Buffer | string;
	headers: Record<string, unknown>;
	/** The full URL the sender signed against (`{url}`), query included. */
	url?: string;
	query?: IDataObject;
	/** Seconds; now by default. */
	now?: number;
}

/** What the trigger decides for a delivery under `settings`. */
export function receive(settings: TriggerSettings, delivery: ReceivedDelivery): Decision {
	return receiveDelivery(settings, {
		rawBody: Buffer.from(delivery.body),
		headers: delivery.headers as Record<string, string>,
		query: delivery.query ?? {},
		url: delivery.url,
		nowSeconds: delivery.now ?? Math.floor(Date.now() / 1000),
	});
}

/** The query string of a request path (`/hook?a=1` → `?a=1`), to rebuild the URL a sender signed. */
export const queryOf = (path: string) => (path.includes('?') ? path.slice(path.indexOf('?')) : '');

/** An output item's body: its fields without the trigger's `webhookDelivery`. */
export function withoutDelivery(json: IDataObject): IDataObject {
	const body = { ...json };
	delete body[WEBHOOK_DELIVERY_FIELD];
	return body;
}
