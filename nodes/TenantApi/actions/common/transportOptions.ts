import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ApiClientOptions } from '../../transport/apiClient';
import { MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS } from '../../transport/retryPolicy';

/** Retry and timeout settings, offered in the Options of every operation. */
export const transportOptionFields: INodeProperties[] = [
	{
		displayName: 'Max Attempts',
		name: 'maxAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10 },
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
		typeOptions: { minValue: 1 },
		default: 30000,
		description: 'How long to wait for an answer to one attempt',
	},
];

const defaultOf = (name: string) => transportOptionFields.find((field) => field.name === name)?.default as number;

export function readTransportOptions(fn: IExecuteFunctions): ApiClientOptions {
	const options = fn.getNodeParameter('options', 0, {}) as {
		maxAttempts?: number;
		retryBaseDelay?: number;
		timeout?: number;
	};
	return {
		policy: {
			maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? defaultOf('maxAttempts'))),
			baseDelayMs: Math.max(0, options.retryBaseDelay ?? defaultOf('retryBaseDelay')),
			maxDelayMs: MAX_RETRY_DELAY_MS,
			maxRetryAfterMs: MAX_RETRY_AFTER_MS,
		},
		timeoutMs: Math.max(1, options.timeout ?? defaultOf('timeout')),
	};
}
