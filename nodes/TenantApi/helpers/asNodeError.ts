import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Runs a pure step (URL rules, body parsing, pagination reading, option and credential checks) and
 * turns what it throws into a NodeOperationError for the item, so the user sees the message on the
 * right item. `itemIndex` undefined: the step belongs to no item (the credential).
 */
export function asNodeError<T>(fn: IExecuteFunctions, itemIndex: number | undefined, step: () => T, description?: string): T {
	try {
		return step();
	} catch (error) {
		throw new NodeOperationError(fn.getNode(), (error as Error).message, { itemIndex, description });
	}
}
