/**
 * N items through one RateLimiter against a SimulatedApi, the way ApiClient.send uses it: wait for a
 * turn, send, report the answer; a 429 goes back for another turn without using up an attempt.
 */
import { mapWithConcurrency } from '../../../nodes/TenantApi/actions/common/mapWithConcurrency';
import { RateLimiter } from '../../../nodes/TenantApi/transport/rateLimit/rateLimiter';
import type { RateLimitSettings } from '../../../nodes/TenantApi/transport/rateLimit/rateLimitState';
import { FakeClock, seededRandom } from './fakeClock';
import type { SimulatedApiOptions } from './simulatedApi';
import { SimulatedApi } from './simulatedApi';

export interface SimulationResult {
	elapsedMs: number;
	floorMs: number;
	requests: number;
	refused: number;
	failedItems: number;
	limiter: RateLimiter;
	api: SimulatedApi;
}

export const DEFAULT_SETTINGS: Omit<RateLimitSettings, 'maxConcurrency'> = {
	maxWaitMs: 600_000,
	basePauseMs: 500,
	maxPauseMs: 10_000,
};

export async function simulate(
	items: number,
	concurrency: number,
	api: Omit<SimulatedApiOptions, 'random'>,
	settings: Partial<RateLimitSettings> = {},
	seed = 1,
	/** Timers fire up to this much late (ms, uniformly), as on a loaded machine. */
	timerLateMs = 0,
): Promise<SimulationResult> {
	const random = seededRandom(seed);
	const lateness = seededRandom(seed + 1_000);
	const clock = new FakeClock(() => lateness() * timerLateMs);
	const server = new SimulatedApi(clock, { ...api, random });
	const limiter = new RateLimiter({ ...DEFAULT_SETTINGS, maxConcurrency: concurrency, ...settings }, clock, random);
	let failedItems = 0;
	const sendItem = async () => {
		for (let retry = false; ; retry = true) {
			const ticket = await limiter.acquire(retry);
			const answer = await server.request();
			limiter.release(ticket, answer.signal);
			if (answer.status !== 429) return;
		}
	};
	const run = mapWithConcurrency(items, concurrency, async () => {
		try {
			await sendItem();
		} catch {
			failedItems++;
		}
	});
	await clock.runUntilSettled(run);
	return {
		elapsedMs: clock.now(),
		floorMs: (items / api.perSecond) * 1000,
		requests: server.accepted + server.refused,
		refused: server.refused,
		failedItems,
		limiter,
		api: server,
	};
}
