/**
 * One RateGovernor per API origin + key for the whole n8n process: module state, shared by every run and
 * every execution of the node. At most MAX_GOVERNORS, the least recently used dropped first; keyed by a
 * hash, so the map never holds a secret.
 */
import { createHash } from 'crypto';

import { RateGovernor } from './governor';

export const MAX_GOVERNORS = 1000;

/** Map order is insertion order: a governor used again moves to the end, the first is the least recent. */
const governors = new Map<string, RateGovernor>();

export function governorKey(origin: string, apiKey: string): string {
	return createHash('sha256').update(origin).update('\n').update(apiKey).digest('hex');
}

export function governorFor(origin: string, apiKey: string): RateGovernor {
	const key = governorKey(origin, apiKey);
	const governor = governors.get(key) ?? new RateGovernor();
	governors.delete(key);
	governors.set(key, governor);
	if (governors.size > MAX_GOVERNORS) governors.delete(governors.keys().next().value as string);
	return governor;
}

/** The map's keys, oldest first; for tests. */
export function governorKeys(): string[] {
	return [...governors.keys()];
}
