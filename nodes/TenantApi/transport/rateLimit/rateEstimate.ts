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
 * API as well as any.) It says something else: the node's pace had been rising slowly (rateLimitState.ts) and the
 * API refused it once the burst ran out. A pace rising by `g` requests/s every second empties a full
 * bucket of `burst` sqrt(2 × burst / g) seconds after passing the rate, by when it is sqrt(2 × burst × g)
 * above it; a bucket not quite full empties sooner. And the API let through at least what the node sent,
 * less the burst. The estimate is the higher of these two lower bounds; the refused pace is the upper one.
 */

export interface Segment {
	/** When its first request went out. */
	startedAt: number;
	/** From the first request of the segment to the first request the API refused. */
	elapsedMs: number;
	/** Requests the API accepted in between. */
	accepted: number;
	/** Set when the node held requests back for its own learned pace until the API refused one. */
	paced?: {
		/** The pace when the refused request went out (requests/s). */
		perSecond: number;
		/** The pace when the segment started. */
		startPerSecond: number;
		/** How fast that pace was rising (requests/s per second). */
		growth: number;
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
}

/** Only the latest segments count, so that the estimate follows an API whose limit changes. */
export const RECENT_SEGMENTS = 6;

/**
 * Least squares through `accepted = burst + perSecond × seconds`. With two segments or more that do not
 * draw a line (all refused at once, or all alike), a rough guess from bounds (see `throughput`).
 * Undefined before the second segment.
 */
export function estimateRate(all: Segment[], nowMs: number): RateEstimate | undefined {
	const segments = all.slice(-RECENT_SEGMENTS);
	if (segments.length < 2) return undefined;
	const bounds = segments.filter(pacedBelowRate).map(belowRefusedPace);
	const latest = segments[segments.length - 1];
	if (pacedBelowRate(latest)) return belowRefusedPace(latest);
	const measured = segments.filter((segment) => !pacedBelowRate(segment));
	const estimate = (measured.length >= 2 ? fitLine(measured) : undefined) ?? throughput(segments, nowMs);
	// Never below what a stretch the node paced itself showed the API lets through.
	const bound = bounds.reduce<RateEstimate | undefined>((highest, next) => (next.perSecond > (highest?.perSecond ?? 0) ? next : highest), undefined);
	return bound && bound.perSecond > (estimate?.perSecond ?? 0) ? bound : estimate;
}

/** The node's own pace started below what the API let through in the segment: the node, not the API, set its length. */
export function pacedBelowRate(segment: Segment): segment is Segment & { paced: NonNullable<Segment['paced']> } {
	return segment.paced !== undefined && segment.elapsedMs > 0 && segment.paced.startPerSecond < acceptedRate(segment as Segment & { paced: NonNullable<Segment['paced']> });
}

function belowRefusedPace(segment: Segment & { paced: NonNullable<Segment['paced']> }): RateEstimate {
	const { perSecond: refused, growth, burst } = segment.paced;
	const perSecond = Math.max(acceptedRate(segment), refused - Math.sqrt(2 * burst * growth), refused / 2);
	return { perSecond, burst, uncertainty: refused - perSecond };
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
		return { perSecond: lower, burst: Math.max(1, Math.min(...segments.map((segment) => segment.accepted))), uncertainty: lower };
	}
	const perSecond = (lower + upper) / 2;
	const burst = Math.max(1, Math.min(...segments.map((segment) => segment.accepted - (perSecond * segment.elapsedMs) / 1000)));
	return { perSecond, burst, uncertainty: (upper - lower) / 2 };
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
	return { perSecond, burst, uncertainty: 1 / span };
}
