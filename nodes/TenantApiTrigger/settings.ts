/**
 * The node's parameters and credential, each read once for a request: the settings a delivery is
 * checked and read under. A blank parameter, or one not of its type, takes the default the node
 * shows for it (description.ts); each row of VERIFICATIONS makes its Verification of the values.
 */
import type { IDataObject } from 'n8n-workflow';

import type { BodyFormat } from './body';
import { properties } from './description';
import { DEFAULT_EVENT_PATH } from './identity';
import type { Verification, VerificationName } from './verifications';
import { VERIFICATIONS, isVerificationName } from './verifications';

export interface TriggerSettings {
	verification: Verification;
	bodyFormat: BodyFormat;
	/** The secrets a delivery may be signed with, in the places of SECRET_NAMES. */
	acceptedSecrets: unknown[];
	/**
	 * Every secret of the credential, trimmed, blank ones left out: none may reach the output.
	 * Undefined when no credential was read (None).
	 */
	credentialSecrets?: string[];
	/** Accepted event types (empty: all). */
	events: string[];
	eventPath: string;
	/** Delivery ID Fields (empty: none). */
	idFields: string[];
	includeHeaders: boolean;
	includeQuery: boolean;
	/** Signed URL, where the Verification shows it ('': the webhook's own URL). */
	signedUrl?: string;
}

/** Reads one node parameter (as n8n resolved it); `fallback` when it is not set. */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

/** A secret as it is used: trimmed text, or undefined when it is blank or not text. */
export function usableSecret(secret: unknown): string | undefined {
	const text = typeof secret === 'string' ? secret.trim() : '';
	return text === '' ? undefined : text;
}

/** A setting that lists values: separated by commas (or `separators`), trimmed, blanks dropped. */
const listOf = (value: unknown, separators = /,/) =>
	(typeof value === 'string' ? value.split(separators) : []).flatMap((entry) => entry.trim() || []);

/** The header names of a setting that may list several, in lower case. */
export const headerNames = (setting: string) => listOf(setting).map((name) => name.toLowerCase());

const usable = (secrets: unknown[]) => secrets.flatMap((secret) => usableSecret(secret) ?? []);

/** The default the node shows for each parameter. */
const DEFAULTS = new Map(properties.map((property) => [property.name, property.default]));

/**
 * The node's parameters as a row of VERIFICATIONS takes them: `text` trimmed, `typed` trimmed but
 * possibly empty, `headers` lower-case names, `seconds` above 0; where a value is blank or not of
 * its type, the default the node shows for it.
 */
function parametersOf(value: (name: string) => unknown) {
	const typed = (name: string) => {
		const read = value(name);
		return typeof read === 'string' ? read.trim() : String(DEFAULTS.get(name));
	};
	const text = (name: string) => typed(name) || String(DEFAULTS.get(name));
	return {
		text,
		typed,
		headers: (name: string) => {
			const names = headerNames(text(name));
			return names.length > 0 ? names : headerNames(String(DEFAULTS.get(name)));
		},
		flag: (name: string) => value(name) === true,
		seconds: (name: string) => {
			const read = Number(value(name));
			return Number.isFinite(read) && read > 0 ? read : Number(DEFAULTS.get(name));
		},
	};
}

export type Parameters = ReturnType<typeof parametersOf>;

/**
 * The trigger's settings from the node's parameters and the secrets of its credential: those a
 * delivery may be signed with, and all of them (secretsOf).
 */
export function settingsFromParameters(
	name: VerificationName,
	read: ParameterReader,
	secrets?: { accepted: unknown[]; all: unknown[] },
): TriggerSettings {
	const value = (parameter: string) => read(parameter, DEFAULTS.get(parameter));
	const { settings, verify } = VERIFICATIONS[name];
	const parameters = parametersOf(value);
	const options = (value('options') ?? {}) as IDataObject;
	return {
		verification: { name, ...verify(parameters) },
		bodyFormat: settings.includes('bodyFormat') && value('bodyFormat') === 'form' ? 'form' : 'json',
		acceptedSecrets: secrets?.accepted ?? [],
		credentialSecrets: secrets && usable(secrets.all),
		events: listOf(value('events'), /[,\n\r]+/),
		eventPath: typeof options.eventPath === 'string' ? options.eventPath : DEFAULT_EVENT_PATH,
		idFields: listOf(options.idFields),
		includeHeaders: options.includeHeaders === true,
		includeQuery: options.includeQuery === true,
		signedUrl: settings.includes('custom') ? parameters.typed('signedUrl') : undefined,
	};
}

/**
 * The credential's secrets in the places of SECRET_NAMES, and those a delivery may be signed
 * with: at the Production URL the current and the previous one; at the Test URL the test secret
 * alone once it is set (so a captured production delivery is not accepted there), else the same
 * two as in production.
 */
export function secretsOf(credential: IDataObject, testUrl: boolean) {
	const { signingSecret, previousSigningSecret, testSigningSecret: test } = credential;
	const all = [signingSecret, previousSigningSecret, test];
	const testAlone = testUrl && usableSecret(test) !== undefined;
	return { all, accepted: testAlone ? [undefined, undefined, test] : all.slice(0, 2) };
}

/** Why no delivery can be checked under the node's settings as they are. */
export type SettingsFailure =
	| 'unknown_verification'
	| 'no_credential_selected'
	| 'credential_unavailable'
	| 'internal_error';

/** Settings the node could not read whole: why, the Verification as saved, what else it read. */
export interface UnreadSettings {
	failure: SettingsFailure;
	saved: unknown;
	credentialSecrets?: string[];
}

/** The Verification setting as saved: a row's name, or a value this version does not offer. */
export const savedVerification = (settings: TriggerSettings | UnreadSettings): unknown =>
	'failure' in settings ? settings.saved : settings.verification.name;

/**
 * How the node reaches n8n (TenantApiTrigger.node.ts): a parameter (throws when n8n cannot give
 * it), and the credential (undefined when none is selected; throws when it cannot be read now).
 */
export interface NodeAccess {
	read: ParameterReader;
	credential(): Promise<IDataObject | undefined>;
}

export interface NodeSettings {
	settings: TriggerSettings | UnreadSettings;
	/** Respond: When the Workflow Finishes (else On Receipt). */
	respondWhenFinished: boolean;
	/** Options → Record Refused Deliveries. */
	recordRefusals: boolean;
}

async function settingsFor(read: ParameterReader, node: NodeAccess, testUrl: boolean) {
	let saved: unknown;
	try {
		saved = read('verification', DEFAULTS.get('verification'));
		// None reads no credential; a Verification this version does not offer reads it only to let
		// the Refused item name the request's headers. A temporary failure to read it is a 503.
		const credential =
			saved === 'none' ? undefined : await node.credential().catch(() => 'unavailable' as const);
		const secrets = typeof credential === 'object' ? secretsOf(credential, testUrl) : undefined;
		const unread = (failure: SettingsFailure): UnreadSettings => ({ failure, saved });
		if (!isVerificationName(saved))
			return {
				...unread('unknown_verification'),
				credentialSecrets: secrets && usable(secrets.all),
			};
		if (credential === 'unavailable') return unread('credential_unavailable');
		if (saved !== 'none' && secrets === undefined) return unread('no_credential_selected');
		return settingsFromParameters(saved, read, secrets);
	} catch {
		return { failure: 'internal_error' as const, saved };
	}
}

/**
 * Everything the node reads for a request at the Test URL or not, each parameter once. Never
 * throws: a Verification this version does not offer, a credential that cannot be read, or n8n
 * failing to give a parameter make settings that refuse every delivery. Respond and Record Refused
 * Deliveries take their defaults when n8n cannot give them.
 */
export async function readSettings(node: NodeAccess, testUrl: boolean): Promise<NodeSettings> {
	const values = new Map<string, unknown>();
	const read: ParameterReader = (name, fallback) => {
		if (!values.has(name)) values.set(name, node.read(name, fallback));
		return values.get(name);
	};
	const settings = await settingsFor(read, node, testUrl);
	const answer = (name: string) => {
		try {
			return read(name, DEFAULTS.get(name));
		} catch {
			return undefined;
		}
	};
	return {
		settings,
		respondWhenFinished: answer('respond') === 'whenFinished',
		recordRefusals: (answer('options') as IDataObject | undefined)?.recordRefusals === true,
	};
}
