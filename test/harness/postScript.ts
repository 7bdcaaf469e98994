/* Sandbox fault rules that script what happens to the next POSTs to /v1/transfers, one rule per request in order. */
import type { FaultRule } from '../../sandbox/server';

/** 'pass': answered normally; 'drop': committed, then the connection closes without an answer; '500': refused before the commit. */
export type PostStep = 'pass' | 'drop' | '500';

const ACTIONS: Record<PostStep, FaultRule['action']> = {
	pass: { delayMs: 0 },
	drop: { dropAfterCommit: true },
	'500': { status: 500 },
};

export const postScript = (...steps: PostStep[]): FaultRule[] =>
	steps.map((step) => ({ method: 'POST', path: '/v1/transfers', times: 1, action: ACTIONS[step] }));
