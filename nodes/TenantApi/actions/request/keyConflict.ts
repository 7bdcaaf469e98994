import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Applied } from '../../transport/apiClient';
import type { KeyLineage } from './keyLineage';
import { conflictExplanation } from './keyLineage';

type ApiErrorLike = Error & { httpCode?: string | null; description?: string | null; errorResponse?: IDataObject };

/**
 * A 409 that is not "still in progress" (the API's other 409: the key was already used with a
 * different request), for an automatic key that an earlier execution or delivery used first: says so
 * in the error's description. Any other error is returned unchanged.
 */
export function explainKeyConflict(fn: IExecuteFunctions, error: Error, itemIndex: number, lineage: KeyLineage): Error {
	const apiError = error as ApiErrorLike;
	const applied = apiError.errorResponse?.applied as Applied | undefined;
	if (apiError.httpCode !== '409' || applied !== 'no') return error;
	const sentence = conflictExplanation(lineage, String(fn.getExecutionId() ?? ''), itemIndex);
	if (sentence) apiError.description = apiError.description ? `${apiError.description} ${sentence}` : sentence;
	return error;
}
