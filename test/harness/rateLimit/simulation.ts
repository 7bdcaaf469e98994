/**
 * Node runs on a fake clock against a SimulatedApi, the way ApiClient.send uses the rate limit: wait for
 * a turn, send, report the answer; after a 429, wait it out and go again (429s use up no attempt). One
 * Simulation is one API; each governor stands for one n8n process, whose runs share it as the node's do.
 * The governor and run limiter are the sources' (the unit tests) or the built package's (the benchmark:
 * `code`).
 */
import { mapWithConcurrency } from '../../../nodes/TenantApi/actions/common/runItems';
import type { RateSignal, Ticket } from '../../../nodes/TenantApi/transport/rateLimit/governor';
import { RateGovernor } from '../../../nodes/TenantApi/transport/rateLimit/governor';
import type { RunLimitSettings } from '../../../nodes/TenantApi/transport/rateLimit/runLimiter';
import { RunLimiter } from '../../../nodes/TenantApi/transport/rateLimit/runLimiter';
import { createPrng } from '../../../sandbox/prng';
import { FakeClock } from './fakeClock';
import type { SimulatedApiOptions } from './simulatedApi';
import { SimulatedApi } from './simulatedApi';

/** The product code a simulation runs: the sources', or the built package's (the benchmark). */
const SOURCE_CODE = { RateGovernor, RunLimiter };

/** What a run asks of its rate limit: RunLimiter's side of it, or a control client's (workers.ts). */
export interface RunClient {
	acquire(retry: boolean): Ticket | Promise<Ticket>;
	release(ticket: Ticket, signal: RateSignal): void;
	waitOut(retryAfterMs: number | undefined, refusedInARow: number): Promise<void>;
	readonly heldBackMs?: number;
}

export const DEFAULT_SETTINGS: RunLimitSettings = {
	maxWaitMs: 600_000,
	basePauseMs: 500,
	maxPauseMs: 10_000,
};

export class Simulation {
	readonly clock: FakeClock;
	readonly api: SimulatedApi;
	readonly governor: RateGovernor;
	readonly random: () => number;

	constructor(
		api: Omit<SimulatedApiOptions, 'random'>,
		seed = 1,
		timerLateMs = 0,
		readonly code: typeof SOURCE_CODE = SOURCE_CODE,
	) {
		this.random = createPrng(seed);
		const lateness = createPrng(seed + 1_000);
		this.clock = new FakeClock(() => lateness() * timerLateMs);
		this.api = new SimulatedApi(this.clock, { ...api, random: this.random });
		this.governor = this.newGovernor();
	}

	/** The governor of another process. */
	newGovernor(): RateGovernor {
		return new this.code.RateGovernor(this.random);
	}

	/** One run of the node: `items` requests, `concurrency` at once; `governor` stands for another process's. */
	async run(
		items: number,
		concurrency: number,
		settings: Partial<RunLimitSettings> = {},
		governor = this.governor,
	) {
		const limiter = new this.code.RunLimiter(
			governor,
			{ ...DEFAULT_SETTINGS, ...settings },
			this.clock,
			this.random,
		);
		return await this.runWith(limiter, items, concurrency);
	}

	/** One run with `client` as its rate limit; `onAnswer` hears every answer's status. */
	async runWith(
		client: RunClient,
		items: number,
		concurrency: number,
		onAnswer: (status: number) => void = () => {},
	) {
		const startedAt = this.clock.now();
		let [requests, refused] = [0, 0];
		const errors: Error[] = [];
		const sendItem = async () => {
			for (let inARow = 0; ; ) {
				const ticket = await client.acquire(inARow > 0);
				const answer = await this.api.request();
				client.release(ticket, answer.signal);
				requests++;
				onAnswer(answer.status);
				if (answer.status !== 429) return;
				refused++;
				await client.waitOut(
					answer.signal.kind === 'limited' ? answer.signal.retryAfterMs : undefined,
					++inARow,
				);
			}
		};
		await mapWithConcurrency(
			items,
			concurrency,
			async () => await sendItem().catch((error: Error) => void errors.push(error)),
		);
		return {
			elapsedMs: this.clock.now() - startedAt,
			requests,
			refused,
			failedItems: errors.length,
			heldBackMs: client.heldBackMs ?? 0,
			errors,
		};
	}

	/** Runs `work` on the fake clock to its end. */
	async settle<T>(work: Promise<T>): Promise<T> {
		return await this.clock.runUntilSettled(work);
	}

	/** Waits `ms` of simulated time (between runs). */
	async idle(ms: number): Promise<void> {
		await this.settle(this.clock.sleep(ms));
	}

	get requests(): number {
		return this.api.accepted + this.api.refused;
	}
}

/** One run in a fresh process. */
export async function simulate(
	items: number,
	concurrency: number,
	api: Omit<SimulatedApiOptions, 'random'>,
	settings: Partial<RunLimitSettings> = {},
	seed = 1,
	/** Timers fire up to this much late (ms, uniformly), as on a loaded machine. */
	timerLateMs = 0,
) {
	const simulation = new Simulation(api, seed, timerLateMs);
	const run = await simulation.settle(simulation.run(items, concurrency, settings));
	return { ...run, floorMs: (items / api.perSecond) * 1000, simulation };
}
