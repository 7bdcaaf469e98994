import { lruEntry } from '../shared/lru';

/**
 * Which refused deliveries become an execution in production (Options → Record Refused Deliveries):
 * at most one per workflow, trigger node and reason every RECORD_WINDOW_MS, per n8n process, so
 * that a flood of forged requests cannot fill the executions list or use up an execution quota.
 * Module state, shared by every delivery the process receives; at most MAX_RECORD_KEYS keys (least
 * recently used dropped first); keys hold no secret.
 */
const RECORD_WINDOW_MS = 5 * 60 * 1000;
const MAX_RECORD_KEYS = 1000;

interface Window {
	/** When the last refusal was recorded (ms). */
	recordedAt: number;
	/** Refusals of this kind answered since then without a record. */
	unrecorded: number;
}

const windows = new Map<string, Window>();

type RecordDecision = { record: true; unrecordedBefore: number } | { record: false };

/** Whether this refusal is recorded; counts it as unrecorded when not. */
export function admitRefusal(
	workflowId: string,
	node: string,
	reason: string,
	nowMs: number,
): RecordDecision {
	const window = lruEntry(
		windows,
		JSON.stringify([workflowId, node, reason]),
		() => ({ recordedAt: -Infinity, unrecorded: 0 }),
		MAX_RECORD_KEYS,
	);
	if (nowMs - window.recordedAt < RECORD_WINDOW_MS) {
		window.unrecorded += 1;
		return { record: false };
	}
	const unrecordedBefore = window.unrecorded;
	window.recordedAt = nowMs;
	window.unrecorded = 0;
	return { record: true, unrecordedBefore };
}
