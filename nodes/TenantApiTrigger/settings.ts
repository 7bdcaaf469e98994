import type { IDataObject } from 'n8n-workflow';

import type { BodyFormat } from './body';
import { usableSecret } from './headers';
import { DEFAULT_EVENT_PATH, parseEventList, pathList } from './identity';
import type { Check, ParameterReader, SchemeName } from './schemes';
import { schemeOf } from './schemes';

/** The trigger's settings, as read from the node. */
export interface TriggerSettings {
	/** The Verification setting (reported in `webhookDelivery.verification`). */
	verification: SchemeName;
	check: Check;
	bodyFormat: BodyFormat;
	/** The secrets this delivery may be signed with (signingSecrets). */
	secrets: unknown[];
	/** Every secret of the credential, accepted here or not: none may reach the output. */
	credentialSecrets: unknown[];
	/** Accepted event types (empty: all). */
	events: string[];
	eventPath: string;
	/** Delivery ID Fields (empty: none). */
	idFields: string[];
	includeHeaders: boolean;
	includeQuery: boolean;
}

/** Body Format where the scheme shows it; JSON otherwise. */
function bodyFormat(read: ParameterReader, name: SchemeName): BodyFormat {
	if (!schemeOf(name).settings.includes('bodyFormat')) return 'json';
	return read('bodyFormat', 'json') === 'form' ? 'form' : 'json';
}

/** The trigger's settings from its parameters and the secrets of its credential. */
export function settingsFromParameters(
	verification: SchemeName,
	read: ParameterReader,
	secrets: { accepted: unknown[]; all: unknown[] },
): TriggerSettings {
	const options = (read('options', {}) ?? {}) as IDataObject;
	return {
		verification,
		check: schemeOf(verification).checkFrom(read),
		bodyFormat: bodyFormat(read, verification),
		secrets: secrets.accepted,
		credentialSecrets: secrets.all,
		events: parseEventList(read('events', '')),
		eventPath: typeof options.eventPath === 'string' ? options.eventPath : DEFAULT_EVENT_PATH,
		idFields: pathList(options.idFields),
		includeHeaders: options.includeHeaders === true,
		includeQuery: options.includeQuery === true,
	};
}

/**
 * The credential's secret fields, in the order `webhookDelivery.secret` names them (SECRET_NAMES).
 */
export function credentialSecrets(credential: IDataObject): unknown[] {
	return [credential.signingSecret, credential.previousSigningSecret, credential.testSigningSecret];
}

/**
 * The secrets a delivery may be signed with, in the places of SECRET_NAMES: at the Production URL
 * the current and the previous one; at the Test URL the test secret alone once it is set (so a
 * captured production delivery is not accepted there), else the same two as in production.
 */
export function signingSecrets(credential: IDataObject, testUrl: boolean): unknown[] {
	const [current, previous, test] = credentialSecrets(credential);
	if (testUrl && usableSecret(test) !== undefined) return [undefined, undefined, test];
	return [current, previous];
}
