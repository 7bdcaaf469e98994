/**
 * One HTTP exchange through n8n's helper, bounded in time (headers and body together) and in size.
 * The answer is requested as a stream so that the node, not the helper, decides how long and how
 * much it reads.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { BoundedBody } from './boundedBody';
import { discard, readBoundedBody } from './boundedBody';
import type { DeadlineWatch } from './deadline';

export interface RawAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: BoundedBody;
}

/**
 * Sends with `send` (which must ask n8n for `encoding: 'stream'`) and reads the whole answer before
 * the watch's deadline. Throws what `send` throws (network errors), or DeadlineExceededError; in
 * both cases the connection is closed.
 */
export async function exchange(
	send: () => Promise<IN8nHttpFullResponse>,
	deadlines: DeadlineWatch,
): Promise<RawAnswer> {
	const deadline = deadlines.start();
	const pending = send();
	let response: IN8nHttpFullResponse | undefined;
	const whole = pending.then(async (answer) => {
		response = answer;
		const headers = (answer.headers ?? {}) as Record<string, unknown>;
		return {
			statusCode: answer.statusCode,
			headers,
			body: await readBoundedBody(answer.body, headers['content-length']),
		};
	});
	try {
		return await deadline.race(whole, () => {
			if (response) discard(response.body);
			// The headers may still come; nobody will read that answer.
			else
				pending.then(
					(late) => discard(late.body),
					() => undefined,
				);
		});
	} finally {
		deadline.cancel();
	}
}
