/**
 * One RateGovernor per API origin + key for the whole n8n process: module state, shared by every
 * run and every execution of the node. At most MAX_GOVERNORS, the least recently used dropped
 * first; keyed by a hash, so the map never holds a secret.
 */
import { createHash } from 'crypto';

import { lruEntry } from '../../../shared/lru';

import { RateGovernor } from './governor';

export const MAX_GOVERNORS = 1000;

const governors = new Map<string, RateGovernor>();

export function governorKey(origin: string, apiKey: string): string {
	return createHash('sha256').update(origin).update('\n').update(apiKey).digest('hex');
}

export function governorFor(origin: string, apiKey: string): RateGovernor {
	return lruEntry(governors, governorKey(origin, apiKey), () => new RateGovernor(), MAX_GOVERNORS);
}

/** The map's keys, oldest first; for tests. */
export function governorKeys(): string[] {
	return [...governors.keys()];
}
