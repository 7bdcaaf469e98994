'use strict';
/**
 * The benchmark's sandbox, in its own process so that the client side (n8n's engine and the nodes)
 * has its own core. Driven over IPC: { id, cmd: 'reset'|'stats'|'recordCount'|'setPagination'|'setRateLimit'|'close', arg }.
 */
const { startSandbox } = require('../sandbox/server');

(async () => {
	const options = JSON.parse(process.argv[2] || '{}');
	const sandbox = await startSandbox({ port: 0, ...options });
	const commands = {
		reset: () => sandbox.reset(),
		stats: () => sandbox.stats(),
		/** Records and distinct business references, to check that every run created one record per item. */
		recordCount: () => {
			const records = sandbox.records();
			return { records: records.length, distinctRefs: new Set(records.map((r) => r.ref)).size };
		},
		setPagination: (mode) => sandbox.setPagination(mode),
		setRateLimit: (config) => sandbox.setRateLimit(config),
		close: async () => {
			await sandbox.close();
			setImmediate(() => process.exit(0));
		},
	};
	process.on('message', async ({ id, cmd, arg }) => {
		try {
			process.send({ id, ok: true, value: await commands[cmd](arg) });
		} catch (error) {
			process.send({ id, ok: false, error: String(error && error.message) });
		}
	});
	process.on('disconnect', () => process.exit(0));
	process.send({
		ready: true,
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.apiKey,
		tenantId: sandbox.tenantId,
	});
})();
