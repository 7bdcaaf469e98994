'use strict';
/*
 * Free loopback ports for the servers the project starts (n8n, its task-runner brokers, Redis, PostgreSQL).
 */
const fs = require('node:fs');
const net = require('node:net');

const HOST = '127.0.0.1';

/** Lowest port of the kernel's ephemeral range (outgoing connections take ports from there). */
function ephemeralLow() {
	try {
		return (
			Number(
				fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
			) || 32768
		);
	} catch {
		return 32768;
	}
}

/**
 * Whether `port` can be bound on 127.0.0.1 right now.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function portFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, HOST, () => srv.close(() => resolve(true)));
	});
}

/**
 * A free TCP port p on 127.0.0.1 with p + 1 … p + run - 1 free too (`n8n start` takes p and its
 * task-runner broker p + 1; CLI commands that run workflows start a broker on p + 2). Picked at random
 * below the ephemeral range, so that no outgoing connection takes it before the server binds it.
 * Another program can still take it in between: callers retry on "already in use".
 */
async function freePort({ run = 1 } = {}) {
	const lo = 10000;
	const hi = Math.max(lo + 1000, Math.min(ephemeralLow(), 65536) - run);
	for (let i = 0; i < 200; i++) {
		const p = lo + Math.floor(Math.random() * (hi - lo));
		let free = true;
		for (let k = 0; k < run && free; k++) free = await portFree(p + k);
		if (free) return p;
	}
	throw new Error(`no ${run} free consecutive ports on ${HOST}`);
}

module.exports = { HOST, freePort };
