'use strict';
/*
 * A Node preload (NODE_OPTIONS=--require=…; netguard-log.js sets it up and reads its log) that keeps a
 * process on loopback: every DNS query and TCP/UDP connection outside loopback is refused before any
 * packet leaves (ENOTFOUND / ECONNREFUSED) and written as one JSON line to $TENANT_API_NETGUARD_LOG;
 * each process it loads into first writes a line of kind `loaded`. $TENANT_API_NETGUARD_FLAG (comma-
 * separated hosts) treats those as outside too: the guard's own test stays on loopback.
 */
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const dgram = require('node:dgram');

const LOG = process.env.TENANT_API_NETGUARD_LOG;
const FLAGGED = new Set(
	(process.env.TENANT_API_NETGUARD_FLAG || '')
		.split(',')
		.map((s) => s.trim().toLowerCase())
		.filter(Boolean),
);

/** @param {unknown} host */
function isLoopback(host) {
	if (host === undefined || host === null || host === '') return true; // Node's default: localhost
	const h = String(host)
		.toLowerCase()
		.replace(/^\[|\]$/g, '');
	if (FLAGGED.has(h)) return false;
	if (h === 'localhost' || h.endsWith('.localhost')) return true;
	if (h === '::1' || h === '::' || h === '0.0.0.0' || h === '0:0:0:0:0:0:0:1') return true;
	if (/^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(h)) return true;
	return false;
}

/**
 * @param {string} kind
 * @param {string|null} target
 */
function record(kind, target) {
	const limit = Error.stackTraceLimit;
	Error.stackTraceLimit = 40;
	const stack = (new Error().stack || '')
		.split('\n')
		.slice(3)
		.map((l) => l.trim());
	Error.stackTraceLimit = limit;
	const line =
		JSON.stringify({
			pid: process.pid,
			argv: process.argv.slice(1, 3).join(' '),
			kind,
			target,
			stack,
		}) + '\n';
	if (LOG) fs.appendFileSync(LOG, line);
	else if (kind !== 'loaded') process.stderr.write(`[netguard] ${line}`);
}

/**
 * @param {string} code
 * @param {string} what
 */
function refusal(code, what) {
	/** @type {NodeJS.ErrnoException} */
	const err = new Error(`netguard: ${what} refused (this process may only use loopback)`);
	err.code = code;
	return err;
}

/**
 * Replace obj[name], a resolver function (callback style, or promise style when `promises`), by one
 * that refuses names outside loopback.
 * @param {object} target
 * @param {string} name
 * @param {string} kind
 * @param {boolean} promises
 */
function guardResolver(target, name, kind, promises) {
	const obj = /** @type {Record<string, unknown>} */ (target);
	const original = obj[name];
	if (typeof original !== 'function') return;
	/** @type {(this: unknown, hostname: unknown, ...rest: unknown[]) => unknown} */
	obj[name] = function guarded(hostname, ...rest) {
		if (isLoopback(hostname)) return original.call(this, hostname, ...rest);
		record(kind, String(hostname));
		const err = refusal('ENOTFOUND', `DNS ${kind} of ${hostname}`);
		if (promises) return Promise.reject(err);
		const cb = rest.reverse().find((a) => typeof a === 'function');
		if (cb) process.nextTick(cb, err);
		return undefined;
	};
}

/** Every resolver dns offers: lookup, lookupService, resolve, resolve4, resolveMx… */
const RESOLVERS = Object.keys(dns).filter((name) => /^(lookup|resolve)/.test(name));
for (const name of RESOLVERS) {
	const kind = name === 'lookup' ? 'dns.lookup' : `dns.${name}`;
	guardResolver(dns, name, kind, false);
	guardResolver(dns.Resolver.prototype, name, kind, false);
	guardResolver(dns.promises, name, kind, true);
	guardResolver(dns.promises.Resolver.prototype, name, kind, true);
}

/**
 * host and port of Socket#connect's arguments (options object, port+host, or net's normalized array).
 * @param {unknown[]} args
 * @returns {{ host: unknown, port: unknown } | null}
 */
function connectTarget(args) {
	/** @type {unknown[]} */
	const a = Array.isArray(args[0]) ? args[0] : args;
	const first = a[0];
	if (first && typeof first === 'object') {
		const options =
			/** @type {{ path?: string, host?: string, hostname?: string, port?: number }} */ (first);
		if (options.path) return null; // a unix socket
		return { host: options.host ?? options.hostname ?? 'localhost', port: options.port };
	}
	if (typeof first === 'string' && !/^\d+$/.test(first)) return null; // a unix socket path
	return { host: typeof a[1] === 'string' ? a[1] : 'localhost', port: first };
}

/** @typedef {{ [method: string]: (...args: unknown[]) => unknown }} Patchable a prototype whose methods are replaced here */

const socketPrototype = /** @type {Patchable} */ (/** @type {unknown} */ (net.Socket.prototype));
const originalConnect = socketPrototype.connect;
/**
 * @this {import('node:net').Socket & { connecting: boolean }}
 * @param {...unknown} args
 */
socketPrototype.connect = function guardedConnect(...args) {
	const target = connectTarget(args);
	if (!target || isLoopback(target.host)) return originalConnect.apply(this, args);
	record('tcp.connect', `${target.host}:${target.port}`);
	// The connect callback is never called: the connection does not happen.
	this.connecting = true;
	process.nextTick(() =>
		this.destroy(refusal('ECONNREFUSED', `connection to ${target.host}:${target.port}`)),
	);
	return this;
};

const udpPrototype = /** @type {Patchable} */ (/** @type {unknown} */ (dgram.Socket.prototype));
for (const name of ['send', 'connect']) {
	const original = udpPrototype[name];
	udpPrototype[name] = function guardedUdp(...args) {
		// send(msg, [offset, length,] port, address, cb) / connect(port, address, cb)
		const address = args.find((x, i) => i > 0 && typeof x === 'string');
		const port = args.find((x, i) => i > 0 && typeof x === 'number');
		if (address === undefined || isLoopback(address)) return original.apply(this, args);
		record(`udp.${name}`, `${address}:${port}`);
		const cb = args.find((x) => typeof x === 'function');
		if (cb) process.nextTick(cb, refusal('ECONNREFUSED', `UDP to ${address}`));
		return undefined;
	};
}

record('loaded', null);
