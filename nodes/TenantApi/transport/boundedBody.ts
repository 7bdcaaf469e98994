/**
 * Reads a response body (the stream n8n's helper returns with `encoding: 'stream'`, already
 * decompressed) and stops at a size limit, so a huge or endless answer, or a gzip bomb, costs at
 * most the limit in memory instead of everything the server sends.
 */

export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;

export type BoundedBody = { ok: true; bytes: Buffer } | { ok: false; reason: string };

interface ClosableStream {
	destroy(error?: Error): unknown;
	on(event: string, listener: (...args: never[]) => void): unknown;
	removeListener(event: string, listener: (...args: never[]) => void): unknown;
}

function isStream(body: unknown): body is ClosableStream {
	return (
		!!body &&
		typeof body === 'object' &&
		typeof (body as ClosableStream).destroy === 'function' &&
		typeof (body as ClosableStream).on === 'function' &&
		typeof (body as ClosableStream).removeListener === 'function'
	);
}

/** Closes a response stream nobody will read (errors of a closed stream are irrelevant). */
export function discard(body: unknown): void {
	if (isStream(body)) body.destroy();
}

function tooLarge(maxBytes: number, declaredBytes?: number): BoundedBody {
	const limit = `${Math.round(maxBytes / MIB)} MiB`;
	return {
		ok: false,
		reason:
			declaredBytes === undefined
				? `The response is larger than ${limit}, the most this node accepts; reading stopped at ${limit}`
				: `The response is ${Math.round(declaredBytes / MIB)} MiB, above the ${limit} this node accepts`,
	};
}

function chunkBuffer(chunk: unknown): Buffer {
	if (Buffer.isBuffer(chunk)) return chunk;
	if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
	if (chunk instanceof Uint8Array)
		return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
	if (chunk instanceof ArrayBuffer) return Buffer.from(chunk);
	return Buffer.from(JSON.stringify(chunk) ?? '', 'utf8');
}

/**
 * The body's bytes, at most MAX_RESPONSE_BYTES. A declared Content-Length above the limit is
 * refused without reading; otherwise bytes are counted as they arrive (after decompression) and
 * reading stops there.
 */
export async function readBoundedBody(body: unknown, contentLength: unknown): Promise<BoundedBody> {
	const maxBytes = MAX_RESPONSE_BYTES;
	if (body === undefined || body === null) return { ok: true, bytes: Buffer.alloc(0) };
	const declared = Number(contentLength);
	if (Number.isFinite(declared) && declared > maxBytes) {
		discard(body);
		return tooLarge(maxBytes, declared);
	}
	if (!isStream(body)) {
		const bytes = chunkBuffer(body);
		return bytes.length > maxBytes ? tooLarge(maxBytes, bytes.length) : { ok: true, bytes };
	}
	return await readStream(body, maxBytes);
}

/** A closed stream that never ended: the connection went away mid-answer. */
function prematureClose(): Error {
	return Object.assign(new Error('The connection closed before the whole answer arrived'), {
		code: 'ERR_STREAM_PREMATURE_CLOSE',
	});
}

/** With listeners: `for await` costs several promises and an end-of-stream watcher per answer. */
async function readStream(body: ClosableStream, maxBytes: number): Promise<BoundedBody> {
	return await new Promise<BoundedBody>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let total = 0;
		const stop = () => {
			body.removeListener('data', onData);
			body.removeListener('end', onEnd);
			body.removeListener('error', onError);
			body.removeListener('close', onClose);
		};
		const onData = (chunk: unknown) => {
			const bytes = chunkBuffer(chunk);
			total += bytes.length;
			if (total <= maxBytes) {
				chunks.push(bytes);
				return;
			}
			stop();
			// Closing the stream closes the connection: nothing more is read.
			body.destroy();
			resolve(tooLarge(maxBytes));
		};
		const onEnd = () => {
			stop();
			resolve({ ok: true, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total) });
		};
		const onError = (error: Error) => {
			stop();
			reject(error);
		};
		const onClose = () => {
			stop();
			reject(prematureClose());
		};
		body.on('data', onData);
		body.on('end', onEnd);
		body.on('error', onError);
		body.on('close', onClose);
	});
}
