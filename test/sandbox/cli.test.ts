/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

it('npm run sandbox serves with the given flags, prints what a user needs, and stops cleanly on SIGTERM', async () => {
	const args = ['--port', '0', '--accounts', '7', '--pagination=page', '--api-key', 'cli_key'];
	const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js'), ...args]);
	const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
	let out = '';
	const baseUrl = await new Promise<string>((resolve) =>
		child.stdout.on('data', (chunk) => {
			out += chunk;
			const url = /base URL\s+(\S+)/.exec(out)?.[1];
			if (url && out.includes('(prefix:')) resolve(url);
		}),
	);
	expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
	expect(out).toContain('cli_key');
	expect(out).toContain('/_sandbox/stats');
	const answer = await fetch(`${baseUrl}/accounts`, { headers: { 'Api-Key': 'cli_key' } });
	const body = await answer.json();
	expect(body).toMatchObject({ page: 1, total_pages: 1 });
	expect(body.items).toHaveLength(7);
	child.kill('SIGTERM');
	expect(await exited).toBe(0);
});
