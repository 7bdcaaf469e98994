import type { IExecuteFunctions } from 'n8n-workflow';

import type { NodeErrorFields } from '../../../helpers/errorFields';
import { appendToDescription, appliedOf } from '../../../helpers/errorFields';
import type { KeyLineage } from './keyLineage';
import { conflictExplanation } from './keyLineage';

/**
 * A 409 that is not "still in progress" (the API's other 409: the key was already used with a
 * different request), for an automatic key that an earlier execution or delivery used first: says so
 * in the error's description. Any other error is returned unchanged.
 */
export function explainKeyConflict(fn: IExecuteFunctions, error: Error, itemIndex: number, lineage: KeyLineage): Error {
	if ((error as NodeErrorFields).httpCode !== '409' || appliedOf(error) !== 'no') return error;
	const sentence = conflictExplanation(lineage, String(fn.getExecutionId() ?? ''), itemIndex);
	if (sentence) appendToDescription(error, sentence);
	return error;
}
