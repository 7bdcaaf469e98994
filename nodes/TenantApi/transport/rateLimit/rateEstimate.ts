/**
 * Learns an API's rate limit from its 429s alone, for APIs that send no rate-limit headers.
 *
 * A segment is a stretch of sending that starts when the API's quota is presumably full (the start of
 * the run, or the end of a pause the API asked for) and ends with the first request it refused. For a
 * token bucket of `burst` requests refilled at `perSecond`, a client that sends faster than the refill
 * gets exactly `burst + perSecond × duration` requests through in such a segment; a client that sent
 * slower for a while gets fewer, so the fit errs on the slow side. A fixed window behaves like a bucket
 * whose burst is the window's quota. The line through the segments gives both figures.
 */

export interface Segment {
	/** When its first request went out. */
	startedAt: number;
	/** From the first request of the segment to the first request the API refused. */
	elapsedMs: number;
	/** Requests the API accepted in between. */
	accepted: number;
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
 * draw a line (all refused at once, say), what got through per second since the first of them, pauses
 * included, with that much uncertainty. Undefined before the second segment.
 */
export function estimateRate(all: Segment[], nowMs: number): RateEstimate | undefined {
	const segments = all.slice(-RECENT_SEGMENTS);
	if (segments.length < 2) return undefined;
	return fitLine(segments) ?? throughput(segments, nowMs);
}

function throughput(segments: Segment[], nowMs: number): RateEstimate | undefined {
	const seconds = (nowMs - segments[0].startedAt) / 1000;
	const accepted = segments.reduce((sum, segment) => sum + segment.accepted, 0);
	if (!(seconds > 0) || accepted === 0) return undefined;
	const perSecond = accepted / seconds;
	return { perSecond, burst: Math.max(1, Math.min(...segments.map((segment) => segment.accepted))), uncertainty: perSecond };
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
