/**
 * One HTTP exchange through n8n's helper, bounded in time (headers and body together) and in size.
 * The answer is requested as a stream so that the node, not the helper, decides how long and how much
 * it reads.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { BoundedBody } from './boundedBody';
import { discard, readBoundedBody } from './boundedBody';
import { startDeadline } from './deadline';

export interface RawAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: BoundedBody;
}

/**
 * Sends with `send` (which must ask n8n for `encoding: 'stream'`) and reads the whole answer within
 * `timeoutMs`. Throws what `send` throws (network errors), or DeadlineExceededError; in both cases the
 * connection is closed.
 */
export async function exchange(send: () => Promise<IN8nHttpFullResponse>, timeoutMs: number, maxBytes?: number): Promise<RawAnswer> {
	const deadline = startDeadline(timeoutMs);
	const pending = send();
	try {
		const response = await deadline.race(pending, () => {
			// The headers may still come; nobody will read that answer.
			pending.then((late) => discard(late.body), () => undefined);
		});
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		const body = await deadline.race(readBoundedBody(response.body, headers['content-length'], maxBytes), () =>
			discard(response.body),
		);
		return { statusCode: response.statusCode, headers, body };
	} finally {
		deadline.cancel();
	}
}
