/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

/*
 * `npm run sandbox`: the command line serves with its flags, prints what a user needs and stops cleanly. Its
 * subcommands `deliver` and `register` print what the in-process sender gives (sandbox/senders.js,
 * sandbox/handshakes.js), which test/sandbox/senders.test.ts and webhooks.test.ts prove.
 */

const CLI = path.join(__dirname, '../../sandbox/cli.js');

function run(args: string[]) {
	const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	child.stdout.on('data', (c) => (out += c));
	child.stderr.on('data', (c) => (out += c));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, output: () => out, exited };
}

describe('sandbox CLI', () => {
	it('serves with the given flags, prints what a user needs, and stops cleanly on SIGTERM', async () => {
		const p = run([
			'--port',
			'0',
			'--accounts',
			'7',
			'--pagination',
			'page',
			'--api-key',
			'cli_key',
			'--tenant',
			'cli_tenant',
		]);
		const deadline = Date.now() + 5000;
		while (!/base URL\s+(\S+)/.test(p.output()) && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 20));
		const out = p.output();
		const baseUrl = /base URL\s+(\S+)/.exec(out)?.[1] as string;
		expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
		expect(out).toContain('cli_key');
		expect(out).toContain('cli_tenant');
		expect(out).toContain('/_sandbox/stats');
		const body = await (
			await fetch(baseUrl + '/accounts', {
				headers: { 'Api-Key': 'cli_key', 'x-tenant-id': 'cli_tenant' },
			})
		).json();
		expect(body).toMatchObject({ page: 1, total_pages: 1 });
		expect(body.items).toHaveLength(7);
		p.child.kill('SIGTERM');
		expect(await p.exited).toBe(0);
	});
});
