/**
 * Learns an API's rate limit from its 429s alone, for APIs that send no rate-limit headers.
 *
 * A segment is a stretch of sending that starts when the API's quota is presumably full (the start of
 * the run, or the end of a pause the API asked for) and ends with the first request it refused. For a
 * token bucket of `burst` requests refilled at `perSecond`, a client that sends faster than the refill
 * gets exactly `burst + perSecond × duration` requests through in such a segment; a client that sent
 * slower for a while gets fewer, so the fit errs on the slow side. A fixed window behaves like a bucket
 * whose burst is the window's quota. The line through the segments gives both figures.
 *
 * A segment the node paced itself, starting below the rate the API turned out to let through in it,
 * measures the node, not the API: it stays out of the line. (One paced from above the rate measures the
 * API as well as any.) It bounds the rate from below instead: in any window that ends with the refused
 * request the API let through at most its burst plus the rate times the window, whatever the node did,
 * so the rate is at least (accepted in the window − burst) / window. The windows are measured on the
 * requests the node really sent (a loaded machine sends slower than its nominal pace); when the whole
 * stretch is remembered, replaying it through a bucket full at its start bounds the rate more tightly.
 * The best bound is the estimate, and the refused pace bounds it from above.
 */

export interface Segment {
	/** When its first request went out. */
	startedAt: number;
	/** From the first request of the segment to the first request the API refused. */
	elapsedMs: number;
	/** Requests the API accepted in between. */
	accepted: number;
	/**
	 * The first stretch of a run: connections are still being opened, so its requests reach the API later
	 * than they went out, the first of them most. It draws the line only until two later stretches can.
	 */
	cold?: boolean;
	/** How long before the refused request each of the latest accepted ones went out (ms, ascending). */
	tailMs?: number[];
	/** Set when the node held requests back for its own learned pace until the API refused one. */
	paced?: {
		/** The pace when the refused request went out (requests/s). */
		perSecond: number;
		/** The pace when the segment started. */
		startPerSecond: number;
		/** The API's burst as the node estimated it then. */
		burst: number;
	};
}

export interface RateEstimate {
	/** What the API lets through per second once its burst is spent. */
	perSecond: number;
	/** How many requests it lets through at once after a pause. */
	burst: number;
	/** How far off `perSecond` may be (requests per second): one request either way over the span measured. */
	uncertainty: number;
	/** Precise enough to pace at: no more probing above it (see rateLimitState.ts). */
	settled: boolean;
}

/** A line this precise (share of the rate) is settled. */
const SETTLED_PRECISION = 0.025;
/**
 * A lower bound from a stretch the node paced itself is settled when it is at least this share of the pace
 * the API refused: the node kept its pace up to the refusal. Further below, the node fell behind (a loaded
 * machine) and the bound says little.
 */
const TIGHT_BOUND = 0.8;
/** The bound holds only if the API's burst is no larger than estimated: the pace keeps this share below it. */
const BOUND_MARGIN = 0.005;
/** A single stretch shorter than this bounds the rate from above by little more than timer noise. */
const MIN_SINGLE_STRETCH_MS = 50;

/** Only the latest segments count, so that the estimate follows an API whose limit changes. */
export const RECENT_SEGMENTS = 6;

/**
 * Least squares through `accepted = burst + perSecond × seconds`. With segments that do not draw a line
 * (one segment, all refused at once, or all alike), a rough guess from bounds (see `throughput`).
 * Undefined until a segment lasted long enough to bound the rate from above.
 */
export function estimateRate(all: Segment[], nowMs: number): RateEstimate | undefined {
	const segments = all.slice(-RECENT_SEGMENTS);
	if (segments.length === 0) return undefined;
	// One stretch draws no line, but once it lasted it bounds the rate from both sides.
	if (segments.length === 1) return segments[0].elapsedMs >= MIN_SINGLE_STRETCH_MS ? throughput(segments, nowMs) : undefined;
	const bounds = segments.flatMap((segment, index) => (setByNode(segment) && !refusedLater(segment, segments.slice(index + 1)) ? [belowRefusedPace(segment)] : []));
	const latest = segments[segments.length - 1];
	if (setByNode(latest)) return belowRefusedPace(latest);
	const warm = segments.filter((segment) => !setByNode(segment) && !segment.cold);
	const measured = warm.length >= 2 ? warm : segments.filter((segment) => !setByNode(segment));
	const line = measured.length >= 2 ? confirmedLine(measured) : undefined;
	const guess = throughput(segments, nowMs);
	// A line through the cold stretch may be far off however straight it looks: it guides the probing, never settles.
	const estimate = mostPrecise(line && measured.some((segment) => segment.cold) ? { ...line, settled: false } : line && onLowerSide(line), guess);
	// Never below what a stretch the node paced itself showed the API lets through.
	const bound = bounds.reduce<RateEstimate | undefined>((highest, next) => (next.perSecond > (highest?.perSecond ?? 0) ? next : highest), undefined);
	return bound && bound.perSecond > (estimate?.perSecond ?? 0) ? bound : estimate;
}

/**
 * A bound rests on the burst estimated when it was drawn: too small a burst makes it too high. The API
 * refusing a later stretch that the node began at the bound's pace, and that let through less than that
 * pace, says so: the bound no longer counts.
 */
function refusedLater(segment: Segment & { paced: NonNullable<Segment['paced']> }, later: Segment[]): boolean {
	const bound = belowRefusedPace(segment).perSecond;
	return later.some((next) => next.paced !== undefined && !setByNode(next) && next.paced.startPerSecond <= bound * (1 + SAME_PACE));
}

/** Paces this close (share) count as the same: the settled pace creeps up while it holds. */
const SAME_PACE = 0.001;

/** Settled, the node paces at a line for the rest of the run: on its lower side, so as not to run above the API. */
function onLowerSide(line: RateEstimate): RateEstimate {
	return line.settled ? { ...line, perSecond: line.perSecond - line.uncertainty / 4 } : line;
}

/** Stretches nearly alike draw a line, but one steeper and less certain than the rough guess. */
function mostPrecise(...estimates: Array<RateEstimate | undefined>): RateEstimate | undefined {
	return estimates.reduce((best, next) => (next && (!best || next.uncertainty < best.uncertainty) ? next : best), undefined);
}

/** The node's own pace started below what the API let through in the segment: the node, not the API, set its length. */
function setByNode(segment: Segment): segment is Segment & { paced: NonNullable<Segment['paced']> } {
	return segment.paced !== undefined && segment.elapsedMs > 0 && segment.paced.startPerSecond < acceptedRate(segment as Segment & { paced: NonNullable<Segment['paced']> });
}

function belowRefusedPace(segment: Segment & { paced: NonNullable<Segment['paced']> }): RateEstimate {
	const { perSecond: refused, burst } = segment.paced;
	const bound = Math.max(acceptedRate(segment), windowedRate(segment.tailMs ?? [], burst), replayedRate(segment, burst, refused), refused / 2);
	const perSecond = bound * (1 - BOUND_MARGIN);
	return { perSecond, burst, uncertainty: Math.max(0, refused - perSecond), settled: bound >= TIGHT_BOUND * refused };
}

/**
 * Windows shorter than this say more about timers than about the API; each window is taken this much
 * longer than measured, for the time between the node sending a request and the API counting it.
 */
const MIN_WINDOW_MS = 250;
const ARRIVAL_SLACK_MS = 5;

/** The best lower bound of the windows that end with the refused request: (accepted − burst) / window. */
function windowedRate(tailMs: number[], burst: number): number {
	let best = 0;
	tailMs.forEach((ms, index) => {
		if (ms >= MIN_WINDOW_MS) best = Math.max(best, ((index + 1 - burst) * 1000) / (ms + ARRIVAL_SLACK_MS));
	});
	return best;
}

/**
 * With every accepted request of the stretch known: the slowest rate at which a bucket of `burst` tokens,
 * full when the stretch began, had a token for each of them. Tighter than the windows when the node spent
 * part of the bucket at the start (its own burst after a pause) and the bucket never filled up again.
 */
function replayedRate(segment: Segment, burst: number, refused: number): number {
	const tailMs = segment.tailMs ?? [];
	if (tailMs.length === 0 || tailMs.length < segment.accepted) return 0;
	const sentMs = tailMs.map((ms) => segment.elapsedMs - ms).sort((a, b) => a - b);
	let [low, high] = [0, refused];
	if (!hadTokens(sentMs, burst, high)) return 0;
	for (let step = 0; step < REPLAY_STEPS; step++) {
		const middle = (low + high) / 2;
		if (hadTokens(sentMs, burst, middle)) high = middle;
		else low = middle;
	}
	return high;
}

/** Halving the range this often pins the rate to a millionth of the refused pace. */
const REPLAY_STEPS = 20;

/** Whether a bucket of `burst` tokens, full at 0 ms and refilled at `perSecond`, had one for each request. */
function hadTokens(sentMs: number[], burst: number, perSecond: number): boolean {
	let tokens = burst;
	let at = 0;
	for (const ms of sentMs) {
		tokens = Math.min(burst, tokens + ((ms - at) * perSecond) / 1000);
		at = ms;
		if (tokens < 1) return false;
		tokens -= 1;
	}
	return true;
}

/** What the API let through per second in the segment, beyond the burst: never more than its rate. */
function acceptedRate(segment: Segment & { paced: NonNullable<Segment['paced']> }): number {
	return ((segment.accepted - segment.paced.burst) * 1000) / segment.elapsedMs;
}

/**
 * Without a line: what got through per second since the first segment, pauses included, is a lower bound
 * on the rate; each segment that lasted bounds it from above (its burst was at least one request). Stretches
 * alike in length (the same concurrency against the same latency) draw no line, and the lower bound alone
 * can be a third of the rate: the estimate is the middle of the two bounds, as uncertain as they are apart.
 */
function throughput(segments: Segment[], nowMs: number): RateEstimate | undefined {
	const seconds = (nowMs - segments[0].startedAt) / 1000;
	const accepted = segments.reduce((sum, segment) => sum + segment.accepted, 0);
	if (!(seconds > 0) || accepted === 0) return undefined;
	const lower = accepted / seconds;
	const upper = Math.min(...segments.filter((segment) => segment.elapsedMs > 0).map((segment) => ((segment.accepted - 1) * 1000) / segment.elapsedMs));
	if (!(upper > lower) || !Number.isFinite(upper)) {
		return { perSecond: lower, burst: Math.max(1, Math.min(...segments.map((segment) => segment.accepted))), uncertainty: lower, settled: false };
	}
	const perSecond = (lower + upper) / 2;
	const burst = Math.max(1, Math.min(...segments.map((segment) => segment.accepted - (perSecond * segment.elapsedMs) / 1000)));
	return { perSecond, burst, uncertainty: (upper - lower) / 2, settled: false };
}

/**
 * Stretches of about the same length (the pace settles, so they do) leave the line's span, and with it
 * `1 / span`, where it was; a line that the latest stretch moved by less than that is more certain than
 * the span says: as certain as the move, and never more than this share of the rate.
 */
const LINE_AGREEMENT_FLOOR = 0.005;

function confirmedLine(segments: Segment[]): RateEstimate | undefined {
	const line = fitLine(segments);
	if (!line) return undefined;
	const before = segments.length >= 3 ? fitLine(segments.slice(0, -1)) : undefined;
	const moved = before && Math.max(Math.abs(line.perSecond - before.perSecond), line.perSecond * LINE_AGREEMENT_FLOOR);
	const uncertainty = Math.min(line.uncertainty, moved ?? line.uncertainty);
	return { ...line, uncertainty, settled: uncertainty / line.perSecond <= SETTLED_PRECISION };
}

function fitLine(segments: Segment[]): RateEstimate | undefined {
	const xs = segments.map((segment) => segment.elapsedMs / 1000);
	const ys = segments.map((segment) => segment.accepted);
	const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
	const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
	let sxx = 0;
	let sxy = 0;
	for (let i = 0; i < xs.length; i++) {
		sxx += (xs[i] - meanX) ** 2;
		sxy += (xs[i] - meanX) * (ys[i] - meanY);
	}
	const span = Math.max(...xs) - Math.min(...xs);
	if (sxx === 0 || span <= 0) return undefined;
	const perSecond = sxy / sxx;
	if (!(perSecond > 0)) return undefined;
	const burst = Math.max(1, Math.min(Math.min(...ys), meanY - perSecond * meanX));
	const uncertainty = 1 / span;
	return { perSecond, burst, uncertainty, settled: uncertainty / perSecond <= SETTLED_PRECISION };
}
