/**
 * The parameters several operations share (Endpoint, and the retry, timeout and rate-limit Options)
 * and the reading of parameter values. The editor enforces min/max on typed values, but an
 * expression can return anything (2000, -1, "abc"), so every number is checked again where it is
 * read.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ApiClientOptions } from '../../transport/apiClient';
import { asFailure } from '../../transport/errors';
import {
	DEFAULT_IN_PROGRESS,
	MAX_RETRY_DELAY_MS,
	parseInProgressMatches,
} from '../../transport/retryPolicy';

const ENDPOINT_DESCRIPTION =
	'Path below the Base URL of the credential, e.g. /transfers. Absolute URLs and paths that climb above the Base URL are refused.';

/** The Endpoint of a Request operation: a path below the Base URL, confined by apiUrl.ts. */
export function endpointField(description = ENDPOINT_DESCRIPTION): INodeProperties {
	return {
		displayName: 'Endpoint',
		name: 'endpoint',
		type: 'string',
		required: true,
		default: '',
		placeholder: '/transfers',
		description,
	};
}

/** A number, or a non-blank string read as one (what an expression may return); else NaN. */
function numberFrom(value: unknown): number {
	if (typeof value === 'number') return value;
	return typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
}

/** A whole number in [min, max]: values outside are clamped, a non-number gives `fallback`. */
export function clampWhole(value: unknown, min: number, max: number, fallback: number): number {
	const number = numberFrom(value);
	if (!Number.isFinite(number)) return fallback;
	return Math.min(max, Math.max(min, Math.floor(number)));
}

/** A whole number in [min, max], or an Error saying what is allowed (where a guess is wrong). */
export function wholeInRange(value: unknown, min: number, max: number, label: string): number {
	const number = numberFrom(value);
	if (!Number.isInteger(number) || number < min || number > max) {
		throw new Error(
			`${label} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value) ?? String(value)}`,
		);
	}
	return number;
}

function rawParameter(fn: IExecuteFunctions, path: string): unknown {
	let value: unknown = fn.getNode().parameters;
	for (const key of path.split('.'))
		value =
			value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
	return value;
}

/**
 * A reader of the parameter at `path` for any item that remembers the first value it read when the
 * parameter is not an expression: then it is the same for every item, and n8n's getNodeParameter
 * would check it against the node's description again on every call. An expression is read for
 * every item.
 */
export function cachedParameterReader<T>(
	fn: IExecuteFunctions,
	path: string,
	fallback: T,
): (itemIndex: number) => T {
	const raw = rawParameter(fn, path);
	if (typeof raw === 'string' && raw.startsWith('='))
		return (itemIndex) => fn.getNodeParameter(path, itemIndex, fallback) as T;
	let value: { read: T } | undefined;
	return (itemIndex) =>
		(value ??= { read: fn.getNodeParameter(path, itemIndex, fallback) as T }).read;
}

const MAX_ATTEMPTS = 10;
/** Ten minutes: ample for per-second or per-minute limits on a large run, short of hourly ones. */
const DEFAULT_MAX_RATE_LIMIT_WAIT_S = 600;
/** A day: n8n's own execution timeouts end runs sooner. */
const MAX_RATE_LIMIT_WAIT_S = 86_400;
const MAX_REQUESTS_PER_SECOND = 10_000;
/** Node's timers (and so n8n's sleep) cannot wait longer: a larger value would fire after 1 ms. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Retry and timeout settings, offered in the Options of every operation. */
const transportOptionFields: INodeProperties[] = [
	{
		displayName: 'Max Attempts',
		name: 'maxAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_ATTEMPTS },
		default: 4,
		description:
			'How many times a request is sent at most when the network fails, the request times out, or the API answers 5xx. Answers 429 (rate limited) do not count: see Max Rate-Limit Wait. Retries reuse the same Idempotency-Key.',
	},
	{
		displayName: 'Max Rate-Limit Wait (S)',
		name: 'maxRateLimitWait',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_RATE_LIMIT_WAIT_S },
		default: DEFAULT_MAX_RATE_LIMIT_WAIT_S,
		description:
			"How long in all the run may be held back by the API's rate limit: time in which nothing of the run was on its way while a request waited out a 429 (rate limited), or everything paused because the API said its quota is used up or refused every request. Past this, the items still waiting fail with an error that says so.",
	},
	{
		displayName: 'Max Requests per Second',
		name: 'maxRequestsPerSecond',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_REQUESTS_PER_SECOND, numberPrecision: 2 },
		default: 0,
		description:
			"Spaces the requests of this run so that no more than this many start per second, for APIs whose limit is known. 0: no fixed limit; the node paces the API key's requests by its 429 answers and rate-limit headers, for all runs in this n8n process together.",
	},
	{
		displayName: 'Retry Base Delay (Ms)',
		name: 'retryBaseDelay',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 500,
		description:
			'First wait between attempts; it doubles each time (with jitter). A Retry-After header on a 5xx answer takes precedence, up to 30 seconds. After a 429 only the refused request waits, as long as the API asks (at least 100 ms, doubling while it is refused again); the others go on at a lower pace.',
	},
	{
		displayName: 'Timeout (Ms)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_MS },
		default: 30000,
		description:
			'How long one attempt may take in all, from sending the request to the last byte of the answer',
	},
];

/** The Options of an operation: its own, then the retry, timeout and rate-limit ones. */
export function optionsField(own: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...own, ...transportOptionFields],
	};
}

/** How the API says an earlier request with the key is still running (where requests have keys). */
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

const defaultOf = (name: string) =>
	transportOptionFields.find((field) => field.name === name)?.default as number;

export function readTransportOptions(fn: IExecuteFunctions): ApiClientOptions {
	const options = fn.getNodeParameter('options', 0, {}) as Record<string, unknown>;
	const perSecond = numberFrom(options.maxRequestsPerSecond);
	const timeoutMs = asFailure(
		0,
		() => wholeInRange(options.timeout ?? defaultOf('timeout'), 1, MAX_TIMEOUT_MS, 'Timeout (Ms)'),
		'Nothing was sent. Fix the option and run again.',
	);
	return {
		policy: {
			maxAttempts: clampWhole(options.maxAttempts, 1, MAX_ATTEMPTS, defaultOf('maxAttempts')),
			baseDelayMs: clampWhole(
				options.retryBaseDelay,
				0,
				MAX_RETRY_DELAY_MS,
				defaultOf('retryBaseDelay'),
			),
			inProgress: {
				status: clampWhole(options.inProgressStatus, 100, 599, DEFAULT_IN_PROGRESS.status),
				matches:
					options.inProgressMatch === undefined
						? DEFAULT_IN_PROGRESS.matches
						: parseInProgressMatches(options.inProgressMatch),
			},
		},
		timeoutMs,
		rateLimit: {
			maxRequestsPerSecond:
				Number.isFinite(perSecond) && perSecond > 0
					? Math.min(MAX_REQUESTS_PER_SECOND, perSecond)
					: undefined,
			maxWaitMs:
				clampWhole(
					options.maxRateLimitWait,
					0,
					MAX_RATE_LIMIT_WAIT_S,
					DEFAULT_MAX_RATE_LIMIT_WAIT_S,
				) * 1000,
		},
	};
}
