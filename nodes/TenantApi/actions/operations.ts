/**
 * The node's operations, one row each, under their resource: how the Operation picker offers it,
 * what the canvas shows under the node, its parameters, what an AI agent is told it does, and what
 * it runs. The node's description (description.ts) and the router are derived from this table.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as sendRequests from './sendRequests.operation';

export interface Operation {
	/** The option in the Operation picker: its name, description and action. */
	name: string;
	description: string;
	action: string;
	/** The subtitle under the node on the canvas; `{endpoint}` stands for that parameter's value. */
	subtitle: string;
	/** Shown for this operation only (each may add conditions of its own). */
	properties: INodeProperties[];
	/** The Description an AI agent is given for the node as a tool (n8n's `@tool` variant). */
	toolDescription: string;
	execute(fn: IExecuteFunctions): Promise<INodeExecutionData[]>;
}

/** A resource of the Resource picker; its Operation picker starts on `defaultOperation`. */
function resource<Operations extends Record<string, Operation>>(row: {
	name: string;
	defaultOperation: keyof Operations & string;
	operations: Operations;
}) {
	return row;
}

export const RESOURCES = {
	account: resource({
		name: 'Account',
		defaultOperation: 'getAll',
		operations: {
			getAll: {
				name: 'Get Many',
				description: 'List accounts, following pages',
				action: 'Get many accounts',
				subtitle: 'Get many accounts',
				properties: getMany.listingFields,
				toolDescription:
					'Lists the accounts of the tenant in the Tenant API. Read-only: it changes nothing. ' +
					'Returns one JSON object per account, with the fields the API sends.',
				execute: async (fn) => await getMany.execute(fn, '/accounts'),
			},
		},
	}),
	request: resource({
		name: 'Request',
		defaultOperation: 'post',
		operations: {
			getAll: {
				name: 'Get Many',
				description:
					'List a collection below the Base URL (e.g. /transfers), following pages, one item per record',
				action: 'Get many records from an endpoint',
				subtitle: 'Get many {endpoint}',
				properties: getMany.collectionFields,
				toolDescription:
					'Lists the records of one collection of the Tenant API (for example transfers or payouts), following its pages. ' +
					'Read-only: it changes nothing. ' +
					'Endpoint: the path of the collection below the API base URL, such as /transfers or /accounts/acc_123/transfers; ' +
					'never a full URL (paths that leave the base URL are refused). ' +
					"Returns one JSON object per record, in the API's order, with the fields the API sends.",
				execute: async (fn) => await getMany.execute(fn),
			},
			post: {
				name: 'POST to Endpoint',
				description:
					'POST a JSON object to a path below the Base URL, with an Idempotency-Key that stays the same on retries',
				action: 'Post to an endpoint',
				subtitle: 'POST {endpoint}',
				properties: sendRequests.postFields,
				toolDescription:
					'Sends a POST request with a JSON body to the Tenant API, to create something or start an action ' +
					'(for example a transfer or a payout). ' +
					'Endpoint: a path below the API base URL, such as /transfers or /payouts/po_123/confirm; never a full URL ' +
					'(paths that leave the base URL are refused). ' +
					'Body: a JSON object (not an array, not text) with the fields the endpoint expects. ' +
					'Writes are idempotent: every request carries an Idempotency-Key, so a retry never creates a duplicate. ' +
					'When the tool takes an idempotency key, pass a business key that names the operation (for example ' +
					'"order-1001"): repeating the call with the same key returns the first result instead of acting twice. ' +
					"Returns the API's JSON answer.",
				execute: async (fn) => await sendRequests.execute(fn, 'POST'),
			},
			send: {
				name: 'Send Request',
				description: 'GET, PUT, PATCH or DELETE an endpoint below the Base URL',
				action: 'Send a request to an endpoint',
				subtitle: '{method} {endpoint}',
				properties: sendRequests.sendFields,
				toolDescription:
					"Sends a request with the node's HTTP method (GET, PUT, PATCH or DELETE) to the Tenant API, " +
					'to read or change something the other operations do not cover. ' +
					'Endpoint: a path below the API base URL, such as /transfers/tr_123; never a full URL ' +
					'(paths that leave the base URL are refused). ' +
					'PUT and PATCH send a body, which must be a JSON object. ' +
					'PUT, PATCH and DELETE are idempotent: they carry an Idempotency-Key, so a retry never acts twice; ' +
					'when the tool takes an idempotency key, pass a business key that names the change. ' +
					"Returns the API's JSON answer.",
				execute: async (fn) => await sendRequests.execute(fn),
			},
		},
	}),
};

/** Every operation with its resource and value, in the table's order. */
export const OPERATIONS = Object.entries(RESOURCES).flatMap(([resource, { operations }]) =>
	Object.entries(operations).map(([value, row]: [string, Operation]) => ({
		resource,
		value,
		...row,
	})),
);

/** The row of an operation; undefined for a combination the table does not have. */
export const operationOf = (resource: unknown, value: unknown) =>
	OPERATIONS.find((row) => row.resource === resource && row.value === value);
