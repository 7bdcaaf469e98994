import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Runs a pure step (URL rules, body parsing, pagination reading) and turns what it throws into a
 * NodeOperationError for the item, so the user sees the message on the right item.
 */
export function asNodeError<T>(fn: IExecuteFunctions, itemIndex: number, step: () => T, description?: string): T {
	try {
		return step();
	} catch (error) {
		throw new NodeOperationError(fn.getNode(), (error as Error).message, { itemIndex, description });
	}
}
