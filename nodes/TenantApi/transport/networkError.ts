/** Recognises transport failures (no HTTP response) behind n8n's error wrappers. */

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'UND_ERR_SOCKET',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
]);

interface ErrorLike {
	code?: unknown;
	message?: unknown;
	cause?: unknown;
	name?: unknown;
}

function* errorChain(error: unknown): Generator<ErrorLike> {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		yield current as ErrorLike;
		current = (current as ErrorLike).cause;
	}
}

/** The network error code (e.g. ECONNRESET, ETIMEDOUT) if the error is a transport failure. */
export function networkErrorCode(error: unknown): string | undefined {
	for (const link of errorChain(error)) {
		if (typeof link.code === 'string' && NETWORK_CODES.has(link.code)) {
			return link.code === 'ECONNABORTED' ? 'ETIMEDOUT' : link.code;
		}
		const message = typeof link.message === 'string' ? link.message : '';
		if (/socket hang up/i.test(message)) return 'ECONNRESET';
		if (/timeout of \d+ms exceeded|timed out/i.test(message)) return 'ETIMEDOUT';
	}
	return undefined;
}

export function isAbortError(error: unknown): boolean {
	for (const link of errorChain(error)) {
		if (link.name === 'AbortError' || link.code === 'ERR_CANCELED' || link.name === 'CanceledError') {
			return true;
		}
	}
	return false;
}

export function describeNetworkFailure(code: string, timeoutMs: number): string {
	switch (code) {
		case 'ETIMEDOUT':
		case 'ESOCKETTIMEDOUT':
		case 'ERR_SOCKET_CONNECTION_TIMEOUT':
			return `no complete answer within ${timeoutMs} ms`;
		case 'ECONNREFUSED':
			return 'the connection was refused';
		case 'EAI_AGAIN':
			return 'the host name could not be resolved';
		case 'ENETUNREACH':
		case 'EHOSTUNREACH':
			return 'the network or host is unreachable';
		default:
			return 'the connection closed before an answer arrived';
	}
}
