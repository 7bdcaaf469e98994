/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * The time and size bounds of one exchange, on plain Node streams (no n8n, no network): one timer at
 * most watches all deadlines, and none is left behind once the run is over. That a body which drips
 * forever is cut at the deadline, and one that never ends at 64 MiB, each connection closed, is
 * test/engine/badInputAnswers.test.ts's (through the node, against the sandbox).
 */
import { Readable } from 'stream';
import * as n8nWorkflow from 'n8n-workflow';
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { readBoundedBody } from '../../nodes/TenantApi/transport/boundedBody';
import {
	DeadlineExceededError,
	DeadlineWatch,
	pickAbortableSleep,
} from '../../nodes/TenantApi/transport/deadline';
import { exchange } from '../../nodes/TenantApi/transport/exchange';

/** A body that sends `chunk` forever, as fast as it is read. */
const endless = (chunk: Buffer) =>
	new Readable({
		read() {
			this.push(chunk);
		},
	});

/** A fresh watch per exchange test, disposed afterwards. */
let watch: DeadlineWatch;
const watchOf = (ms: number) => (watch = new DeadlineWatch(ms));
afterEach(() => watch?.dispose());

const answer = (body: unknown, headers: Record<string, string> = {}): IN8nHttpFullResponse => ({
	statusCode: 200,
	headers,
	body: body as IN8nHttpFullResponse['body'],
});

/** Fake timers count exactly the timers the code under test sets; streams still flow (ticks stay real). */
function countTimers(): () => number {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	return () => jest.getTimerCount();
}
afterEach(() => jest.useRealTimers());

describe('pickAbortableSleep', () => {
	const sleep = async () => undefined;
	const sleepWithAbort = async () => undefined;
	it('takes sleepWithAbort where n8n-workflow has it (1.x), otherwise sleep, which takes the signal (2.x)', () => {
		expect(pickAbortableSleep({ sleep, sleepWithAbort })).toBe(sleepWithAbort);
		expect(pickAbortableSleep({ sleep })).toBe(sleep);
	});
	it("this n8n-workflow's choice stops its timer when aborted", async () => {
		const timers = countTimers();
		const abortable = pickAbortableSleep(n8nWorkflow as never);
		const controller = new AbortController();
		const sleeping = abortable(60_000, controller.signal).catch(() => 'aborted');
		expect(timers()).toBe(1);
		controller.abort();
		expect(await sleeping).toBe('aborted');
		expect(timers()).toBe(0);
	});
});

describe('DeadlineWatch', () => {
	it('lets work that finishes in time through; one timer watches every deadline, and none is left after dispose', async () => {
		const timers = countTimers();
		const watch = new DeadlineWatch(60_000);
		const onExpired = jest.fn();
		const deadlines = Array.from({ length: 20 }, () => watch.start());
		const results = await Promise.all(
			deadlines.map(async (deadline, i) => await deadline.race(Promise.resolve(i), onExpired)),
		);
		expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
		expect(timers()).toBe(1);
		deadlines.forEach((deadline) => deadline.cancel());
		watch.dispose();
		await new Promise((resolve) => setImmediate(resolve));
		expect(timers()).toBe(0);
		expect(onExpired).not.toHaveBeenCalled();
	});

	/** A watch of 100 ms deadlines on a clock the test sets; its sleeps end when the test wakes them. */
	let now = 0;
	let sleeps: Array<{ ms: number; wake: () => void }> = [];
	const watchOnTestClock = () => {
		[now, sleeps] = [0, []];
		const sleep = async (ms: number) =>
			await new Promise<void>((wake) => sleeps.push({ ms, wake }));
		return new DeadlineWatch(100, sleep, () => now);
	};

	it('rejects work that outlives it, running onExpired once; deadlines expire in the order they started, each when its own time is up', async () => {
		const watch = watchOnTestClock();
		const first = watch.start();
		now = 30;
		const second = watch.start();
		const outcomes: string[] = [];
		const never = new Promise<never>(() => undefined);
		const racing = [first, second].map(
			async (deadline, i) =>
				await deadline
					.race(never, () => outcomes.push(`closed ${i}`))
					.catch((error: Error) => outcomes.push(`${i}: ${error.message}`)),
		);
		expect(sleeps.map((s) => s.ms)).toEqual([100]);
		now = 100;
		sleeps[0].wake();
		await racing[0];
		expect(outcomes).toEqual(['closed 0', '0: No complete answer within 100 ms']);
		// Then the watch sleeps until the second deadline, 30 ms later.
		await new Promise((resolve) => setImmediate(resolve));
		expect(sleeps.map((s) => s.ms)).toEqual([100, 30]);
		now = 130;
		sleeps[1].wake();
		await racing[1];
		expect(outcomes.slice(2)).toEqual(['closed 1', '1: No complete answer within 100 ms']);
	});

	it('a finished exchange does not expire later, and the watch stops once nothing is open', async () => {
		const onExpired = jest.fn();
		const deadline = watchOnTestClock().start();
		expect(await deadline.race(Promise.resolve('in time'), onExpired)).toBe('in time');
		deadline.cancel();
		now = 100;
		sleeps[0].wake();
		await new Promise((resolve) => setImmediate(resolve));
		expect(onExpired).not.toHaveBeenCalled();
		expect(sleeps).toHaveLength(1);
	});
});

describe('readBoundedBody', () => {
	it('reads a stream, a buffer, nothing', async () => {
		expect(
			await readBoundedBody(Readable.from([Buffer.from('{"a"'), Buffer.from(':1}')]), undefined),
		).toEqual({ ok: true, bytes: Buffer.from('{"a":1}') });
		expect(await readBoundedBody(Buffer.from('x'), '1')).toEqual({
			ok: true,
			bytes: Buffer.from('x'),
		});
		expect(await readBoundedBody(undefined, undefined)).toEqual({
			ok: true,
			bytes: Buffer.alloc(0),
		});
	});

	it('refuses a declared size above the limit without reading', async () => {
		const body = endless(Buffer.alloc(1024));
		const read = jest.spyOn(body, 'read');
		expect(await readBoundedBody(body, String(65 * 1024 * 1024))).toEqual({
			ok: false,
			reason: 'The response is 65 MiB, above the 64 MiB this node accepts',
		});
		expect(body.destroyed).toBe(true);
		expect(read).not.toHaveBeenCalled();
	});
});

describe('exchange', () => {
	it('returns status, headers and the whole body, and leaves no timer behind', async () => {
		const timers = countTimers();
		const result = await exchange(
			async () =>
				answer(Readable.from([Buffer.from('[1]')]), { 'content-type': 'application/json' }),
			watchOf(60_000),
		);
		expect(result).toEqual({
			statusCode: 200,
			headers: { 'content-type': 'application/json' },
			body: { ok: true, bytes: Buffer.from('[1]') },
		});
		watch.dispose();
		await new Promise((resolve) => setImmediate(resolve));
		expect(timers()).toBe(0);
	});

	it('gives up on headers that never come; an answer that arrives later is closed unread', async () => {
		let deliver: (response: IN8nHttpFullResponse) => void = () => undefined;
		const late = endless(Buffer.from(' '));
		await expect(
			exchange(() => new Promise((resolve) => (deliver = resolve)), watchOf(20)),
		).rejects.toBeInstanceOf(DeadlineExceededError);
		deliver(answer(late));
		await new Promise((resolve) => setImmediate(resolve));
		expect(late.destroyed).toBe(true);
	});

	it('passes network errors through', async () => {
		const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		await expect(exchange(async () => await Promise.reject(reset), watchOf(1000))).rejects.toBe(
			reset,
		);
	});
});
