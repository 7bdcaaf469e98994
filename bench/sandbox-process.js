'use strict';
/**
 * The benchmark's sandbox in its own process, so that the client side (n8n's engine and the nodes) has its own core.
 * Driven over IPC, one call at a time: { cmd: a method of the sandbox, or 'recordCount' (records and distinct refs), arg }.
 */
const { startSandbox } = require('../sandbox/server');

(async () => {
	const sandbox = await startSandbox({ port: 0, ...JSON.parse(process.argv[2] || '{}') });
	const commands = {
		recordCount: () => {
			const records = sandbox.records();
			return { records: records.length, distinctRefs: new Set(records.map((r) => r.ref)).size };
		},
		close: async () => {
			await sandbox.close();
			setImmediate(() => process.exit(0));
		},
	};
	process.on('message', async ({ cmd, arg }) => {
		try {
			process.send({ ok: true, value: await (commands[cmd] ?? sandbox[cmd])(arg) });
		} catch (error) {
			process.send({ ok: false, error: String(error?.message) });
		}
	});
	process.on('disconnect', () => process.exit(0));
	const { baseUrl, apiKey, tenantId } = sandbox;
	process.send({ baseUrl, apiKey, tenantId });
})();
