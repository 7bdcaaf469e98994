import type { IDataObject } from 'n8n-workflow';

import type { Applied } from '../transport/apiClient';

/**
 * The fields of n8n's node errors (NodeApiError, NodeOperationError) that the node reads or adds to, on
 * an error that may be either of them or a plain Error.
 */
export type NodeErrorFields = Error & {
	description?: string | null;
	httpCode?: string | null;
	/** NodeApiError's details: the API client puts `applied` and `idempotencyKey` there. */
	errorResponse?: IDataObject;
	context?: IDataObject;
};

/** Whether the request took effect, as the API client recorded it; undefined for an error from before sending. */
export function appliedOf(error: Error): Applied | undefined {
	return (error as NodeErrorFields).errorResponse?.applied as Applied | undefined;
}

/** Adds a sentence to the error's description (what n8n shows under the message). */
export function appendToDescription(error: Error, sentence: string): void {
	const target = error as NodeErrorFields;
	target.description = target.description ? `${target.description} ${sentence}` : sentence;
}
