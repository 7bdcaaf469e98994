/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node, not in n8n Cloud */
/** The loopback guard every project n8n runs under (test/harness/n8n/netguard.js), proven on a plain Node process. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const guardLib: typeof import('../harness/n8n/netguard-log') = require('../harness/n8n/netguard-log');
const { guardEnv, readGuardLog } = guardLib;

test('the guard refuses and records what leaves loopback, and lets loopback through', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-netguard-'));
	const log = path.join(dir, 'guard.jsonl');
	// 127.0.0.2 and "localhost" are flagged as outside for this check: nothing leaves the machine.
	const script = `
		const http = require('node:http'), dns = require('node:dns');
		const server = http.createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', async () => {
			const port = server.address().port;
			const out = { loopback: await (await fetch('http://127.0.0.1:' + port)).text() };
			out.flaggedFetch = await fetch('http://127.0.0.2:' + port).then(() => 'connected', (e) => e.cause && e.cause.code);
			out.flaggedLookup = await dns.promises.lookup('localhost').then(() => 'resolved', (e) => e.code);
			server.close();
			console.log(JSON.stringify(out));
		});`;
	const res = spawnSync(process.execPath, ['-e', script], {
		env: { ...process.env, ...guardEnv(log), TENANT_API_NETGUARD_FLAG: '127.0.0.2,localhost' },
		encoding: 'utf8',
		timeout: 30000,
	});
	expect(res.stderr).toBe('');
	expect(JSON.parse(res.stdout)).toEqual({
		loopback: 'ok',
		flaggedFetch: 'ECONNREFUSED',
		flaggedLookup: 'ENOTFOUND',
	});
	const { loaded, attempts } = readGuardLog(log);
	expect(loaded).toHaveLength(1);
	expect(attempts.map((a) => `${a.kind} ${a.target.replace(/:\d+$/, ':port')}`)).toEqual([
		'tcp.connect 127.0.0.2:port',
		'dns.lookup localhost',
	]);
	fs.rmSync(dir, { recursive: true, force: true });
});
