import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiClientOptions } from '../../transport/apiClient';
import { DEFAULT_IN_PROGRESS, MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS, parseInProgressMatches } from '../../transport/retryPolicy';
import { clampWhole, wholeInRange } from './numberOption';

export const MAX_ATTEMPTS = 10;
/** Node's timers (and so n8n's sleep) cannot wait longer: a larger value would fire after 1 ms. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Retry and timeout settings, offered in the Options of every operation. */
export const transportOptionFields: INodeProperties[] = [
	{
		displayName: 'Max Attempts',
		name: 'maxAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_ATTEMPTS },
		default: 4,
		description:
			'How many times a request is sent at most when the network fails, the request times out, or the API answers 429 or 5xx. Retries reuse the same Idempotency-Key.',
	},
	{
		displayName: 'Retry Base Delay (Ms)',
		name: 'retryBaseDelay',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 500,
		description: 'First wait between attempts; it doubles each time (with jitter). A Retry-After header from the API takes precedence, up to 30 seconds.',
	},
	{
		displayName: 'Timeout (Ms)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_MS },
		default: 30000,
		description: 'How long one attempt may take in all, from sending the request to the last byte of the answer',
	},
];

/** How the API says that an earlier request with the same key is still running; offered where requests carry a key. */
export const inProgressOptionFields: INodeProperties[] = [
	{
		displayName: 'In-Progress Status',
		name: 'inProgressStatus',
		type: 'number',
		typeOptions: { minValue: 100, maxValue: 599 },
		default: 409,
		description:
			'Status with which the API says a request with the same Idempotency-Key is still being processed (Stripe: 409). Such an answer is retried with the same key, like a 5xx.',
	},
	{
		displayName: 'In-Progress Match',
		name: 'inProgressMatch',
		type: 'string',
		default: 'in progress, key in use',
		description:
			'Comma-separated words; an answer with the In-Progress Status means "still in progress" when its error code or message contains one of them (- and _ count as spaces). Empty: never.',
	},
];

const defaultOf = (name: string) => transportOptionFields.find((field) => field.name === name)?.default as number;

interface TransportOptionValues {
	maxAttempts?: unknown;
	retryBaseDelay?: unknown;
	timeout?: unknown;
	inProgressStatus?: unknown;
	inProgressMatch?: unknown;
}

export function readTransportOptions(fn: IExecuteFunctions): ApiClientOptions {
	const options = fn.getNodeParameter('options', 0, {}) as TransportOptionValues;
	let timeoutMs: number;
	try {
		timeoutMs = wholeInRange(options.timeout ?? defaultOf('timeout'), 1, MAX_TIMEOUT_MS, 'Timeout (Ms)');
	} catch (error) {
		throw new NodeOperationError(fn.getNode(), (error as Error).message, {
			itemIndex: 0,
			description: 'Nothing was sent. Fix the option and run again.',
		});
	}
	return {
		policy: {
			maxAttempts: clampWhole(options.maxAttempts, 1, MAX_ATTEMPTS, defaultOf('maxAttempts')),
			baseDelayMs: clampWhole(options.retryBaseDelay, 0, MAX_RETRY_DELAY_MS, defaultOf('retryBaseDelay')),
			maxDelayMs: MAX_RETRY_DELAY_MS,
			maxRetryAfterMs: MAX_RETRY_AFTER_MS,
			inProgress: {
				status: clampWhole(options.inProgressStatus, 100, 599, DEFAULT_IN_PROGRESS.status),
				matches: options.inProgressMatch === undefined ? DEFAULT_IN_PROGRESS.matches : parseInProgressMatches(options.inProgressMatch),
			},
		},
		timeoutMs,
	};
}
