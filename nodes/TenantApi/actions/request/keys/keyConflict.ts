import type { IExecuteFunctions } from 'n8n-workflow';

import { addToDescription, TenantApiFailure } from '../../../transport/errors';
import type { KeyPlaces } from './keyPlaces';
import { conflictExplanation } from './keyLineage';

/**
 * A 409 that is not "still in progress" (the API's other 409: the key was already used with a
 * different request), for an automatic key that an earlier execution or delivery used first: says so
 * in the error's description. Any other error is returned unchanged.
 */
export function explainKeyConflict(fn: IExecuteFunctions, error: Error, itemIndex: number, keys: KeyPlaces): Error {
	if (!(error instanceof TenantApiFailure) || error.httpCode !== 409 || error.applied !== 'no') return error;
	const place = keys.places[itemIndex];
	const event = place instanceof Error ? undefined : place?.event;
	const sentence = conflictExplanation(keys.lineage, event, String(fn.getExecutionId() ?? ''), itemIndex);
	if (sentence) addToDescription(error, sentence);
	return error;
}
