import type { IExecuteFunctions } from 'n8n-workflow';

function rawParameter(fn: IExecuteFunctions, path: string): unknown {
	let value: unknown = fn.getNode().parameters;
	for (const key of path.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
	return value;
}

/**
 * A reader of the parameter at `path` for any item that remembers the first value it read when the
 * parameter is not an expression: then it is the same for every item, and n8n's getNodeParameter checks
 * the value against the node's description on every call, a few per cent of the node's CPU per request
 * for nothing. An expression is read for every item.
 */
export function cachedParameterReader<T>(fn: IExecuteFunctions, path: string, fallback: T): (itemIndex: number) => T {
	const raw = rawParameter(fn, path);
	if (typeof raw === 'string' && raw.startsWith('=')) return (itemIndex) => fn.getNodeParameter(path, itemIndex, fallback) as T;
	let value: { read: T } | undefined;
	return (itemIndex) => (value ??= { read: fn.getNodeParameter(path, itemIndex, fallback) as T }).read;
}
