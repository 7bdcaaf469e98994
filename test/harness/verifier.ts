/**
 * The product's verifier with the settings the trigger builds for a sandbox signing scheme (sandbox/signing.js
 * `triggerParameters`): how tests and the benchmark check what the sandbox signs. Pure modules, no n8n.
 */
import type { IDataObject } from 'n8n-workflow';

import { WEBHOOK_DELIVERY_FIELD } from '../../nodes/shared/webhookDelivery';
import type { ParameterReader } from '../../nodes/TenantApiTrigger/settings';
import { verificationConfig } from '../../nodes/TenantApiTrigger/settings';
import type { SignaturePassed, VerificationConfig } from '../../nodes/TenantApiTrigger/verifier';
import { readDelivery } from '../../nodes/TenantApiTrigger/verifier';
import type { SigningScheme } from '../../sandbox/signing';
import { triggerParameters } from '../../sandbox/signing';

/** Reads node parameters from a plain object; what it lacks takes the node's default. */
export const parameterReader =
	(parameters: Record<string, unknown>): ParameterReader =>
	(name, fallback) =>
		parameters[name] === undefined ? fallback : parameters[name];

/** The verifier configuration of the trigger set up for `scheme` (`parameters` override its settings). */
export function configForScheme(
	scheme: SigningScheme,
	secrets: string[],
	parameters: Record<string, unknown> = {},
): VerificationConfig {
	const { verification, ...settings } = { ...triggerParameters(scheme), ...parameters };
	return verificationConfig(verification as never, parameterReader(settings), secrets);
}

export interface ReceivedDelivery {
	body: Buffer | string;
	headers: Record<string, unknown>;
	/** The full URL the sender signed against (Square, Twilio), query included. */
	url?: string;
	/** Seconds; now by default. */
	now?: number;
}

/**
 * Reads a delivery as the trigger does (verified, Content-Type checked, body read): the verification result when it
 * can be read, else `ok: false` with the reason (a verification reason, `unsupported_media_type` or a body reason).
 */
export function verifyReceived(
	config: VerificationConfig,
	delivery: ReceivedDelivery,
): Partial<Omit<SignaturePassed, 'ok' | 'reason'>> & { ok: boolean; reason: string } {
	const reading = readDelivery(config, {
		rawBody: Buffer.from(delivery.body),
		headers: delivery.headers as Record<string, string>,
		nowSeconds: delivery.now ?? Math.floor(Date.now() / 1000),
		url: delivery.url,
	});
	return reading.ok ? reading.check : { ok: false, reason: reading.reason };
}

/** The query string of a request path (`/hook?a=1` → `?a=1`), to rebuild the URL a sender signed. */
export const queryOf = (path: string) => (path.includes('?') ? path.slice(path.indexOf('?')) : '');

/** An output item's body: its fields without the trigger's `webhookDelivery`. */
export function withoutDelivery(json: IDataObject): IDataObject {
	const body = { ...json };
	delete body[WEBHOOK_DELIVERY_FIELD];
	return body;
}
