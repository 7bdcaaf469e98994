/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

import { startReceiver } from './helpers';

/*
 * `npm run sandbox`: the command line serves with its flags, prints what a user needs and stops cleanly. Its
 * subcommand `deliver` sends one delivery with the in-process sender (proven in webhooks.test.ts), prints its
 * outcome in one line (what `npm start` prints too) and exits 0 only when it was delivered.
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

	it('deliver: sends the payload as given, prints the outcome, exits 0 on a 2xx and 1 when every attempt failed', async () => {
		const receiver = await startReceiver([
			204,
			{ status: 401, headers: { 'content-type': 'application/json' }, body: '{"message":"no"}' },
			{ status: 401, headers: { 'content-type': 'application/json' }, body: '{"message":"no"}' },
		]);
		try {
			const payload = '{"event":"transfers.created","data":{"object":{"id":"tr_1"}}}';
			const delivered = run(['deliver', '--to', receiver.url, '--payload', payload]);
			expect(await delivered.exited).toBe(0);
			expect(delivered.output()).toBe(
				'evt_1: delivered after 1 attempt(s) [answer: 204, no Content-Type, empty body]\n',
			);
			expect(receiver.received[0].body.toString('utf8')).toBe(payload);
			const refused = run(['deliver', '--to', receiver.url, '--attempts', '2']);
			expect(await refused.exited).toBe(1);
			expect(refused.output()).toBe(
				'evt_1: not delivered after 2 attempt(s) [answer: 401, application/json, "{\\"message\\":\\"no\\"}"]\n',
			);
			expect(receiver.received).toHaveLength(3);
		} finally {
			await receiver.close();
		}
	});
});
