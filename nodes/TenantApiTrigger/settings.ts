import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_EVENT_PATH, parseEventList } from './delivery';
import type { TriggerSettings } from './receive';
import type {
	BodyFormat,
	HmacAlgorithm,
	PresetName,
	SchemeSpec,
	SecretEncoding,
	SignatureEncoding,
	SignatureFormat,
	VerificationConfig,
} from './verifier';
import {
	DEFAULT_TOLERANCE_SECONDS,
	PRESETS,
	headerNames,
	isPresetName,
	usableSecrets,
} from './verifier';
import type { VerificationName, VerificationSetting } from './verifications';
import { verificationOf } from './verifications';

/** Reads one node parameter (already resolved); `fallback` when it is not set. */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

function text(read: ParameterReader, name: string, fallback: string): string {
	const value = read(name, fallback);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/** A header setting (names separated by commas); the fallback when it names none, so the verifier and the output read the same names. */
function headers(read: ParameterReader, name: string, fallback: string): string {
	const value = text(read, name, fallback);
	return headerNames(value).length > 0 ? value : fallback;
}

function tolerance(read: ParameterReader): number {
	const value = Number(read('toleranceSeconds', DEFAULT_TOLERANCE_SECONDS));
	return Number.isFinite(value) && value > 0 ? value : DEFAULT_TOLERANCE_SECONDS;
}

/** The Body Format setting of a Verification that shows one (verifications.ts), its default when unset. */
function bodyFormat(read: ParameterReader, name: VerificationName): BodyFormat {
	const fallback = verificationOf(name).bodyFormat ?? 'json';
	const value = read('bodyFormat', fallback);
	return value === 'form' || value === 'json' ? value : fallback;
}

/** Comma-separated dot paths (`a.b, c`), blanks dropped. */
export function pathList(value: unknown): string[] {
	return typeof value === 'string'
		? value
				.split(',')
				.map((p) => p.trim())
				.filter((p) => p !== '')
		: [];
}

/** The Custom HMAC settings as a scheme: every field of a preset has a setting, so every preset can be written here. */
export function customScheme(read: ParameterReader): SchemeSpec {
	// Unlike the other fields, an empty label or separator can be meant: read them as typed.
	const raw = (name: string, fallback: string) => {
		const value = read(name, fallback);
		return typeof value === 'string' ? value.trim() : fallback;
	};
	return {
		bodyFormat: bodyFormat(read, 'customHmac'),
		algorithm: text(read, 'customAlgorithm', 'sha256') as HmacAlgorithm,
		secretEncoding: text(read, 'customSecretEncoding', 'text') as SecretEncoding,
		signedContent: raw('customSignedContent', '{timestamp}.{body}'),
		signatureIn: read('customSignatureIn', 'header') === 'items' ? 'items' : 'header',
		signatureHeader: headers(read, 'customSignatureHeader', 'x-signature'),
		signatureFormat: text(read, 'customSignatureFormat', 'plain') as SignatureFormat,
		signatureEncoding: text(read, 'customSignatureEncoding', 'auto') as SignatureEncoding,
		signatureLabel: raw('customSignatureLabel', 'v1'),
		pairSeparator: raw('customPairSeparator', ',') || ',',
		timestampKey: text(read, 'customTimestampKey', 't'),
		idHeader: headers(read, 'customIdHeader', 'webhook-id'),
		timestampHeader: headers(read, 'customTimestampHeader', 'x-timestamp'),
		toleranceSeconds: tolerance(read),
		itemsPath: text(read, 'customItemsPath', 'notificationItems.*.NotificationRequestItem'),
		itemSignaturePath: text(read, 'customItemSignaturePath', 'additionalData.hmacSignature'),
		itemFieldTypes: {},
		bodyKeys: [],
		itemIdFields: [],
		itemsOutput: 'signedFields',
		bodyHashParameter: raw('customBodyHashParameter', ''),
		idFields: ['id'],
	};
}

/** An HMAC preset with the settings the node shows for it (verifications.ts) applied. */
function presetScheme(name: VerificationName & PresetName, read: ParameterReader): SchemeSpec {
	const preset = { ...PRESETS[name] };
	const shows = (setting: VerificationSetting) => verificationOf(name).settings.includes(setting);
	if (shows('bodyFormat')) preset.bodyFormat = bodyFormat(read, name);
	if (shows('signatureHeader'))
		preset.signatureHeader = headers(read, 'signatureHeader', preset.signatureHeader);
	if (shows('useTimestamp') && read('useTimestamp', false) === true) {
		preset.signedContent = `{timestamp}.${preset.signedContent}`;
		preset.timestampHeader = headers(read, 'timestampHeader', 'x-timestamp');
	}
	preset.toleranceSeconds = tolerance(read);
	return preset;
}

/** The verifier's configuration for the node's settings and the secrets of its credential. */
export function verificationConfig(
	name: VerificationName,
	read: ParameterReader,
	secrets: unknown[],
): VerificationConfig {
	if (isPresetName(name)) return { mode: 'hmac', scheme: presetScheme(name, read), secrets };
	if (name === 'customHmac') return { mode: 'hmac', scheme: customScheme(read), secrets };
	if (name === 'none') return { mode: 'none', bodyFormat: bodyFormat(read, name) };
	return {
		mode: 'secretHeader',
		secrets,
		secretHeader: headers(read, 'sharedKeyHeader', 'x-webhook-secret'),
		bodyFormat: bodyFormat(read, name),
	};
}

/**
 * The trigger's settings from its parameters (as n8n resolves them), the secrets this delivery may be signed with
 * (signingSecrets) and every secret of the credential (kept out of the output).
 */
export function settingsFromParameters(
	verification: VerificationName,
	read: ParameterReader,
	secrets: unknown[],
	credentialSecrets: unknown[],
): TriggerSettings {
	const options = (read('options', {}) ?? {}) as IDataObject;
	return {
		verification,
		config: verificationConfig(verification, read, secrets),
		credentialSecrets,
		events: parseEventList(read('events', '') as string),
		eventPath: typeof options.eventPath === 'string' ? options.eventPath : DEFAULT_EVENT_PATH,
		idFields: pathList(options.idFields),
		includeHeaders: options.includeHeaders === true,
		includeQuery: options.includeQuery === true,
		...(verificationOf(verification).handshake === undefined
			? {}
			: { handshake: verificationOf(verification).handshake }),
	};
}

/** Every secret of a Tenant Webhook API credential, in the order of SECRET_NAMES, as stored. */
export function credentialSecrets(credential: IDataObject): unknown[] {
	return [credential.signingSecret, credential.previousSigningSecret, credential.testSigningSecret];
}

/**
 * The secrets a delivery may be signed with, in the places of SECRET_NAMES (the verifier skips blank ones, and
 * `webhookDelivery.secret` names the place that matched): at the Production URL the current and the previous secret;
 * at the Test URL the test secret alone when it is set (so that a captured production delivery cannot be replayed
 * there), else the same two as in production.
 */
export function signingSecrets(credential: IDataObject, testDelivery: boolean): unknown[] {
	const [current, previous, test] = credentialSecrets(credential);
	if (testDelivery && usableSecrets([test]).length > 0) return [undefined, undefined, test];
	return [current, previous];
}
